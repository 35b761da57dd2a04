// UI test of prompts that answer as a person types, in the real quick pick: Go to Key… lists the keys that start
// with what is typed (after a pause), and the moment prompt shows what a typed time stands for, or, for text that is
// no time, a warning with the forms understood that Enter does not take.
import type { UiTest } from './workbench';

export function typedPromptsUiTest(resultsDir: string): UiTest {
  return {
    name: 'typed prompts: Go to Key lists keys as typed; the moment prompt explains what it does not understand',
    fn: async (wb) => {
      const widget = wb.page.locator('.quick-input-widget');
      const input = widget.locator('.quick-input-box input');
      const rows = widget.locator('.quick-input-list .monaco-list-row');
      await wb.openViewContainer('Universes');
      await wb.runCommand('Universe Explorer: Start Local Sandbox');
      await wb.treeRow('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
      await wb.expandTreeRow('Demo Universe');
      await wb.expandTreeRow('Data Stores');

      await wb.contextMenu(wb.treeRow('Leaderboard'), 'Go to Key…');
      await widget.locator('.quick-input-title', { hasText: 'Key in Leaderboard' }).waitFor({ timeout: 20_000 });
      await input.fill('Player_1000');
      await rows.filter({ hasText: 'Player_10007' }).first().waitFor({ timeout: 10_000 });
      await wb.screenshot(resultsDir, 'typed-go-to-key');
      await wb.page.keyboard.press('Escape');

      await wb.contextMenu(wb.treeRow('Leaderboard'), 'Compare with Time…');
      await widget.locator('.quick-input-title', { hasText: 'Compare Leaderboard' }).waitFor({ timeout: 20_000 });
      await input.fill('yesterday');
      await rows.filter({ hasText: 'The start of that day, 00:00 local time' }).first().waitFor({ timeout: 10_000 });
      await wb.screenshot(resultsDir, 'typed-moment-yesterday');
      await input.fill('soon');
      const problem = rows.filter({ hasText: 'not a time this prompt understands' }).first();
      await problem.waitFor({ timeout: 10_000 });
      await rows.filter({ hasText: 'last Tuesday 18:00' }).first().waitFor({ timeout: 10_000 });
      await wb.page.keyboard.press('Enter');
      await wb.page.waitForTimeout(500);
      await problem.waitFor({ state: 'visible', timeout: 2_000 }); // still asking
      await wb.screenshot(resultsDir, 'typed-moment-unknown');
      await wb.page.keyboard.press('Escape');
    },
  };
}
