// UI test of queries in the real workbench: Build Query Index… from the palette (the store checked in the quick
// pick), the Query Index row, Query Data… and Ctrl+Enter in the query document, then the results webview: cells
// are text, only a window of rows is drawn, a header click sorts, and a double-click opens the row's entry.
import * as assert from 'node:assert/strict';
import type { UiTest, Workbench } from './workbench';

export function queriesUiTest(resultsDir: string): UiTest {
  return {
    name: 'queries: build the index, run the starter query with Ctrl+Enter, sort the grid and open a row',
    fn: async (wb: Workbench) => {
      const page = wb.page;
      await wb.openViewContainer('Universes');
      await wb.runCommand('Universe Explorer: Start Local Sandbox');
      await wb.treeRow('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
      await wb.expandTreeRow('Demo Universe');

      await wb.runCommand('Universe Explorer: Build Query Index…');
      const widget = page.locator('.quick-input-widget');
      await widget.locator('.quick-input-title', { hasText: 'Build Query Index' }).waitFor({ timeout: 20_000 });
      const row = widget.locator('.quick-input-list .monaco-list-row', { hasText: 'PlayerData' }).first();
      await row.waitFor();
      await row.click(); // a row of a multiple pick toggles its check box
      await widget.locator('.quick-input-count', { hasText: '1' }).waitFor();
      await widget.getByRole('button', { name: 'OK', exact: true }).click();
      await page.waitForFunction(
        () =>
          Array.from(document.querySelectorAll('.monaco-list-row[role="treeitem"]')).some(
            (r) => r.textContent?.includes('Query Index') && r.textContent.includes('PlayerData'),
          ),
        undefined,
        { timeout: 60_000 },
      );
      assert.match(
        await wb.treeRowDescription('Query Index'),
        /^PlayerData · [\d,]+ entries · as of \d\d:\d\d, just now$/,
      );

      await wb.runCommand('Universe Explorer: Query Data…');
      await page.locator('.monaco-editor .view-lines', { hasText: '-- universe: sandbox/' }).first().waitFor();
      await page.locator('.codelens-decoration', { hasText: 'Run Query' }).first().waitFor({ timeout: 20_000 });
      await page.keyboard.press('Control+Enter');

      const frame = await wb.webviewFrame('#grid');
      await frame.locator('#rows tr[data-row]').first().waitFor({ timeout: 30_000 });
      const status = (await frame.locator('#status').textContent()) ?? '';
      const total = Number(/^(\d+) rows/.exec(status)?.[1]);
      assert.ok(total > 0, status);
      const heads = await frame.locator('#head th').allTextContents();
      assert.deepEqual(heads, ['store', 'scope', 'key', 'value']);
      const drawn = await frame.locator('#rows tr[data-row]').count();
      assert.ok(drawn <= total, `${drawn} rows drawn of ${total}`);
      assert.deepEqual(
        [...new Set(await frame.locator('#rows *').evaluateAll((els) => els.map((e) => e.tagName)))].sort(),
        ['TD', 'TR'],
      );
      await wb.screenshot(resultsDir, 'queries-results');

      // Sort by key, descending: the first row's key comes last in the other order.
      const firstKey = () => frame.locator('#rows tr[data-row="0"] td').nth(2).textContent();
      await frame.locator('#head th button', { hasText: 'key' }).click();
      await frame.locator('#head th[aria-sort="ascending"]').waitFor();
      const ascending = await firstKey();
      await frame.locator('#head th button', { hasText: 'key' }).click();
      await frame.locator('#head th[aria-sort="descending"]').waitFor();
      await frame.waitForFunction(
        (before) => document.querySelector('#rows tr[data-row="0"] td:nth-child(3)')?.textContent !== before,
        ascending,
      );
      const key = (await firstKey()) ?? '';
      await wb.screenshot(resultsDir, 'queries-sorted');

      await frame.locator('#rows tr[data-row="0"] td').nth(2).dblclick();
      await page
        .locator('.tabs-container .tab', { hasText: `${key}.json` })
        .first()
        .waitFor({ timeout: 20_000 });
    },
  };
}
