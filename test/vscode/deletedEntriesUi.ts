// UI test of deleted entries in the sandbox (cloud v2), with real clicks: the demo's deleted key LegacyConfig is not
// listed under Settings until Show Deleted Entries (the store's context menu), then it is, marked deleted; its inline
// Undelete Entry brings it back, and the confirmation's Undo deletes it again.
import * as assert from 'node:assert/strict';
import type { UiTest } from './workbench';

const KEY = 'LegacyConfig';

export function deletedEntriesUiTest(resultsDir: string): UiTest {
  return {
    name: 'deleted entries shown on request, undeleted from the row, and the Undo',
    fn: async (wb) => {
      await wb.openViewContainer('Universes');
      await wb.runCommand('Universe Explorer: Start Local Sandbox');
      await wb.treeRow('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
      await wb.expandTreeRow('Demo Universe');
      await wb.expandTreeRow('Data Stores');
      // The stores above Settings stay closed, so its rows are on screen.
      for (const store of ['Inventory', 'Leaderboard', 'PlayerData']) await wb.collapseTreeRow(store);
      await wb.expandTreeRow('Settings');
      await wb.treeRow('GameConfig').waitFor({ state: 'visible', timeout: 20_000 });
      assert.equal(await wb.treeRow(KEY).count(), 0, `${KEY} is listed before Show Deleted Entries`);

      await wb.contextMenu(wb.treeRow('Settings'), 'Show Deleted Entries');
      const row = wb.treeRow(KEY);
      await row.locator('.label-description', { hasText: 'deleted' }).waitFor({ timeout: 20_000 });
      assert.match(await wb.treeRowDescription('Settings'), /deleted shown/);
      await row.hover();
      await wb.screenshot(resultsDir, 'deleted-entries-shown');

      await row.getByRole('button', { name: 'Undelete Entry' }).click();
      await row.locator('.label-description', { hasText: 'deleted' }).waitFor({ state: 'detached', timeout: 20_000 });
      // The test server shows no toasts: the notification center lists the message.
      await wb.runCommand('Notifications: Show Notifications');
      const message = (text: string) =>
        wb.page.locator('.notifications-center .notification-list-item', { hasText: text });
      const done = message(`Undeleted "${KEY}" in Settings (its version of`);
      await done.waitFor({ timeout: 20_000 });
      await wb.screenshot(resultsDir, 'entry-undeleted');

      await done.getByRole('button', { name: 'Undo' }).click();
      await row.locator('.label-description', { hasText: 'deleted' }).waitFor({ timeout: 20_000 });
      await wb.runCommand('Notifications: Show Notifications');
      await message(`"${KEY}" is deleted again.`).waitFor({ timeout: 20_000 });
      await wb.runCommand('Notifications: Clear All Notifications');

      await wb.contextMenu(wb.treeRow('Settings'), 'Hide Deleted Entries');
      await wb.treeRow(KEY).waitFor({ state: 'detached', timeout: 20_000 });
    },
  };
}
