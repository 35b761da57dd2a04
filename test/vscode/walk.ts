// A walk through the product as a user takes it, against a running `npm start` (not part of npm test):
//   node --import tsx test/vscode/walk.ts [url] [walk ...]
// Each walk drives the workbench with the mouse, menus, the command palette and the keyboard, and saves
// screenshots to test-results/walk-<walk>-<step>.png to look at. The url defaults to npm start's.
import { execFileSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../../scripts/code-server';
import { addFault, cutShortEntryReadV2 } from './faults';
import { launchBrowser, Workbench } from './workbench';
import { bans, logSelection, queryBans } from './walks/bans';
import {
  acceptSaveDialog,
  anotherWriter,
  buildIndex,
  logFrame,
  reviewButton,
  reviewFrame,
  Walker,
} from './walks/walker';

const args = process.argv.slice(2);
const url =
  args.find((a) => a.startsWith('http')) ??
  'http://127.0.0.1:8080/?folder=' + encodeURIComponent(path.join(ROOT, '.tools/start/demo'));

/** The sandbox's tree: stores and an entry opened, a scope chosen, restrictions and their log, Test Connection. */
async function areas(w: Walker): Promise<void> {
  await w.wb.openViewContainer('Universes');
  await w.row('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
  await w.wb.expandTreeRow('Demo Universe');
  await w.wb.expandTreeRow('Data Stores');
  await w.wb.expandTreeRow('PlayerData');
  await w.shot('stores');
  const entry = w.page
    .locator('#workbench\\.parts\\.sidebar .monaco-list-row[role="treeitem"][aria-level="5"]')
    .first();
  await entry.click();
  await w.page.locator('.monaco-editor .view-lines').first().waitFor({ state: 'visible', timeout: 20_000 });
  await w.pause();
  await w.shot('entry-open');
  await w.menu(w.row('Inventory'), 'Choose Scope');
  await w.pick('All scopes');
  await w.wb.expandTreeRow('Inventory');
  await w.pause();
  await w.shot('all-scopes');
  await w.collapse('Data Stores');
  await w.wb.expandTreeRow('User Restrictions');
  await w.pause();
  await w.shot('restrictions');
  await w.menu(w.row('User Restrictions'), 'Show Restriction Log');
  await w.page.locator('iframe.webview').first().waitFor({ state: 'visible', timeout: 20_000 });
  await w.pause(1500);
  await w.shot('restriction-log');
  await w.palette('Universe Explorer: Test Connection');
  await w.pause(1500);
  await w.shot('test-connection');
}

/** Writes from the tree and the palette: Increment on an entry, a ban from the palette shown under its place. */
async function writes(w: Walker): Promise<void> {
  await w.wb.openViewContainer('Universes');
  await w.row('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
  await w.wb.expandTreeRow('Demo Universe');
  await w.wb.expandTreeRow('Data Stores');
  await w.wb.expandTreeRow('Leaderboard');
  const counter = w.page
    .locator('#workbench\\.parts\\.sidebar .monaco-list-row[role="treeitem"][aria-level="5"]')
    .first();
  await w.menu(counter, 'Increment');
  await w.type('5');
  await w.pause(1500);
  await w.shot('incremented');
  await w.collapse('Data Stores');
  await w.palette('Universe Explorer: Ban User…');
  await w.pick('One place');
  await w.type('4242');
  await w.type('3001');
  await w.pick('1 day');
  await w.type('Walked ban');
  await w.type('From the walk');
  await w.pick('Also ban alt accounts');
  await w.pause(1500);
  await w.wb.expandTreeRow('User Restrictions');
  await w.pause(1000);
  await w.shot('banned-at-place');
}

const editorText = (w: Walker) => w.page.locator('.editor-instance .view-lines').first();

/** Entries as files: type, auto-save (code-server's default) does nothing, save, a conflict, a deletion, a reload. */
async function entries(w: Walker): Promise<void> {
  const page = w.page;
  await w.wb.openViewContainer('Universes');
  await w.row('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
  await w.wb.expandTreeRow('Demo Universe');
  await w.wb.expandTreeRow('Data Stores');
  await w.wb.expandTreeRow('PlayerData');
  await w.row('Player_10001').dblclick();
  await editorText(w).filter({ hasText: 'coins' }).waitFor({ timeout: 20_000 });
  await w.shot('opened');
  // Half-typed JSON, then a pause longer than auto-save's: nothing is written, nothing pops up.
  await typeHalfThenSave(w);
  // An edit waits while the tree changes the entry: the save asks.
  await page.keyboard.type(', "again": 1');
  await w.menu(w.row('Player_10001'), 'Edit Attributes and User IDs');
  await w.wb.answer('Attributes of Player_10001', '{"walk": 1}');
  await w.wb.answer('User ids of Player_10001', '');
  await w.pause(1000);
  await editorText(w).click();
  await page.keyboard.press('Control+S');
  await w.wb.dialog('was changed in the service').waitFor({ timeout: 20_000 });
  await w.shot('conflict');
  await w.wb.dialog('was changed in the service').getByRole('button', { name: 'Compare' }).click();
  await w.pause(1500);
  await w.shot('compare');
  await page.keyboard.press('Control+S');
  await w.wb.dialog('was changed in the service').getByRole('button', { name: 'Overwrite' }).click();
  await w.pause(1500);
  await w.shot('overwritten');
  // Another entry deleted: marked in the tree, opened read-only with its last value.
  await w.menu(w.row('Player_10002'), 'Delete');
  await w.wb.dialog('Delete').getByRole('button', { name: 'Delete' }).click();
  await w.pause(1500);
  await w.row('Player_10002').click();
  await w.pause(1500);
  await w.shot('deleted-read-only');
  // Go to Key on a key that is not there.
  await w.menu(w.row('PlayerData'), 'Go to Key');
  await w.wb.answer('Key in PlayerData', 'Walked_Key');
  await w.wb.dialog('does not exist').waitFor({ timeout: 20_000 });
  await w.shot('go-to-missing-key');
  await w.wb.dialog('does not exist').getByRole('button', { name: 'Cancel' }).click();
  // A reload with an edit waiting.
  await w.row('Player_10001').click();
  await editorText(w).click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('End');
  await page.keyboard.type('\n"reloaded": 1,');
  await w.wb.openViewContainer('Explorer');
  await w.pause(1500);
  await w.wb.reload();
  await editorText(w).filter({ hasText: 'coins' }).waitFor({ timeout: 30_000 });
  await w.pause(1000);
  await w.shot('after-reload');
  // The service moves on while the restored edit waits: VS Code's own File: Save asks the product's question.
  await w.wb.openViewContainer('Universes');
  await w.wb.expandTreeRow('Demo Universe');
  await w.wb.expandTreeRow('Data Stores');
  await w.wb.expandTreeRow('PlayerData');
  await w.menu(w.row('Player_10001'), 'Edit Attributes and User IDs');
  await w.wb.answer('Attributes of Player_10001', '{"walk": 2}');
  await w.wb.answer('User ids of Player_10001', '');
  await w.pause(1000);
  await editorText(w).click();
  await w.palette('File: Save');
  await w.wb.dialog('was changed in the service').waitFor({ timeout: 20_000 });
  await w.shot('file-save-after-reload');
  await w.wb.dialog('was changed in the service').getByRole('button', { name: 'Discard and Reload' }).click();
  await w.pause(1500);
  await w.shot('discarded');
}

/** The sandbox shared by windows: its address and key from the palette, a second window, a reload. */
async function sandbox(w: Walker): Promise<void> {
  await w.wb.openViewContainer('Universes');
  await w.row('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
  const address = await w.wb.treeRowDescription('Local Sandbox');
  await w.row('Local Sandbox').hover();
  await w.pause(1500);
  await w.shot('tooltip');
  await w.palette('Universe Explorer: Copy Sandbox Address and Key');
  await w.pause();
  await w.shot('copy-pick');
  await w.pick('curl Command');
  await w.pause();
  await w.shot('copied');
  const second = new Walker(await w.wb.another(), `${w.name}-second`);
  try {
    await second.wb.openViewContainer('Universes');
    await second.row('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
    if ((await second.wb.treeRowDescription('Local Sandbox')) !== address) throw new Error('two sandboxes');
    await second.shot('second-window');
  } finally {
    await second.wb.close();
  }
  await w.wb.reload();
  await w.wb.openViewContainer('Universes');
  await w.row('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
  if ((await w.wb.treeRowDescription('Local Sandbox')) !== address) throw new Error('the address changed');
  await w.shot('after-reload');
}

/** The webview page of the restriction log (webviews are a frame inside the workbench's webview frame). */
/** Backups and hostile values: an export meeting an unreadable entry, a CSV of formula-like reasons, an upload left pending. */
async function backups(w: Walker): Promise<void> {
  const page = w.page;
  const sandboxUrl = await w.sandboxStores();
  // Another writer's value that is not JSON, played back by the sandbox for the next entry read.
  await addFault(sandboxUrl, cutShortEntryReadV2(1));
  await w.menu(w.row('Inventory'), 'Export…');
  await acceptSaveDialog(w);
  await w.pause(800);
  if (await page.locator('.quick-input-title', { hasText: 'already holds entries' }).isVisible()) {
    await w.shot('export-file-exists');
    await w.pick('Start Over');
  }
  const summary = page.locator('.notification-toast', { hasText: 'could not be read' });
  await summary.waitFor({ timeout: 30_000 });
  await w.pause(500);
  await w.shot('export-summary');
  await summary.getByRole('button', { name: 'Open Failures' }).click();
  await w.pause(1500);
  await w.shot('failures-file');
  await w.collapse('Data Stores');

  // A ban whose reason is a spreadsheet formula, exported from the log as CSV.
  await w.palette('Universe Explorer: Ban User…');
  await w.pick('Whole universe');
  await w.type('5150');
  await w.pick('1 day');
  await w.type('=HYPERLINK("http://evil.example","Appeal here")');
  await w.type("+cmd|' /C calc'!A0");
  await w.pick('Also ban alt accounts');
  await w.pause(1500);
  await w.palette('Universe Explorer: Show Restriction Log');
  const frame = await logFrame(w);
  await frame.locator('td.reason', { hasText: 'HYPERLINK' }).first().waitFor({ timeout: 20_000 });
  await w.shot('log-with-formulas');
  await frame.locator('#export').click();
  await acceptSaveDialog(w);
  const exported = page.locator('.notification-toast', { hasText: 'restriction log entries' });
  await exported.waitFor({ timeout: 20_000 });
  await exported.getByRole('button', { name: 'Open File' }).click();
  await w.pause(1500);
  await w.shot('csv-neutralised');

  // An upload whose following is cancelled stays pending, and joins the Assets group once checked.
  await w.wb.openViewContainer('Explorer');
  await w.wb.expandTreeRow('assets');
  await w.menu(w.row('coin.png'), 'Upload as Asset');
  await w.pause(800);
  if (await page.locator('.quick-input-title', { hasText: 'Upload coin.png as' }).isVisible()) await w.pick('Image');
  await w.wb.answer('Display name for coin.png', 'Walked Upload');
  await w.wb.answer('Description', 'Uploaded by the walk');
  await w.wb.answer('Creator', '1234');
  const progress = page.locator('.notification-toast', { hasText: 'Uploading coin.png' });
  await progress.waitFor({ timeout: 20_000 });
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await w.pause(1500);
  await w.shot('upload-cancelled');
  await w.wb.openViewContainer('Universes');
  await w.wb.expandTreeRow('Assets');
  await w.pause(1000);
  await w.shot('pending-upload');
  await w.palette('Universe Explorer: Check Pending Uploads');
  await w.pause(2500);
  await w.shot('pending-checked');
}

/** Menus that work: a duration typed into the list, Edit on a restriction's row, icons only on group rows. */
async function menus(w: Walker): Promise<void> {
  const page = w.page;
  await w.wb.openViewContainer('Universes');
  await w.row('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
  await w.wb.expandTreeRow('Demo Universe');
  await w.palette('Universe Explorer: Ban User…');
  await w.pick('Whole universe');
  await w.type('6060');
  await page.locator('.quick-input-title', { hasText: 'Duration' }).waitFor({ timeout: 10_000 });
  await page.locator('.quick-input-widget input').fill('3d');
  await w.pause(600);
  await w.shot('typed-duration');
  await page.keyboard.press('Enter');
  await w.type('Typed duration');
  await w.type('');
  await w.pick('Also ban alt accounts');
  await w.pause(1500);
  await w.wb.expandTreeRow('User Restrictions');
  await w.pause(1000);
  const ban = w.row('6060');
  await ban.hover();
  await w.shot('restriction-row');
  await ban.click({ button: 'right' });
  await page.locator('.monaco-menu .action-item', { hasText: 'Edit Restriction' }).first().waitFor({ timeout: 10_000 });
  await w.shot('restriction-menu');
  await page.keyboard.press('Escape');
  await w.wb.expandTreeRow('Data Stores');
  await w.wb.expandTreeRow('PlayerData');
  await w.row('Player_10001').hover();
  await w.pause(500);
  await w.shot('entry-row-no-refresh-icon');
}

/** Every day: the status bar during a (slowed) export and its details, Delete and Enter, typed scope, times, Undo. */
async function daily(w: Walker): Promise<void> {
  const page = w.page;
  const sandboxUrl = await w.sandboxStores();
  await w.shot('status-bar-connection');

  // Inventory's scope typed into its list.
  await w.row('Inventory').hover();
  await w.row('Inventory').getByRole('button', { name: 'Choose Scope…' }).click();
  await page.locator('.quick-input-widget input').fill('season2');
  await w.pause(600);
  await w.shot('typed-scope');
  await page.keyboard.press('Enter');
  await w.pause(1000);
  await w.shot('scope-season2');

  // The sandbox answers slowly (as a busy service would), so the export shows in the status bar.
  await addFault(sandboxUrl, { method: 'GET', path: '@latest', delayMs: 2000, times: 25 });
  await w.menu(w.row('Inventory'), 'Export…');
  await acceptSaveDialog(w);
  await w.pause(800);
  if (await page.locator('.quick-input-title', { hasText: 'already holds entries' }).isVisible())
    await w.pick('Start Over');
  await page.locator('.statusbar-item', { hasText: 'Exporting Inventory' }).waitFor({ timeout: 20_000 });
  await w.pause(800);
  await w.shot('status-bar-export');
  await page.locator('.statusbar-item', { hasText: 'Exporting Inventory' }).click();
  await w.pause(500);
  await w.shot('status-details-export');
  await page.keyboard.press('Escape');
  await page.locator('.notification-toast', { hasText: 'Exported' }).waitFor({ timeout: 60_000 });
  await w.shot('export-done');
  // A toast with a button stays until dismissed, and VS Code then hides newer ones behind it: dismiss it as a user does.
  await w.palette('Notifications: Clear All Notifications');
  await w.collapse('Inventory');

  // Delete by key on an entry, its confirmation, then Undo from the toast.
  await w.wb.expandTreeRow('Leaderboard');
  const entry = w.page
    .locator('.monaco-list-row[role="treeitem"][aria-level="5"]', { hasText: 'Player_10003' })
    .first();
  await entry.click();
  await w.pause(800);
  await entry.click();
  await page.keyboard.press('Delete');
  const dialog = w.wb.dialog('Delete "Player_10003"');
  await dialog.waitFor({ timeout: 10_000 });
  await w.shot('delete-key-confirmation');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  const deleted = page.locator('.notification-toast', { hasText: 'Deleted "Player_10003"' });
  await deleted.waitFor({ timeout: 20_000 });
  await w.shot('deleted-with-undo');
  await w.pause(); // a person reads the toast first
  await deleted.getByRole('button', { name: 'Undo' }).click();
  await page.locator('.notification-toast', { hasText: 'holds its earlier value again' }).waitFor({ timeout: 20_000 });
  await w.shot('undone');

  // Increment says what it did, with Undo.
  await w.menu(entry, 'Increment…');
  await w.type('5');
  const incremented = page.locator('.notification-toast', { hasText: 'incremented by 5' });
  await incremented.waitFor({ timeout: 20_000 });
  await w.shot('incremented-with-undo');
  await w.pause();
  await incremented.getByRole('button', { name: 'Undo' }).click();
  await page.locator('.notification-toast', { hasText: 'undoing the increment' }).waitFor({ timeout: 20_000 });

  // A version's row and tooltip: local time, UTC beside it.
  await w.wb.expandTreeRow('Player_10003');
  const version = w.page.locator('.monaco-list-row[role="treeitem"][aria-level="6"]').first();
  await w.hoverThenOpen(version, 'version-tooltip-times', 'version-tab-title');
  await w.collapse('Data Stores');

  // Enter on an asset opens its details.
  await w.wb.expandTreeRow('Assets');
  await w.pause(1000);
  const asset = w.page.locator('.monaco-list-row[role="treeitem"][aria-level="4"]').last();
  await asset.click();
  await page.keyboard.press('Enter');
  await w.pause(1500);
  await w.shot('enter-asset-details');
}

/** The time machine: Settings compared with a week ago and a key's diff; the history of GameConfig's maxPlayers. */
/** The review panel's page whose heading reads `heading` (the newest one opened when several match). */
async function timemachine(w: Walker): Promise<void> {
  const page = w.page;
  await w.sandboxStores();
  await w.menu(w.row('Settings'), 'Compare with Time…');
  await w.moment('15d', 'moment-typed'); // the demo's Settings changed 10 to 20 days ago
  await w.pick('Every Key');
  let frame = await reviewFrame(w, 'Compare with a time');
  await w.pause(800);
  await w.shot('compare-review');
  await frame.locator('#spacer .row.opens').first().click();
  await w.pause(1500);
  await w.shot('compare-row-diff');
  await page.locator('.tab', { hasText: 'Compare Settings' }).first().click();
  frame = await reviewFrame(w, 'Compare with a time');

  // Restore to This Time… from the comparison: the direction fixed, the plan in its own review.
  await reviewButton(frame, 'Restore to This Time…');
  // The sandbox speaks cloud v2: a snapshot is offered first (unless one was taken today).
  const offer = w.wb.dialog('Take a snapshot');
  if (
    await offer.waitFor({ timeout: 5_000 }).then(
      () => true,
      () => false,
    )
  ) {
    await w.shot('snapshot-offered');
    await offer.getByRole('button', { name: 'Take Snapshot' }).click();
  }
  frame = await reviewFrame(w, 'Restore to a time');
  await w.pause(800);
  await w.shot('restore-plan');
  await frame.locator('#spacer .row.opens').first().click();
  await w.pause(1500);
  await w.shot('restore-plan-row-diff');
  await page.locator('.tab', { hasText: 'Restore to a time' }).first().click();
  frame = await reviewFrame(w, 'Restore to a time');
  await reviewButton(frame, 'Restore');
  await frame.locator('#buttons button', { hasText: 'Undo…' }).waitFor({ timeout: 60_000 });
  await w.pause(800);
  await w.shot('restore-result');
  await reviewButton(frame, 'Undo…');
  frame = await reviewFrame(w, 'Undo a restore');
  await w.pause(800);
  await w.shot('undo-plan');
  await reviewButton(frame, 'Undo');
  await frame.locator('#buttons button', { hasText: 'Export Files…' }).waitFor({ timeout: 60_000 });
  await w.pause(800);
  await w.shot('undo-result');
  await w.palette('View: Close All Editors');
  await w.collapse('Data Stores');
  await w.wb.expandTreeRow('Recent Operations');
  await w.pause(800);
  await w.shot('recent-operations');
  await w.rowStarting('Restore of Settings').click();
  await reviewFrame(w, 'Restore to a time');
  await w.pause(800);
  await w.shot('reopened-result');
}

/** Open at Time on Settings: the rows as they were, one opened read-only, compared with now, the view closed. */
async function openat(w: Walker): Promise<void> {
  const page = w.page;
  await w.sandboxStores();
  await w.menu(w.row('Settings'), 'Open at Time…');
  await w.moment('15d', 'moment-typed');
  const view = w.row('As of');
  await view.waitFor({ state: 'visible', timeout: 20_000 });
  await w.pause(1500);
  await w.shot('rows-as-of');
  const then = w.row('GameConfig'); // the view is the store's first child
  await w.hoverThenOpen(then, 'row-tooltip', 'opened-read-only');
  await w.menu(then, 'Compare with Current');
  await w.pause(1500);
  await w.shot('compare-with-current');
  await w.palette('View: Close All Editors');
  await w.menu(view, 'Compare with Time…');
  await w.pick('Only Some Keys…');
  await w.pick('GameConfig');
  await w.pick('LegacyConfig');
  await w.shot('some-keys-picked');
  await w.page.keyboard.press('Enter');
  await acceptSaveDialog(w);
  const summary = page.locator('.notification-toast', { hasText: 'Show Differences' });
  await summary.waitFor({ timeout: 30_000 });
  await w.shot('compare-from-view');
  await w.palette('Notifications: Clear All Notifications');
  await view.hover();
  await view.getByRole('button', { name: 'Close Time View' }).click();
  await view.waitFor({ state: 'detached', timeout: 10_000 });
  await w.shot('closed');
}

/**
 * Cloud v2 in the sandbox: a snapshot, a store deleted by its typed name and undeleted, an entry at a time, and a
 * deleted entry shown on request and undeleted.
 */
async function v2(w: Walker): Promise<void> {
  const page = w.page;
  const sandboxUrl = await w.sandboxStores();
  await w.menu(w.row('Data Stores'), 'Take Snapshot');
  await page.locator('.notification-toast', { hasText: 'napshot' }).first().waitFor({ timeout: 20_000 });
  await w.pause(800); // the toast slides in
  await w.shot('snapshot-taken');
  await w.palette('Notifications: Clear All Notifications');

  await w.menu(w.row('Leaderboard'), 'Delete Data Store…');
  await w.pause(400);
  await w.shot('delete-asks-name');
  await w.type('Leaderboard');
  const deleted = page.locator('.notification-toast', { hasText: 'Deleted data store Leaderboard' });
  await deleted.waitFor({ timeout: 20_000 });
  await w.shot('deleted-with-undo');
  await w.palette('Notifications: Clear All Notifications');

  await w.menu(w.row('Data Stores'), 'Show Deleted Stores');
  const gone = w.row('Leaderboard');
  await gone.waitFor({ timeout: 10_000 });
  await gone.hover();
  await w.pause(1500);
  await w.shot('deleted-shown');
  await gone.getByRole('button', { name: 'Undelete Data Store' }).click();
  await page.locator('.notification-toast', { hasText: 'Leaderboard is back' }).waitFor({ timeout: 20_000 });
  await w.shot('undeleted');
  await w.palette('Notifications: Clear All Notifications');
  await w.menu(w.row('Data Stores'), 'Hide Deleted Stores');

  await w.wb.expandTreeRow('Settings');
  await w.menu(w.row('GameConfig'), 'Open at Time…');
  await w.moment('15d', 'entry-moment');
  await w.pause(1500);
  await w.shot('entry-at-time');
  await w.palette('View: Close All Editors');

  // Deleted entries: hidden until asked for, then undeleted from the row, and the Undo.
  await w.menu(w.row('Settings'), 'Show Deleted Entries');
  const legacy = w.row('LegacyConfig');
  await legacy.locator('.label-description', { hasText: 'deleted' }).waitFor({ timeout: 20_000 });
  await legacy.hover();
  await w.pause(1500);
  await w.shot('deleted-entries-shown');
  await legacy.getByRole('button', { name: 'Undelete Entry' }).click();
  const undeleted = page.locator('.notification-toast', { hasText: 'Undeleted "LegacyConfig" in Settings' });
  await undeleted.waitFor({ timeout: 20_000 });
  await w.pause(500);
  await w.shot('entry-undeleted');
  await undeleted.getByRole('button', { name: 'Undo' }).click();
  await page.locator('.notification-toast', { hasText: 'is deleted again' }).waitFor({ timeout: 20_000 });
  await w.shot('undelete-undone');
  await w.palette('Notifications: Clear All Notifications');

  // Another writer deletes Maintenance; Refresh on the store marks it, and its Undelete puts it back.
  const other = anotherWriter(sandboxUrl);
  await other.datastores.deleteEntry({ universeId: 123456, datastoreName: 'Settings', entryKey: 'Maintenance' });
  await other.close();
  await w.row('Settings').hover();
  await w.row('Settings').getByRole('button', { name: 'Refresh' }).click();
  const maintenance = w.row('Maintenance');
  await maintenance.locator('.label-description', { hasText: 'deleted' }).waitFor({ timeout: 20_000 });
  await w.shot('refresh-marks-deleted');
  await maintenance.hover();
  await maintenance.getByRole('button', { name: 'Undelete Entry' }).click();
  await page.locator('.notification-toast', { hasText: 'Undeleted "Maintenance"' }).waitFor({ timeout: 20_000 });
  await w.palette('Notifications: Clear All Notifications');
  await w.menu(w.row('Settings'), 'Hide Deleted Entries');
  await legacy.waitFor({ state: 'detached', timeout: 20_000 });
  await w.shot('deleted-entries-hidden');
}

/**
 * Two stores compared (Leaderboard against Inventory in the demo universe) in the review panel, its rows walked with
 * the keyboard (Tab to the grid, arrows, Enter opens a diff), then Copy Differences… reviewed and cancelled.
 */
async function stores(w: Walker): Promise<void> {
  const page = w.page;
  await w.sandboxStores();
  await w.menu(w.row('Leaderboard'), 'Compare with Another Store…');
  await w.pick('Another store in this universe');
  await w.pick('Inventory');
  let frame = await reviewFrame(w, 'Compare two stores');
  await w.pause(800);
  await w.shot('stores-review');
  // Keyboard: the grid is reached with Tab (after the buttons, the kind filters and the search), then the arrows.
  await frame.locator('#search').focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await w.pause(300);
  await w.shot('stores-row-focused');
  await page.keyboard.press('Enter');
  await w.pause(1500);
  await w.shot('stores-row-diff');
  await page.locator('.tab', { hasText: 'Compare Leaderboard' }).first().click();
  frame = await reviewFrame(w, 'Compare two stores');
  await frame.locator('#kinds button', { hasText: 'only in the source' }).click();
  await frame.locator('#search').fill('10');
  await w.pause(800);
  await w.shot('stores-filtered');
  await reviewButton(frame, 'Copy Differences…');
  await w.pick('No');
  frame = await reviewFrame(w, 'Copy differences');
  await w.pause(800);
  await w.shot('copy-plan');
  await reviewButton(frame, 'Cancel');
  await w.pause(800);
  await w.shot('copy-cancelled');
}

/**
 * Import… of a small file into Settings: its dry run reviewed and applied; then the window reloads and the restore
 * of the time machine walk is undone from Recent Operations (its audit survived the reload).
 */
async function imports(w: Walker): Promise<void> {
  const page = w.page;
  const demo = path.join(ROOT, '.tools/start/demo');
  const file = path.join(demo, 'walk-import.ndjson');
  const line = (key: string, value: unknown) => JSON.stringify({ scope: 'global', key, value });
  fs.writeFileSync(
    file,
    [line('GameConfig', { fromImport: true }), line('WalkImported', 1), '{"broken":'].join('\n') + '\n',
  );
  try {
    await w.sandboxStores();
    await w.menu(w.row('Settings'), 'Import…');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(file);
    await w.pause(600);
    await w.shot('import-file');
    await page.keyboard.press('Enter');
    await w.pause(600);
    await w.shot('import-mode');
    await w.pick('Create Only');
    const offer = w.wb.dialog('Take a snapshot');
    if (
      await offer.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      )
    )
      await offer.getByRole('button', { name: 'Continue Without' }).click();
    let frame = await reviewFrame(w, 'Import');
    await w.pause(800);
    await w.shot('import-plan');
    await reviewButton(frame, 'Import');
    await frame.locator('#buttons button', { hasText: 'Export Files…' }).waitFor({ timeout: 60_000 });
    await w.pause(800);
    await w.shot('import-result');

    await w.palette('Developer: Reload Window');
    await w.pause(3000);
    await w.wb.openViewContainer('Universes');
    await w.row('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
    await w.wb.expandTreeRow('Demo Universe');
    await w.wb.expandTreeRow('Recent Operations');
    await w.pause(800);
    await w.shot('operations-after-reload');
    await w.menu(w.rowStarting('Restore of Settings'), 'Undo…');
    frame = await reviewFrame(w, 'Undo a restore');
    await w.pause(800);
    await w.shot('undo-after-reload');
    await reviewButton(frame, 'Undo');
    await frame.locator('#buttons button', { hasText: 'Export Files…' }).waitFor({ timeout: 60_000 });
    await w.pause(800);
    await w.shot('undo-after-reload-result');
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/**
 * A read-only universe, set in the user's settings.json: a save is refused in the product's words and the edit kept; a
 * command that writes fails with "Failed to …", and Show Log shows the error's stack under the message.
 */
async function readonly(w: Walker): Promise<void> {
  const file = path.join(ROOT, '.tools/start/ud/User/settings.json');
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '{}';
  const settings = { ...(JSON.parse(before) as object), 'universeExplorer.readOnlyUniverses': [123456] };
  try {
    // As a user does: the user settings as JSON, replaced and saved.
    await w.palette('Preferences: Open User Settings (JSON)');
    const userSettings = w.page.locator('.view-lines', { hasText: 'workbench.startupEditor' }).first();
    await userSettings.waitFor({ timeout: 20_000 });
    await userSettings.click();
    await w.page.keyboard.press('Control+A');
    await w.page.keyboard.insertText(JSON.stringify(settings, null, 2));
    await w.page.keyboard.press('Control+S');
    await w.pause(1500);
    await w.shot('settings');
    await w.page.keyboard.press('Escape');
    await w.sandboxStores();
    await w.wb.expandTreeRow('PlayerData');
    await w.row('Player_10003').click();
    await editorText(w).filter({ hasText: 'coins' }).waitFor({ timeout: 20_000 });
    await editorText(w).click();
    await w.page.keyboard.press('Control+End');
    await w.page.keyboard.type(' ');
    await w.page.keyboard.press('Control+S');
    await w.pause(1500);
    await w.shot('save-refused');
    // Ban User from the palette: the universe is refused before anything else is asked.
    await w.palette('Universe Explorer: Ban User…');
    await w.pick('One place');
    await w.type('4242');
    const failed = w.page.locator('.notifications-toasts .notification-toast', { hasText: 'Failed to' }).first();
    await failed.waitFor({ timeout: 20_000 });
    await w.pause(800);
    await w.shot('ban-refused');
    await failed.getByRole('button', { name: 'Show Log' }).click();
    await w.pause(1500);
    await w.shot('log-with-stack');
  } finally {
    fs.writeFileSync(file, before);
  }
}

/** Erase Player Data… from the palette: the index built first, the review, the typed id, the result and receipt. */
async function erase(w: Walker): Promise<void> {
  const page = w.page;
  await w.sandboxStores();
  await buildIndex(w, 'index-stores');
  await w.palette('Universe Explorer: Erase Player Data…');
  await w.pause(600);
  if (await page.locator('.quick-input-title', { hasText: 'Connection' }).isVisible()) await w.pick('Local Sandbox');
  await w.type('10012');
  let frame = await reviewFrame(w, 'Erase player data');
  await w.pause(800);
  await w.shot('erase-plan');
  await reviewButton(frame, 'Erase…');
  await w.pause(600);
  await w.shot('erase-typed-id-asked');
  await w.type('10012');
  await acceptSaveDialog(w);
  frame = await reviewFrame(w, 'Erase player data');
  await frame.locator('#buttons button', { hasText: 'Save Receipt…' }).waitFor({ timeout: 60_000 });
  await w.pause(800);
  await w.shot('erase-result');
  await w.wb.expandTreeRow('Recent Operations');
  await w.pause(800);
  await w.shot('erase-in-recent-operations');
}

/** The player page: Show Player… on a ban row, then on a player with data once the index holds it. */
async function players(w: Walker): Promise<void> {
  await w.sandboxStores();
  await w.collapse('Data Stores');
  await w.wb.expandTreeRow('User Restrictions');
  await w.menu(w.row('2001'), 'Show Player…');
  const frame = await w.wb.webviewFrame('#entries');
  await frame.locator('#banRows tr').first().waitFor({ timeout: 30_000 });
  await w.pause(1500);
  await w.shot('player-from-ban-row');
  await w.palette('Universe Explorer: Show Player…');
  await w.pause(600);
  if (await w.page.locator('.quick-input-title', { hasText: 'Connection' }).isVisible()) await w.pick('Local Sandbox');
  await w.type('10015');
  await w.pause(2500);
  await w.shot('player-with-entries');
}

/**
 * Roles: a connection of its own to the sandbox's emulator, its universe set to production from the row's menu; the
 * marks on the row, the entry's tab and the status bar; a save that asks (Cancel keeps the edit, Save writes).
 */
async function roles(w: Walker): Promise<void> {
  const url = await w.sandboxStores();
  await w.collapse('Local Sandbox');
  const keys = path.join(
    ROOT,
    '.tools/start/ud/User/globalStorage/universe-explorer.universe-explorer/sandbox/keys.json',
  );
  const { apiKeys } = JSON.parse(fs.readFileSync(keys, 'utf8')) as { apiKeys: { key: string }[] };
  await w.palette('Universe Explorer: Add Connection…');
  await w.type('Walk Live');
  await w.type(url);
  await w.type(apiKeys[0].key);
  await w.type('platform');
  await w.type('123456 = Live Demo');
  await w.row('Live Demo').waitFor({ state: 'visible', timeout: 20_000 });
  // The sandbox's demo entry is put back as it was once the walk has saved over it.
  const writer = anotherWriter(url);
  const entry = { universeId: 123456, datastoreName: 'PlayerData', scope: 'global', entryKey: 'Player_10004' };
  const was = await writer.datastores.getEntry(entry);
  try {
    await w.menu(w.row('Live Demo'), 'Set Universe Role…');
    await w.pause(600);
    await w.shot('role-pick');
    await w.pick('production');
    await w.pause(1000);
    await w.row('Live Demo').hover();
    await w.pause(1500);
    await w.shot('production-row');
    await w.wb.expandTreeRow('Live Demo');
    await w.wb.expandTreeRow('Data Stores');
    await w.wb.expandTreeRow('PlayerData');
    await w.row('Player_10004').dblclick();
    await editorText(w).filter({ hasText: 'coins' }).waitFor({ timeout: 20_000 });
    await w.pause(1000);
    await w.shot('production-tab-and-status');
    await editorText(w).click();
    await w.page.keyboard.press('Control+Home');
    await w.page.keyboard.type('{"walkedRoles": true, "was": ');
    await w.page.keyboard.press('Control+End');
    await w.page.keyboard.type('}');
    await w.page.keyboard.press('Control+S');
    const asked = w.wb.dialog('Production: Save');
    await asked.waitFor({ timeout: 20_000 });
    await w.shot('save-asks');
    await asked.getByRole('button', { name: 'Cancel' }).click();
    await w.pause(1000);
    await w.shot('declined-still-dirty');
    await w.page.keyboard.press('Control+S');
    await asked.waitFor({ timeout: 20_000 });
    await asked.getByRole('button', { name: 'Save', exact: true }).click();
    await w.pause(1500);
    await w.shot('saved');
  } finally {
    await w.collapse('Live Demo');
    await w.menu(w.row('Walk Live'), 'Remove Connection');
    await w.wb.dialog('Remove the connection').getByRole('button', { name: 'Remove' }).click();
    await writer.datastores.setEntry({ ...entry, raw: was.raw, attributes: was.attributes, userIds: was.userIds });
    await writer.close();
  }
}

/**
 * Agents: a restore plan written by the command line (as a CI job would) opened from the Explorer with Review Plan
 * File… and applied; then an agent's plan, made through the MCP server, reviewed and applied the same way. (code-server
 * has no chat, so its MCP: List Servers and Copilot's tools are not there to walk: the agents suite covers them.)
 */
async function agents(w: Walker): Promise<void> {
  const sandboxUrl = await w.sandboxStores();
  const writer = anotherWriter(sandboxUrl);
  const at = { universeId: 123456, datastoreName: 'PlayerData', scope: 'global', entryKey: 'Player_10002' };
  const before = new Date().toISOString();
  await w.pause(1200);
  await writer.datastores.setEntry({ ...at, value: { coins: 999999, note: 'written by mistake' } });
  const plan = path.join(ROOT, '.tools/start/demo/restore-plan.ndjson');
  const keys = path.join(
    ROOT,
    '.tools/start/ud/User/globalStorage/universe-explorer.universe-explorer/sandbox/keys.json',
  );
  const { apiKeys } = JSON.parse(fs.readFileSync(keys, 'utf8')) as { apiKeys: { key: string }[] };
  execFileSync(
    process.execPath,
    [
      path.join(ROOT, 'dist/cli.js'),
      'restore',
      '--base-url',
      sandboxUrl,
      '--universe',
      '123456',
      '--store',
      'PlayerData',
      '--to',
      before,
      '--out',
      plan,
    ],
    { env: { ...process.env, UE_API_KEY: apiKeys[0].key } },
  );
  await w.wb.openViewContainer('Explorer');
  const file = w.row('restore-plan.ndjson');
  await file.waitFor({ timeout: 20_000 });
  await w.menu(file, 'Review Plan File…');
  const frame = await reviewFrame(w, 'Restore to a time');
  await w.pause(800);
  await w.shot('plan-file-review');
  await reviewButton(frame, 'Restore');
  await frame.locator('#buttons button', { hasText: 'Undo…' }).waitFor({ timeout: 60_000 });
  await w.pause(800);
  await w.shot('plan-file-applied');
  // An agent's plan: the MCP server (as Claude Code or Cursor would run it) plans a write, which writes nothing;
  // the person opens the plan's file with Review Plan File… and applies it.
  const client = new Client({ name: 'walk', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [
        path.join(ROOT, 'dist/cli.js'),
        'mcp',
        '--base-url',
        sandboxUrl,
        '--plans-dir',
        path.join(ROOT, '.tools/start/demo/agent-plans'),
      ],
      env: { ...(process.env as Record<string, string>), UE_API_KEY: apiKeys[0].key },
    }),
  );
  let planned: { planId: string; file: string; parts: string[] };
  try {
    const result = await client.callTool({
      name: 'plan_set_entry',
      arguments: {
        universe: '123456',
        store: 'PlayerData',
        key: 'Player_10003',
        value: { coins: Date.now() % 100_000, level: 7 },
      },
    });
    planned = result.structuredContent as typeof planned;
  } finally {
    await client.close();
  }
  // The Explorer shows the plan's folder compacted into its parent's row ("agent-plans / <planId>").
  const folder = w.row('agent-plans');
  if ((await folder.getAttribute('aria-expanded')) === 'false') await folder.locator('.monaco-tl-twistie').click();
  await w.menu(w.row(path.basename(planned.parts[0])), 'Review Plan File…');
  const agentFrame = await reviewFrame(w, 'Apply a plan');
  await w.pause(800);
  await w.shot('agent-plan-review');
  await reviewButton(agentFrame, 'Apply');
  await agentFrame.locator('#buttons button', { hasText: 'Undo…' }).waitFor({ timeout: 60_000 });
  await w.pause(800);
  await w.shot('agent-plan-applied');
}

/** The MCP servers the extension offers other agents, as VS Code lists them (one per connection). */
async function mcp(w: Walker): Promise<void> {
  await w.sandboxStores();
  await w.wb.runCommand('MCP: List Servers');
  const row = w.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Universe Explorer: Local Sandbox' });
  await row.waitFor({ timeout: 20_000 });
  await w.pause(600);
  await w.shot('list-servers');
  await row.click();
  await w.pause(800);
  await w.shot('server-actions');
  // Start Server: VS Code starts it with the connection's key in its environment, and its output says what it found.
  await w.page.keyboard.press('Enter');
  await w.page.locator('.view-line', { hasText: /Discovered\s\d+\stools/ }).waitFor({ timeout: 30_000 });
  await w.pause(600);
  await w.shot('server-running');
}

/** The demo's ordered Leaderboard: listed by value, highest first; Increment from the context menu says the new value. */
async function ordered(w: Walker): Promise<void> {
  const page = w.page;
  await w.wb.openViewContainer('Universes');
  await w.row('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
  await w.wb.expandTreeRow('Demo Universe');
  await w.collapse('Data Stores'); // its own Leaderboard (a standard data store) would share the label
  const store = await w.wb.childRow('Ordered Data Stores', 'Leaderboard');
  if ((await store.getAttribute('aria-expanded')) === 'false') await store.locator('.monaco-tl-twistie').click();
  await w.pause(1000);
  await w.shot('leaderboard-by-value');

  const first = page.locator('.monaco-list-row[role="treeitem"][aria-level="5"]').first();
  await w.menu(first, 'Increment…');
  await w.type('250');
  await page.locator('.notification-toast', { hasText: 'incremented by 250' }).waitFor({ timeout: 20_000 });
  await w.pause();
  await w.shot('incremented');
}

/** The demo's Memory Stores: the Lobby sorted map in map order, an item opened, edited and saved. */
async function maps(w: Walker): Promise<void> {
  await w.wb.openViewContainer('Universes');
  await w.row('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
  await w.wb.expandTreeRow('Demo Universe');
  await w.wb.expandTreeRow('Memory Stores');
  await w.wb.expandTreeRow('Sorted Maps');
  await w.wb.expandTreeRow('Lobby');
  await w.row('server-eu-2').waitFor({ state: 'visible', timeout: 20_000 });
  await w.hoverThenOpen(w.row('server-eu-2'), 'item-tooltip', 'item-opened');
  await editorText(w).filter({ hasText: 'players' }).waitFor({ timeout: 20_000 });
  // Typing with code-server's auto-save on: nothing is written, nothing pops up, until Ctrl+S.
  await typeHalfThenSave(w);
  await w.menu(w.row('server-eu-2'), 'Edit Expiration and Sort Key…');
  await w.wb.answer('Time to live of server-eu-2', '10m');
  await w.wb.answer('Sort key of server-eu-2', '4');
  await w.pause(1500);
  await w.shot('expiry-and-sort-key');
}

/** The demo's Jobs queue: Read and Hold warns first, then the held items count down; Let Go. */
async function queues(w: Walker): Promise<void> {
  const page = w.page;
  await w.wb.openViewContainer('Universes');
  await w.row('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
  await w.wb.expandTreeRow('Demo Universe');
  await w.wb.expandTreeRow('Memory Stores');
  await w.wb.expandTreeRow('Queues');
  await w.menu(w.row('Jobs'), 'Read and Hold…');
  await w.wb.dialog('Read and hold items of queue Jobs?').waitFor({ timeout: 20_000 });
  await w.shot('warning');
  await w.wb.dialog('Read and hold items of queue Jobs?').getByRole('button', { name: 'Continue' }).click();
  await w.wb.answer('How many items to read from Jobs', '3');
  await w.wb.answer('How long to hold them', '60');
  const held = page.locator('.notification-toast', { hasText: 'Holding 3 items of queue Jobs' });
  await held.waitFor({ timeout: 20_000 });
  await w.pause(1500);
  await w.shot('held-items');
  await held.getByRole('button', { name: 'Let Go' }).click();
  await w.pause(1000);
  await w.shot('let-go');
}

/** Flush Memory Stores… from the group's menu: the warning, the universe's name typed, the flush followed to its end. */
async function flush(w: Walker): Promise<void> {
  await w.wb.openViewContainer('Universes');
  await w.row('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
  await w.wb.expandTreeRow('Demo Universe');
  await w.menu(w.row('Memory Stores'), 'Flush Memory Stores…');
  const question = w.wb.dialog('Flush every memory store of');
  await question.waitFor({ timeout: 20_000 });
  await w.shot('warning');
  await question.getByRole('button', { name: 'Flush…' }).click();
  await w.page.locator('.quick-input-widget').waitFor({ state: 'visible', timeout: 20_000 });
  await w.page.keyboard.type('Demo Universe');
  await w.shot('name-typed');
  await w.page.keyboard.press('Enter');
  await w.page.locator('.notification-toast', { hasText: 'Flushed the memory stores' }).waitFor({ timeout: 60_000 });
  await w.wb.expandTreeRow('Memory Stores');
  await w.wb.expandTreeRow('Queues');
  await w.pause(1000);
  await w.shot('flushed');
}

/**
 * In the open JSON document: half a field typed, a pause longer than auto-save's (nothing is written, nothing pops
 * up), then the rest and Ctrl+S.
 */
async function typeHalfThenSave(w: Walker): Promise<void> {
  const page = w.page;
  await editorText(w).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('End');
  await page.keyboard.type(',\n"walked": ');
  await w.pause(2500);
  await w.shot('half-typed-not-saved');
  await page.keyboard.type('true');
  await page.keyboard.press('Control+S');
  await w.pause(1500);
  await w.shot('saved');
}

const walks: Record<string, (w: Walker) => Promise<void>> = {
  areas,
  writes,
  entries,
  sandbox,
  backups,
  menus,
  daily,
  timemachine,
  imports,
  openat,
  v2,
  stores,
  readonly,
  erase,
  players,
  roles,
  agents,
  mcp,
  ordered,
  maps,
  queues,
  flush,
  bans,
  logSelection,
  queryBans,
};

async function main(): Promise<void> {
  const chosen = args.filter((a) => !a.startsWith('http'));
  const names = chosen.length ? chosen : Object.keys(walks);
  const browser = await launchBrowser(process.env.CHROMIUM ?? '/usr/bin/chromium');
  try {
    for (const name of names) {
      const walk = walks[name];
      if (!walk) throw new Error(`no walk "${name}"; walks: ${Object.keys(walks).join(', ')}`);
      console.log(`walk ${name}`);
      const wb = await Workbench.open(browser, url);
      await wb.activityBar().waitFor({ state: 'visible', timeout: 60_000 });
      const w = new Walker(wb, name);
      try {
        await walk(w);
      } catch (error) {
        await w.shot('failed');
        throw error;
      } finally {
        await wb.close();
      }
    }
  } finally {
    await browser.close();
  }
}

main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
