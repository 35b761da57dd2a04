// UI test of queries in the real workbench: Build Query Index… from the palette (the store checked in the quick
// pick), the Query Index row, Query Data… and Ctrl+Enter in the query document, then the results webview: cells
// are text, only a window of rows is drawn, a header click sorts, and a double-click opens the row's entry; typing
// value->>' lists the JSON fields the index has seen; after a window reload the results panel offers Run Again.
import * as assert from 'node:assert/strict';
import type { UiTest, Workbench } from './workbench';

export function queriesUiTest(resultsDir: string): UiTest {
  return {
    name: 'queries: build the index, run the starter query with Ctrl+Enter, sort the grid, open a row, complete a field, run again after a reload',
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

      // Typing value->>' in the query lists the JSON fields of the demo's PlayerData values.
      await wb.tab('-- universe: sandbox/').click();
      await page.locator('.monaco-editor .view-lines', { hasText: '-- universe: sandbox/' }).first().click();
      await page.keyboard.press('Control+End');
      await page.keyboard.press('Home');
      await page.keyboard.press('Enter');
      await page.keyboard.type("SELECT value->>'");
      const suggestions = page.locator('.suggest-widget.visible .monaco-list-row');
      await suggestions.filter({ hasText: 'coins' }).first().waitFor({ timeout: 20_000 });
      const labels = await suggestions.locator('.label-name').allTextContents();
      for (const field of ['coins', 'level', 'xp', 'tutorialDone', 'lastLogin']) {
        assert.ok(labels.includes(field), `${field} in ${labels.join(', ')}`);
      }
      assert.ok(!labels.includes('entries'), 'no table names inside a string');
      await wb.screenshot(resultsDir, 'queries-completions');
      await page.keyboard.press('Escape');

      // After a window reload the results panel comes back with its query and Run Again, which shows the rows.
      await wb.reload();
      await wb.tab('Query Results').click();
      const restored = await wb.webviewFrame('#runAgain');
      await restored.locator('#runAgain').waitFor({ state: 'visible', timeout: 30_000 });
      assert.match((await restored.locator('#notRunSql').textContent()) ?? '', /FROM entries/);
      assert.equal(await restored.locator('#exportCsv').isVisible(), false, 'nothing to export before it runs');
      await wb.screenshot(resultsDir, 'queries-run-again');
      await restored.locator('#runAgain').click();
      await restored.locator('#rows tr[data-row]').first().waitFor({ timeout: 30_000 });
      assert.equal(await restored.locator('#notRun').isVisible(), false);
      assert.equal(await restored.locator('#exportCsv').isVisible(), true);
      assert.match((await restored.locator('#status').textContent()) ?? '', /^\d+ rows/);
    },
  };
}
