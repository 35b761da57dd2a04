// UI test of the demo's ordered Leaderboard: the Local Sandbox's demo universe shows it under Ordered Data Stores
// without being added, its entries come highest value first, and Increment from an entry's context menu says the
// value the service answered and the row shows it.
import * as assert from 'node:assert/strict';
import type { UiTest } from './workbench';

const number = (text: string | null): number => Number((text ?? '').replace(/,/g, ''));

export function orderedUiTest(resultsDir: string): UiTest {
  return {
    name: "the demo's ordered Leaderboard lists by value, and Increment from an entry's menu shows the new value",
    fn: async (wb) => {
      await wb.openViewContainer('Universes');
      await wb.runCommand('Universe Explorer: Start Local Sandbox');
      await wb.treeRow('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
      await wb.expandTreeRow('Demo Universe');
      await wb.collapseTreeRow('Data Stores'); // its own Leaderboard (a standard data store) shares the label
      const store = await wb.childRow('Ordered Data Stores', 'Leaderboard');
      await store.locator('.monaco-tl-twistie').click();
      const rows = wb.sideBar().locator('.monaco-list-row[role="treeitem"][aria-level="5"]');
      await rows.first().waitFor({ state: 'visible', timeout: 20_000 });
      const values = [];
      for (let i = 0; i < 5; i++) values.push(number(await rows.nth(i).locator('.label-description').textContent()));
      assert.deepEqual(
        values,
        [...values].sort((a, b) => b - a),
        `not highest first: ${values.join(', ')}`,
      );
      await wb.screenshot(resultsDir, 'ordered-leaderboard');

      const first = rows.first();
      const id = ((await first.locator('.label-name').textContent()) ?? '').trim();
      await wb.contextMenu(first, 'Increment…');
      const input = wb.page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible' });
      await input.fill('250');
      await wb.page.keyboard.press('Enter');
      const now = (values[0] + 250).toLocaleString('en-US');
      const row = wb.sideBar().locator('.monaco-list-row[role="treeitem"][aria-level="5"]', { hasText: id }).first();
      await row.locator('.label-description', { hasText: now }).waitFor({ timeout: 20_000 });
      // The test server shows no toasts: the notification center lists the message.
      await wb.runCommand('Notifications: Show Notifications');
      await wb.page
        .locator('.notifications-center .notification-list-item', {
          hasText: `"${id}" is now ${now} (incremented by 250)`,
        })
        .waitFor({ timeout: 20_000 });
      await wb.screenshot(resultsDir, 'ordered-incremented');
      await wb.runCommand('Notifications: Clear All Notifications');
    },
  };
}
