// UI test of the keyboard in the Universes view and of the status bar, with real key presses: Delete on an entry
// asks the entry's own confirmation (cancelled here, so nothing is written), Enter on a ban opens Edit Restriction,
// and the status bar names the sandbox and shows its details when clicked.
import * as assert from 'node:assert/strict';
import type { UiTest, Workbench } from './workbench';

const KEY = 'Player_10007';

function entryRow(wb: Workbench, key: string) {
  return wb.sideBar().locator('.monaco-list-row[role="treeitem"][aria-level="5"]', { hasText: key }).first();
}

export function keysUiTest(resultsDir: string): UiTest {
  return {
    name: 'Delete and Enter in the Universes view, and the status bar names the connection',
    fn: async (wb) => {
      await wb.openViewContainer('Universes');
      await wb.runCommand('Universe Explorer: Start Local Sandbox');
      await wb.treeRow('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
      const status = wb.page.locator('#workbench\\.parts\\.statusbar .statusbar-item', { hasText: 'Local Sandbox' });
      await status.waitFor({ state: 'visible', timeout: 20_000 });

      await wb.expandTreeRow('Demo Universe');
      await wb.expandTreeRow('Data Stores');
      await wb.expandTreeRow('Leaderboard');
      const row = entryRow(wb, KEY);
      await row.click();
      await wb.tab(KEY).waitFor({ timeout: 20_000 });
      // The click opens a preview and keeps the focus in the tree, as the keys need.
      await row.click();
      await wb.page.keyboard.press('Delete');
      const dialog = wb.dialog(`Delete "${KEY}" (scope global) from Leaderboard?`);
      await dialog.waitFor({ state: 'visible', timeout: 10_000 });
      await wb.screenshot(resultsDir, 'keys-delete-confirmation');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await row.waitFor({ state: 'visible' });
      assert.equal(await row.getAttribute('aria-label').then((l) => l?.includes('deleted')), false);

      await wb.treeRow('Data Stores').locator('.monaco-tl-twistie').click(); // its 50 entries hide what follows
      await wb.expandTreeRow('User Restrictions');
      const ban = wb.treeRow('2001'); // the demo's permanent ban
      await ban.click();
      await wb.page.keyboard.press('Enter');
      const title = wb.page.locator('.quick-input-widget .quick-input-title');
      await title
        .filter({ hasText: /^Duration of the restriction of user \d+/ })
        .waitFor({ state: 'visible', timeout: 10_000 });
      await wb.screenshot(resultsDir, 'keys-enter-edit-restriction');
      await wb.page.keyboard.press('Escape');

      await status.click();
      const details = wb.page.locator('.quick-input-widget');
      await details.locator('.quick-input-list .monaco-list-row', { hasText: 'Demo Universe' }).waitFor();
      await details.locator('.quick-input-list .monaco-list-row', { hasText: 'Show Log' }).waitFor();
      await wb.screenshot(resultsDir, 'keys-status-details');
      await wb.page.keyboard.press('Escape');
    },
  };
}
