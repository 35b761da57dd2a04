// The walk of bans of many users: the demo's raid-list.csv open in the editor, Ban Users from a List… from User
// Restrictions' menu (the active editor as the list, the universe and a place typed, presets made and then used), the
// plan reviewed and applied, the result and its CSV, the restriction log, and Unban Everywhere… on a ban row; and
// rows of the log selected for Ban Selected Users….
import { acceptSaveDialog, buildIndex, logFrame, reviewButton, reviewFrame, type Walker } from './walker';

/** Opens a file of the workspace by Quick Open. */
async function openFile(w: Walker, name: string): Promise<void> {
  await w.page.keyboard.press('Control+P');
  await w.page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
  await w.page.keyboard.type(name);
  await w.pause(800);
  await w.page.keyboard.press('Enter');
  await w.pause(1000);
}

/** Checks the items of the open multi-select pick by label, then OK. */
async function pickMany(w: Walker, labels: string[]): Promise<void> {
  for (const label of labels) {
    const row = w.page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
    await row.waitFor({ state: 'visible', timeout: 10_000 });
    if ((await row.getAttribute('aria-checked')) !== 'true') await row.click();
  }
  await w.pause(400);
}

async function okPick(w: Walker): Promise<void> {
  await w.page.locator('.quick-input-widget').getByRole('button', { name: 'OK', exact: true }).click();
}

/** Ban Users from a List… as far as the reasons: the active editor, the universe and place 1234561. */
async function startBan(w: Walker, shots: boolean): Promise<void> {
  await w.menu(w.row('User Restrictions'), 'Ban Users from a List…');
  await w.page.locator('.quick-input-widget').waitFor({ state: 'visible', timeout: 20_000 });
  await w.pause(600);
  if (shots) await w.shot('sources');
  await w.pick('The Active Editor');
  await w.pause(600);
  await pickMany(w, ['Other places of universe 123456']);
  if (shots) await w.shot('targets');
  await okPick(w);
  await w.type('1234561');
  await w.pause(600);
}

export async function bans(w: Walker): Promise<void> {
  await w.sandboxStores();
  await w.collapse('Data Stores');
  await openFile(w, 'raid-list.csv');
  // First: no presets yet; Make Presets… writes the file with two examples and opens it.
  await startBan(w, true);
  await w.shot('reasons-no-presets');
  await w.pick('Make Presets…');
  await w.pause(1500);
  await w.shot('presets-made');
  await openFile(w, 'raid-list.csv');
  await startBan(w, false);
  await w.shot('reasons-presets');
  await w.pick('Exploiting');
  let frame = await reviewFrame(w, 'Ban users from a list');
  await w.pause(1000);
  await w.shot('plan');
  await reviewButton(frame, 'Ban (');
  frame = await reviewFrame(w, 'Ban users from a list: result');
  await frame.locator('#buttons button', { hasText: 'Export Results as CSV…' }).waitFor({ timeout: 120_000 });
  await w.pause(1000);
  await w.shot('result');
  await reviewButton(frame, 'Export Results as CSV…');
  await acceptSaveDialog(w);
  await w.pause(1000);
  await w.shot('csv-exported');
  await reviewButton(frame, 'Show in Restriction Log');
  await logFrame(w);
  await w.pause(2000);
  await w.shot('log');
  // Unban Everywhere… on one of the new bans: the universe and the place, in a plan of its own.
  await w.wb.expandTreeRow('User Restrictions');
  await w.menu(w.row('3101'), 'Unban Everywhere…');
  frame = await reviewFrame(w, 'Unban everywhere');
  await w.pause(1000);
  await w.shot('unban-plan');
  await reviewButton(frame, 'Unban (');
  await reviewFrame(w, 'Unban everywhere: result');
  await w.pause(1000);
  await w.shot('unban-result');
}

/** Rows of the restriction log selected by their checkboxes, then Ban Selected Users…: the bulk ban's first prompt. */
export async function logSelection(w: Walker): Promise<void> {
  await w.sandboxStores();
  await w.collapse('Data Stores');
  await w.menu(w.row('User Restrictions'), 'Show Restriction Log');
  const frame = await logFrame(w);
  await frame.locator('#rows tr td.select input').nth(1).waitFor({ timeout: 30_000 });
  await frame.locator('#rows tr td.select input').nth(0).check();
  await frame.locator('#rows tr td.select input').nth(1).check();
  await w.pause(600);
  await w.shot('two-selected');
  await frame.locator('#banSelected').click();
  await w.page.locator('.quick-input-widget').waitFor({ state: 'visible', timeout: 20_000 });
  await w.pause(800);
  await w.shot('ban-selected-targets');
  await w.page.keyboard.press('Escape');
}

/**
 * Ban Users… from a query's results: the index built, Query Data… on Data Stores with the richest players typed in
 * and run with Ctrl+Enter, the results panel's button, where, the preset, and the plan (closed without applying).
 */
export async function queryBans(w: Walker): Promise<void> {
  await w.sandboxStores();
  await buildIndex(w);
  await w.menu(w.row('Data Stores'), 'Query Data…');
  await w.page.locator('.monaco-editor .view-lines', { hasText: 'universe:' }).waitFor({ timeout: 20_000 });
  await w.pause(800);
  // The first line names the universe; the query replaces the rest, on one line (Enter would take a completion).
  await w.page.keyboard.press('Control+Home');
  await w.page.keyboard.press('End');
  await w.page.keyboard.press('Shift+Control+End');
  await w.page.keyboard.press('Shift+Enter');
  await w.page.keyboard.type(
    "SELECT key, user_ids, value->>'coins' AS coins FROM entries WHERE store = 'PlayerData' AND CAST(value->>'coins' AS INTEGER) > 4900 ORDER BY key",
    { delay: 5 },
  );
  // Completions open as the words are typed: closed once they have all come.
  await w.pause(1000);
  await w.page.keyboard.press('Escape');
  await w.shot('query-typed');
  await w.page.keyboard.press('Control+Enter');
  const results = await w.wb.webviewFrame('#banUsers');
  await results.locator('#banUsers:not([hidden])').waitFor({ timeout: 60_000 });
  await w.pause(1500);
  await w.shot('results');
  await results.locator('#banUsers').click();
  await w.page.locator('.quick-input-widget').waitFor({ state: 'visible', timeout: 20_000 });
  await w.pause(800);
  await w.shot('where');
  await okPick(w);
  await w.pause(800);
  await w.shot('reasons');
  await w.pick('Exploiting');
  const plan = await reviewFrame(w, 'Ban users from a list');
  await w.pause(1000);
  await w.shot('plan');
  // Beside the results the panel is narrower than its columns: the table scrolls sideways to the last one.
  await plan.locator('#table .head').hover();
  await w.page.mouse.wheel(400, 0);
  await w.pause(600);
  await w.shot('plan-scrolled');
  await w.palette('View: Close Editor');
}
