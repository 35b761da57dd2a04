// UI test of entries across a window reload, as a person meets it: one entry open clean and one edited (not saved),
// the Explorer in front, then Developer: Reload Window. Both tabs must come back with their content; the edit must
// still be there and, once the entry changed in the service (Increment from the tree), Ctrl+S must ask instead of
// overwriting the change.
import * as assert from 'node:assert/strict';
import type { UiTest, Workbench } from './workbench';

const editorText = (wb: Workbench) => wb.page.locator('.editor-instance .view-lines').first();

export function entriesUiTest(resultsDir: string): UiTest {
  return {
    name: 'entries come back after a window reload, clean and edited, and a save of the edit asks once the service moved on',
    fn: async (wb: Workbench) => {
      const page = wb.page;
      await wb.openViewContainer('Universes');
      await wb.runCommand('Universe Explorer: Start Local Sandbox');
      await wb.expandTreeRow('Demo Universe');
      await wb.expandTreeRow('Data Stores');
      await wb.expandTreeRow('PlayerData');
      await wb.treeRow('Player_10001').dblclick(); // kept open, not a preview the next entry replaces
      await editorText(wb).filter({ hasText: 'coins' }).waitFor({ timeout: 20_000 });
      // Leaderboard's Player_10003, not PlayerData's: both stores hold one (the breadcrumbs say which opened).
      const scores = await wb.childRow('Leaderboard', 'Player_10003');
      // A click while the tree still lays out the new rows can land on a row that moved: click until it opens.
      const opened = page.locator('.tabs-container .tab.active', { hasText: 'Player_10003' });
      for (let attempt = 0; ; attempt++) {
        await scores.click();
        const open = await opened.waitFor({ timeout: 5_000 }).then(
          () => true,
          () => false,
        );
        if (open) break;
        if (attempt === 3) throw new Error('Player_10003 did not open from the tree');
      }
      await page.locator('.breadcrumbs-control', { hasText: 'Leaderboard' }).waitFor({ timeout: 10_000 });
      // An edit, not saved: with files.autoSave on (code-server's default), an entry stays unsaved.
      await editorText(wb).click();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('424242');
      await page.waitForTimeout(1500);
      assert.match(
        (await wb.tab('Player_10003').getAttribute('class')) ?? '',
        /\bdirty\b/,
        'the edit was saved on its own',
      );
      await wb.openViewContainer('Explorer');

      await wb.reload();
      await wb.tab('Player_10001').waitFor({ timeout: 30_000 });
      await wb.tab('Player_10003').waitFor({ timeout: 30_000 });
      await editorText(wb).filter({ hasText: '424242' }).waitFor({ timeout: 30_000 });
      assert.match(
        (await wb.tab('Player_10003').getAttribute('class')) ?? '',
        /\bdirty\b/,
        'the edit is gone after the reload',
      );
      await wb.screenshot(resultsDir, 'entries-restored-edited');
      await wb.tab('Player_10001').click();
      await editorText(wb).filter({ hasText: 'coins' }).waitFor({ timeout: 30_000 });
      assert.equal(await page.locator('.editor-container', { hasText: 'could not be opened' }).count(), 0);
      await wb.screenshot(resultsDir, 'entries-restored-clean');

      // Another change in the service while the edit waits, one that changes the value's length: Increment from the tree.
      await wb.openViewContainer('Universes');
      await wb.expandTreeRow('Demo Universe');
      await wb.expandTreeRow('Data Stores');
      await wb.contextMenu(await wb.childRow('Leaderboard', 'Player_10003'), 'Increment');
      await wb.answer('Increment Player_10003 by', '100000');
      const now = page.getByText(/Player_10003 is now \d+/).first();
      await now.waitFor({ timeout: 20_000 });
      const incremented = /is now (\d+)/.exec((await now.textContent()) ?? '')![1];

      await wb.tab('Player_10003').click();
      await editorText(wb).click();
      await page.keyboard.press('Control+S');
      const dialog = wb.dialog('was changed in the service since you opened it');
      await dialog.waitFor({ timeout: 20_000 });
      await wb.screenshot(resultsDir, 'entries-conflict-after-reload');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      assert.match((await wb.tab('Player_10003').getAttribute('class')) ?? '', /\bdirty\b/, 'the edit was thrown away');

      // VS Code's own File: Save reaches the same choice, not VS Code's "the file is newer" compare.
      await wb.runCommand('File: Save');
      await dialog.waitFor({ timeout: 20_000 });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      assert.match((await wb.tab('Player_10003').getAttribute('class')) ?? '', /\bdirty\b/, 'the edit was thrown away');

      // Discard and Reload from it shows the service's value, not the discarded edit as if it were saved.
      await wb.runCommand('File: Save');
      await dialog.waitFor({ timeout: 20_000 });
      await dialog.getByRole('button', { name: 'Discard and Reload' }).click();
      await editorText(wb).filter({ hasText: incremented }).waitFor({ timeout: 20_000 });
      assert.doesNotMatch((await wb.tab('Player_10003').getAttribute('class')) ?? '', /\bdirty\b/);
      await wb.screenshot(resultsDir, 'entries-discarded-after-reload');
    },
  };
}
