// UI test of the Universes view with the keyboard only: after the page loads, no click. Commands come from the
// Command Palette (F1), the view gets the focus from its "Focus on Universes View" command, rows are reached with
// the arrow keys, and Enter, Delete, Shift+F10, typing, Ctrl+S and the dialogs' keys do the rest. Arrow keys move the
// focus and leave the selection alone, so every key here must act on the focused row: Enter opens an entry and a
// version, Ctrl+S saves the edit, Delete deletes the focused entry while another row is selected, Shift+F10 on the
// store restores it to two minutes ago through its review panel (Tab, Enter), Shift+F10 on User Restrictions bans a user, Enter on the ban opens Edit Restriction and Delete lifts it.
import * as assert from 'node:assert/strict';
import type { Frame, Locator } from 'playwright-core';
import { escapeRegExp, type UiTest, type Workbench } from './workbench';

const STORE = 'Inventory'; // the first store, so its entries are a few arrows away
const KEY = 'Player_10002';
const USER = '7373';
const SAVED = '["keyboard", "only"]';
/** The command VS Code gives every view (its category differs between versions, so only the end is matched). */
const FOCUS_VIEW = /Focus on Universes View$/;

const quickInput = (wb: Workbench) => wb.page.locator('.quick-input-widget');
const editorText = (wb: Workbench) => wb.page.locator('.editor-instance .view-lines').first();
/** The editor's text on one line, with the non-breaking spaces Monaco renders as plain spaces. */
const editorLine = async (wb: Workbench) => ((await editorText(wb).textContent()) ?? '').replace(/\u00a0/g, ' ');

/** The row of the Universes view that has the keyboard focus (the outlined one). */
function focusedRow(wb: Workbench): Locator {
  return wb.sideBar().locator('.monaco-list-row.focused[role="treeitem"]');
}

async function focusedRowState(wb: Workbench) {
  const row = focusedRow(wb);
  if ((await row.count()) === 0) return undefined;
  return {
    index: await row.getAttribute('data-index'),
    label: (await row.locator('.label-name').first().textContent())?.trim(),
    selected: (await row.getAttribute('aria-selected')) === 'true',
  };
}

/** F1, the command's title typed, the arrows to its row, Enter: the Command Palette without a mouse. */
async function command(wb: Workbench, title: string | RegExp): Promise<void> {
  const widget = quickInput(wb);
  await wb.page.keyboard.press('F1');
  const input = widget.locator('.quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 20_000 });
  assert.equal(await input.inputValue(), '>', 'F1 did not open the Command Palette');
  await wb.page.keyboard.insertText(typeof title === 'string' ? title : title.source.replace(/[\\^$]/g, ''));
  const exact = typeof title === 'string' ? new RegExp(`^${escapeRegExp(title)}$`) : title;
  const named = widget
    .locator('.quick-input-list .monaco-list-row')
    .filter({ has: wb.page.locator('.label-name', { hasText: exact }) });
  await named.first().waitFor({ state: 'visible', timeout: 20_000 });
  // The first row is not always the one named; walk down to it.
  for (let i = 0; (await named.first().getAttribute('class'))?.includes('focused') !== true; i++) {
    if (i === 10) throw new Error(`"${title}" never got the focus in the Command Palette`);
    await wb.page.keyboard.press('ArrowDown');
  }
  await wb.page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: 20_000 });
}

/** The Universes view's own focus command: the tree gets the keyboard, with the row it had focused. */
async function focusTree(wb: Workbench): Promise<void> {
  await command(wb, FOCUS_VIEW);
  await wb.page.waitForFunction(
    () => !!document.activeElement?.closest('#workbench\\.parts\\.sidebar .monaco-list[role="tree"]'),
    undefined,
    { timeout: 20_000 },
  );
}

const FOCUSED = '#workbench\\.parts\\.sidebar .monaco-list-row.focused[role="treeitem"]';

/**
 * Presses `key` (ArrowDown or ArrowUp) until the focused row is `label`, waiting for each move. The rows on the way
 * are loaded (expandFocused waits for them), not necessarily on screen: the list scrolls to the focus as it moves.
 */
async function arrowTo(wb: Workbench, label: string, key: 'ArrowDown' | 'ArrowUp' = 'ArrowDown'): Promise<void> {
  if (!(await focusedRowState(wb))) await wb.page.keyboard.press('Home');
  for (let moves = 0; ; moves++) {
    const now = await focusedRowState(wb);
    if (now?.label === label) return;
    if (moves === 80) throw new Error(`${label}: not reached with ${key} (the focus is on ${now?.label})`);
    await wb.page.keyboard.press(key);
    await wb.page
      .waitForFunction(
        ([selector, index]) => document.querySelector(selector)?.getAttribute('data-index') !== index,
        [FOCUSED, now?.index ?? null] as const,
        { timeout: 10_000 },
      )
      .catch(() => {
        throw new Error(`${label}: not reached with ${key}, the focus stays on ${now?.label}`);
      });
  }
}

/**
 * ArrowRight on a collapsed focused row expands it (on an expanded one it would move to the first child); waits
 * until its first child is loaded, so the arrows that follow do not pass over rows still coming.
 */
async function expandFocused(wb: Workbench): Promise<void> {
  const row = focusedRow(wb);
  if ((await row.getAttribute('aria-expanded')) === 'false') await wb.page.keyboard.press('ArrowRight');
  await wb.page.waitForFunction(
    (selector) => {
      const focused = document.querySelector(selector);
      if (focused?.getAttribute('aria-expanded') !== 'true') return false;
      const next = focused.parentElement?.querySelector(
        `.monaco-list-row[data-index="${Number(focused.getAttribute('data-index')) + 1}"]`,
      );
      return Number(next?.getAttribute('aria-level')) === Number(focused.getAttribute('aria-level')) + 1;
    },
    FOCUSED,
    { timeout: 30_000 },
  );
}

/** ArrowLeft on an expanded focused row collapses it. */
async function collapseFocused(wb: Workbench): Promise<void> {
  const row = focusedRow(wb);
  if ((await row.getAttribute('aria-expanded')) === 'true') await wb.page.keyboard.press('ArrowLeft');
  await wb.page.waitForFunction(
    (selector) => document.querySelector(selector)?.getAttribute('aria-expanded') === 'false',
    FOCUSED,
    { timeout: 20_000 },
  );
}

/** Types the answer to the quick input titled `title` and presses Enter (a pick takes its focused match). */
async function answer(wb: Workbench, title: string, text: string, pickLabel?: string): Promise<void> {
  const widget = quickInput(wb);
  await widget.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: 20_000 });
  const input = widget.locator('.quick-input-box input');
  if (await input.inputValue()) await wb.page.keyboard.press('Control+A');
  await wb.page.keyboard.insertText(text);
  if (pickLabel) {
    await widget
      .locator('.quick-input-list .monaco-list-row.focused', { hasText: pickLabel })
      .waitFor({ state: 'visible', timeout: 20_000 });
  }
  await wb.page.keyboard.press('Enter');
  await widget.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'hidden', timeout: 20_000 });
}

/** A modal dialog answered with the keyboard: Tab to the button named `button` (it shows focused), then Enter. */
async function answerDialog(wb: Workbench, dialog: Locator, button: string): Promise<void> {
  const target = dialog.getByRole('button', { name: button, exact: true });
  for (let i = 0; !(await target.evaluate((b) => b === document.activeElement)); i++) {
    if (i === 6) throw new Error(`the dialog's "${button}" never got the focus`);
    await wb.page.keyboard.press('Tab');
  }
  await wb.page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'hidden', timeout: 20_000 });
}

/** The open context menu's item `label`, reached with the arrows, then Enter. */
async function menuItem(wb: Workbench, label: string, before?: () => Promise<unknown>): Promise<void> {
  const menu = wb.page.locator('.monaco-menu');
  await menu.waitFor({ state: 'visible', timeout: 20_000 });
  const item = menu.locator('.action-item', { hasText: label }).first();
  for (let i = 0; !(await item.getAttribute('class'))?.includes('focused'); i++) {
    if (i === 30) throw new Error(`${label} never got the focus in the context menu`);
    await wb.page.keyboard.press('ArrowDown');
  }
  await before?.();
  await wb.page.keyboard.press('Enter');
}

/** The review panel's page whose heading reads `heading`, once it shows its rows. */
async function reviewFrame(wb: Workbench, heading: string): Promise<Frame> {
  for (let i = 0; i < 300; i++) {
    for (const frame of wb.page.frames()) {
      if (!frame.parentFrame()?.url().includes('webview')) continue;
      const text = await frame.$eval('#heading', (el) => el.textContent).catch(() => undefined);
      if (text === heading && (await frame.$('#spacer .row').catch(() => null))) return frame;
    }
    await wb.page.waitForTimeout(200);
  }
  throw new Error(`no review panel "${heading}"`);
}

export function keyboardUiTest(resultsDir: string): UiTest {
  return {
    name: 'keyboard only: open, edit and save an entry, delete it, restore it, and ban a user in the Universes view without a mouse',
    fn: async (wb) => {
      const page = wb.page;
      // The view's commands are in the palette once the extension's contributions are: its activity bar entry shows.
      await wb.activityBarItem('Universes').waitFor({ state: 'visible', timeout: 60_000 });
      await command(wb, FOCUS_VIEW); // opens the view (its welcome, before the sandbox is started)
      await wb
        .sideBar()
        .getByRole('button', { name: 'Start Local Sandbox' })
        .or(wb.treeRow('Local Sandbox'))
        .first()
        .waitFor({ state: 'visible', timeout: 30_000 });
      await command(wb, 'Universe Explorer: Start Local Sandbox');
      await wb.treeRow('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
      await focusTree(wb);

      // Down to the entry, expanding as a keyboard user does.
      for (const label of ['Local Sandbox', 'Demo Universe', 'Data Stores', STORE]) {
        await arrowTo(wb, label);
        await expandFocused(wb);
      }
      await arrowTo(wb, KEY);
      assert.equal((await focusedRowState(wb))?.selected, false, 'the arrows selected the row');
      await wb.screenshot(resultsDir, 'keyboard-1-entry-focused');

      // Enter opens it, in an editor that has the keyboard.
      await page.keyboard.press('Enter');
      await page.locator('.tabs-container .tab.active', { hasText: KEY }).waitFor({ timeout: 20_000 });
      await page.waitForFunction(() => !!document.activeElement?.closest('.editor-instance'), undefined, {
        timeout: 20_000,
      });
      await editorText(wb).filter({ hasText: '[' }).waitFor({ timeout: 20_000 });

      // Edit and Ctrl+S.
      // Key by key, as a hand types: the editor closes each bracket and quote, and typing the closer steps over it.
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await page.keyboard.type(SAVED);
      await page.locator('.tabs-container .tab.active.dirty', { hasText: KEY }).waitFor({ timeout: 20_000 });
      // The editor draws its line a frame after the last key (under load, a drawn line read `["keyboard", "onl"]`:
      // the closers it had put in, the last letter not yet drawn), so the line is read once drawn, or after 5 s.
      for (let i = 0; i < 50 && (await editorLine(wb)) !== SAVED; i++) await page.waitForTimeout(100);
      assert.equal(await editorLine(wb), SAVED, 'the editor holds something else than what was typed');
      await page.keyboard.press('Control+S');
      await page.locator('.tabs-container .tab.active:not(.dirty)', { hasText: KEY }).waitFor({ timeout: 30_000 });
      await wb.screenshot(resultsDir, 'keyboard-2-entry-saved');

      // The service has it: the entry's newest version, opened with Enter from the tree, shows the saved value.
      await focusTree(wb);
      assert.equal((await focusedRowState(wb))?.label, KEY, 'the tree lost its focused row');
      await expandFocused(wb);
      // Its versions load when it expands; the newest comes first, right under it.
      const versions = wb.sideBar().locator('.monaco-list-row[role="treeitem"][aria-level="6"]');
      await versions.first().waitFor({ state: 'visible', timeout: 20_000 });
      await page.keyboard.press('ArrowDown');
      await focusedRow(wb).and(versions.first()).waitFor({ state: 'visible', timeout: 20_000 });
      await page.keyboard.press('Enter');
      await page
        .locator('.tabs-container .tab.active', { hasText: `${KEY}.json (version of` })
        .waitFor({ timeout: 20_000 });
      await editorText(wb).filter({ hasText: '"keyboard"' }).waitFor({ timeout: 20_000 });
      assert.match(((await editorText(wb).textContent()) ?? '').replace(/\s+/g, ''), /\["keyboard","only"\]/);
      await wb.screenshot(resultsDir, 'keyboard-3-saved-version');

      // Back in the tree the version row is selected (Enter selected it); the focus goes up to the entry, and Delete
      // must ask about the focused entry, not the selected version.
      await focusTree(wb);
      await arrowTo(wb, KEY, 'ArrowUp');
      assert.equal(await versions.first().getAttribute('aria-selected'), 'true', 'Enter did not select the version');
      assert.equal((await focusedRowState(wb))?.selected, false, 'the entry row is selected: the test needs it not');
      await page.keyboard.press('Delete');
      const confirm = wb.dialog(`Delete "${KEY}" (scope global) from ${STORE}?`);
      await confirm.waitFor({ state: 'visible', timeout: 20_000 });
      await wb.screenshot(resultsDir, 'keyboard-4-delete-confirmation');
      await answerDialog(wb, confirm, 'Delete');
      const entryRow = wb
        .sideBar()
        .locator('.monaco-list-row[role="treeitem"][aria-level="5"]')
        .filter({ has: page.locator('.label-name', { hasText: KEY }) })
        .first();
      await entryRow.locator('.label-description', { hasText: 'deleted' }).waitFor({ timeout: 30_000 });
      await wb.screenshot(resultsDir, 'keyboard-5-entry-deleted');

      // Restore the store to two minutes ago from its context menu: the plan opens in a review panel, Tab reaches its
      // Restore button and Enter applies it; the deleted entry comes back.
      await focusTree(wb);
      await arrowTo(wb, STORE, 'ArrowUp');
      await page.keyboard.press('Shift+F10');
      await menuItem(wb, 'Restore to Time…');
      await answer(wb, `Restore ${STORE} (scope global) to a time`, '2m', '2m');
      await answer(wb, `Restore ${STORE} to `, '', 'Every Key');
      const offer = wb.dialog('Take a snapshot');
      if (
        await offer.waitFor({ state: 'visible', timeout: 10_000 }).then(
          () => true,
          () => false,
        )
      )
        await answerDialog(wb, offer, 'Continue Without');
      const review = await reviewFrame(wb, 'Restore to a time');
      await wb.screenshot(resultsDir, 'keyboard-6-restore-review');
      await page.keyboard.press('Tab');
      await review.waitForFunction(() => document.activeElement?.textContent === 'Restore', undefined, {
        timeout: 10_000,
      });
      await page.keyboard.press('Enter');
      await review.locator('#buttons button', { hasText: 'Undo…' }).waitFor({ timeout: 60_000 });
      await wb.screenshot(resultsDir, 'keyboard-7-restore-result');
      await entryRow
        .locator('.label-description', { hasText: 'deleted' })
        .waitFor({ state: 'detached', timeout: 30_000 });

      // Ban a user from the User Restrictions row: Shift+F10 opens its context menu, the arrows reach Ban User….
      await focusTree(wb);
      await arrowTo(wb, STORE, 'ArrowUp');
      await collapseFocused(wb);
      await arrowTo(wb, 'Data Stores', 'ArrowUp');
      await collapseFocused(wb);
      await arrowTo(wb, 'User Restrictions');
      await expandFocused(wb);
      await page.keyboard.press('Shift+F10');
      await menuItem(wb, 'Ban User…', () => wb.screenshot(resultsDir, 'keyboard-8-context-menu'));
      await answer(wb, 'Ban a user from universe 123456', USER);
      // Typed, then Enter once the pick shows what the text means (its list is replaced as the text changes).
      await answer(wb, `Duration of the restriction of user ${USER}`, '1d', 'typed: 1d (86400s)');
      await answer(wb, `Display reason for user ${USER}`, 'Keyboard test');
      await answer(wb, `Private reason for user ${USER}`, 'Banned without a mouse');
      await answer(wb, `Alt accounts of user ${USER}`, 'Ban only this account', 'Ban only this account');
      const banRow = wb.treeRow(USER);
      await banRow
        .locator('.label-description', { hasText: /^active · (1d|23h 59m) left$/ })
        .waitFor({ timeout: 30_000 });
      await wb.screenshot(resultsDir, 'keyboard-9-banned');

      // Enter on the ban opens its Edit Restriction; Escape leaves it as it was.
      await focusTree(wb);
      await arrowTo(wb, USER);
      await page.keyboard.press('Enter');
      const edit = quickInput(wb).locator('.quick-input-title', {
        hasText: `Duration of the restriction of user ${USER}`,
      });
      await edit.waitFor({ state: 'visible', timeout: 20_000 });
      await quickInput(wb).locator('.quick-input-list .monaco-list-row', { hasText: 'Keep 1d' }).waitFor();
      await wb.screenshot(resultsDir, 'keyboard-10-edit-restriction');
      await page.keyboard.press('Escape');
      await edit.waitFor({ state: 'hidden', timeout: 20_000 });

      // Delete on the ban lifts it, after its confirmation and the optional note.
      await focusTree(wb);
      assert.equal((await focusedRowState(wb))?.label, USER);
      await page.keyboard.press('Delete');
      const unban = wb.dialog(`Unban user ${USER} from universe 123456?`);
      await unban.waitFor({ state: 'visible', timeout: 20_000 });
      await answerDialog(wb, unban, 'Unban');
      await answer(wb, `Private reason for lifting the restriction of user ${USER}`, 'Lifted by keyboard');
      await banRow.locator('.label-description', { hasText: /^inactive/ }).waitFor({ timeout: 30_000 });
      await wb.screenshot(resultsDir, 'keyboard-11-unbanned');
    },
  };
}
