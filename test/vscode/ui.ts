// UI tests: Playwright clicks the real workbench (code-server opened with the extension under
// development but without extensionTestsPath). run.ts starts one server for them all and gives each
// test a fresh page; a failing test leaves a screenshot in test-results/.
// Add a test: push { name, fn } to UI_TESTS; `wb` has helpers for the activity bar, tree rows,
// the command palette and screenshots (workbench.ts).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ROOT } from '../../scripts/code-server';
import { deletedEntriesUiTest } from './deletedEntriesUi';
import { entriesUiTest } from './entriesUi';
import { keyboardUiTest } from './keyboardUi';
import { keysUiTest } from './keysUi';
import { orderedUiTest } from './orderedUi';
import { playersUiTest } from './playersUi';
import { queriesUiTest } from './queriesUi';
import { restrictionLogUiTest } from './restrictionLogUi';
import { sandboxUiTest } from './sandboxUi';
import { typedPromptsUiTest } from './typedPromptsUi';
import { walkthroughUiTest } from './walkthroughUi';
import type { UiTest } from './workbench';

export const RESULTS_DIR = path.join(ROOT, 'test-results');

/** User settings of the UI server (merged over QUIET_SETTINGS). */
export const UI_SETTINGS: Record<string, unknown> = {};

export const UI_TESTS: UiTest[] = [
  {
    name: 'the workbench loads and shows the activity bar',
    fn: async (wb) => {
      const box = await wb.activityBar().boundingBox();
      assert.ok(box && box.width > 20 && box.height > 200, `activity bar not laid out: ${JSON.stringify(box)}`);
      const names = await wb.activityBarNames();
      assert.ok(names.includes('Explorer'), `no Explorer in the activity bar: ${JSON.stringify(names)}`);
      await wb.openViewContainer('Explorer');
      // The workspace is a copy of test/vscode/workspace.
      await wb.treeRow('README.md').waitFor({ state: 'visible', timeout: 20_000 });
      await wb.screenshot(RESULTS_DIR, 'workbench');
    },
  },
  {
    name: 'the Universes view welcomes a new user, starts the sandbox and expands the demo universe',
    fn: async (wb) => {
      await wb.openViewContainer('Universes');
      // Whatever the settings started, begin from nothing configured.
      await wb.runCommand('Universe Explorer: Stop Local Sandbox');
      const welcome = wb.sideBar().getByRole('region', { name: 'Welcome' });
      const start = welcome.getByRole('button', { name: 'Start Local Sandbox' });
      await start.waitFor({ state: 'visible', timeout: 20_000 });
      await welcome.getByRole('button', { name: 'Add Connection…' }).waitFor({ state: 'visible' });
      await wb.screenshot(RESULTS_DIR, 'universes-welcome');
      await start.click();
      await wb.treeRow('Local Sandbox').waitFor({ state: 'visible', timeout: 20_000 });
      await wb.expandTreeRow('Demo Universe');
      for (const group of ['Data Stores', 'User Restrictions', 'Assets']) {
        await wb.treeRow(group).waitFor({ state: 'visible' });
      }
      await wb.expandTreeRow('Data Stores');
      await wb.treeRow('PlayerData').waitFor({ state: 'visible', timeout: 20_000 });
      await wb.screenshot(RESULTS_DIR, 'universes-sandbox');
    },
  },
  restrictionLogUiTest(RESULTS_DIR),
  entriesUiTest(RESULTS_DIR),
  sandboxUiTest(RESULTS_DIR),
  typedPromptsUiTest(RESULTS_DIR),
  keysUiTest(RESULTS_DIR),
  keyboardUiTest(RESULTS_DIR),
  deletedEntriesUiTest(RESULTS_DIR),
  walkthroughUiTest(RESULTS_DIR),
  queriesUiTest(RESULTS_DIR),
  playersUiTest(RESULTS_DIR),
  orderedUiTest(RESULTS_DIR),
];
