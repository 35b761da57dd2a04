// UI test of the Local Sandbox as one process shared by windows: two windows of the same code-server start it and
// get the same address, a save in one shows in the other, and a window reload keeps the address.
import * as assert from 'node:assert/strict';
import type { UiTest, Workbench } from './workbench';

const editorText = (wb: Workbench) => wb.page.locator('.editor-instance .view-lines').first();

async function sandboxUrl(wb: Workbench): Promise<string> {
  await wb.openViewContainer('Universes');
  await wb.runCommand('Universe Explorer: Start Local Sandbox');
  await wb.treeRow('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
  return wb.treeRowDescription('Local Sandbox');
}

async function openScore(wb: Workbench, key: string): Promise<void> {
  await wb.expandTreeRow('Demo Universe');
  await wb.expandTreeRow('Data Stores');
  await wb.expandTreeRow('Leaderboard');
  await wb.sideBar().locator('.monaco-list-row[role="treeitem"][aria-level="5"]', { hasText: key }).first().dblclick();
  await wb.page.locator('.tabs-container .tab.active', { hasText: key }).waitFor({ timeout: 20_000 });
}

export function sandboxUiTest(resultsDir: string): UiTest {
  return {
    name: 'two windows share one Local Sandbox and see each other’s saves; a reload keeps its address',
    fn: async (first: Workbench) => {
      const url = await sandboxUrl(first);
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const second = await first.another();
      try {
        assert.equal(await sandboxUrl(second), url, 'the second window started a sandbox of its own');

        await openScore(first, 'Player_10005');
        await editorText(first).click();
        await first.page.keyboard.press('Control+A');
        await first.page.keyboard.type('777');
        await first.page.keyboard.press('Control+S');
        await first.page.locator('.tabs-container .tab.active:not(.dirty)', { hasText: 'Player_10005' }).waitFor();

        await openScore(second, 'Player_10005');
        await editorText(second).filter({ hasText: '777' }).waitFor({ timeout: 20_000 });
        await second.screenshot(resultsDir, 'sandbox-second-window');
      } finally {
        await second.close();
      }

      await first.reload();
      assert.equal(await sandboxUrl(first), url, 'the address changed with the reload');
    },
  };
}
