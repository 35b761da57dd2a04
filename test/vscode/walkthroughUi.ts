// UI test of the walkthrough "Get started with Universe Explorer": opened from the Command Palette, each of its
// five steps is done as a user does it (the step's button, then the prompts, the tree or the editor), and the
// step must show as done only then. With UE_README_SHOTS=1 (npm run screenshots) it also saves the README's
// pictures into docs/images/.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ROOT } from '../../scripts/code-server';
import type { UiTest, Workbench } from './workbench';

const TITLE = 'Get started with Universe Explorer';
const STEPS = ['sandbox', 'entry', 'asset', 'ban', 'connection'] as const;
type Step = (typeof STEPS)[number];
const README_IMAGES = path.join(ROOT, 'docs/images');
const USER = '5150';

const editorText = (wb: Workbench) => wb.page.locator('.editor-instance .view-lines').first();

function step(wb: Workbench, id: Step) {
  return wb.page.locator(`button.getting-started-step[data-step-id$="#${id}"]`);
}

async function readmeShot(wb: Workbench, name: string): Promise<void> {
  if (process.env.UE_README_SHOTS === '1') await wb.screenshot(README_IMAGES, name);
}

/**
 * Brings the walkthrough's tab ("Welcome") to the front. A click on it while it is the active tab takes the page
 * back to VS Code's Welcome home (VS Code's own behaviour), so only an inactive tab is clicked.
 */
async function showWalkthrough(wb: Workbench): Promise<void> {
  if (!/\bactive\b/.test((await wb.tab('Welcome').getAttribute('class')) ?? '')) await wb.tab('Welcome').click();
  await step(wb, 'sandbox').waitFor({ state: 'visible', timeout: 20_000 });
}

/** Selects the step (a selected step is expanded, and takes no click). */
async function selectStep(wb: Workbench, id: Step): Promise<void> {
  if ((await step(wb, id).getAttribute('aria-expanded')) === 'true') return;
  await step(wb, id).click();
  await step(wb, id).and(wb.page.locator('[aria-expanded="true"]')).waitFor();
  // The page focuses a selected step 250 ms later, which would close a prompt opened meanwhile.
  await wb.page.waitForTimeout(600);
}

/** Selects the step and clicks the button or link in its text. */
async function startStep(wb: Workbench, id: Step, action: string): Promise<void> {
  await showWalkthrough(wb);
  await selectStep(wb, id);
  const link = step(wb, id).locator('.step-description-container a', { hasText: action }).first();
  await link.waitFor({ state: 'visible' });
  await link.click();
}

/** The steps shown done, in order. */
async function doneSteps(wb: Workbench): Promise<Step[]> {
  const done: Step[] = [];
  for (const id of STEPS) if ((await step(wb, id).getAttribute('aria-checked')) === 'true') done.push(id);
  return done;
}

/** Back on the walkthrough, the step shows done (and no later one), then a screenshot of it. */
async function expectDone(wb: Workbench, resultsDir: string, id: Step): Promise<void> {
  await showWalkthrough(wb);
  const n = STEPS.indexOf(id) + 1;
  await wb.page
    .locator(`button.getting-started-step[data-step-id$="#${id}"][aria-checked="true"]`)
    .waitFor({ timeout: 20_000 });
  assert.deepEqual(await doneSteps(wb), STEPS.slice(0, n), `after step ${n}`);
  await selectStep(wb, id);
  await wb.screenshot(resultsDir, `walkthrough-${n}-${id}`);
}

/**
 * Answers prompts in a row, as wb.answer does, but lets go of Enter only once the next prompt shows (or the last one
 * is gone), as a hand holds a key for a moment. A prompt opened from a walkthrough's button gives the focus back to
 * that button when it closes, and an Enter keyup there makes VS Code's walkthrough select the step again and focus
 * it 250 ms later, which closes the next prompt (a real hand's timing mostly avoids it, not always).
 */
async function answerAll(wb: Workbench, answers: [title: string, text: string][]): Promise<void> {
  const widget = wb.page.locator('.quick-input-widget');
  const title = (text: string) => widget.locator('.quick-input-title', { hasText: text });
  for (const [i, [question, text]] of answers.entries()) {
    await title(question).waitFor({ state: 'visible', timeout: 20_000 });
    await widget.locator('.quick-input-box input').fill(text);
    if (await widget.locator('.quick-input-list .monaco-list-row').count()) {
      await widget.locator('.quick-input-list .monaco-list-row', { hasText: text }).first().waitFor();
    }
    await wb.page.keyboard.down('Enter');
    const next = answers[i + 1]?.[0];
    await (next ? title(next) : title(question)).waitFor({ state: next ? 'visible' : 'hidden', timeout: 20_000 });
    await wb.page.keyboard.up('Enter');
  }
  // The last keyup lands on the button: let the walkthrough's focus of the step pass before anything else opens.
  await wb.page.waitForTimeout(600);
}

/** The sandbox's address and API key, as its row's tooltip shows them. */
async function sandboxAddress(wb: Workbench): Promise<{ url: string; key: string }> {
  const url = await wb.treeRowDescription('Local Sandbox');
  await wb.treeRow('Local Sandbox').hover();
  const hover = wb.page.locator('.monaco-hover, .workbench-hover', { hasText: 'API key' }).first();
  await hover.waitFor({ state: 'visible', timeout: 10_000 });
  const key = /API key:\s*(\S+)/.exec((await hover.textContent()) ?? '')?.[1];
  assert.ok(key, 'the sandbox row has no key in its tooltip');
  // Away from the row, the tooltip goes (Escape would take the walkthrough back to the Welcome page).
  await wb.activityBar().hover();
  await hover.waitFor({ state: 'hidden' });
  return { url, key };
}

export function walkthroughUiTest(resultsDir: string): UiTest {
  return {
    name: 'walkthrough: opens from the palette, and each of its five steps shows done once the user did it',
    fn: async (wb: Workbench) => {
      const page = wb.page;
      await page.setViewportSize({ width: 1100, height: 700 });
      await wb.openViewContainer('Universes');
      // A sandbox already running would mark the first step done before the user did anything.
      await wb.runCommand('Universe Explorer: Stop Local Sandbox');
      await wb.sideBar().getByRole('button', { name: 'Start Local Sandbox' }).waitFor({ timeout: 20_000 });

      await wb.runCommand('Welcome: Open Walkthrough...');
      await wb.pick(TITLE);
      await step(wb, 'connection').waitFor({ state: 'visible', timeout: 20_000 });
      assert.deepEqual(await doneSteps(wb), []);

      // 1. Start the Local Sandbox.
      await startStep(wb, 'sandbox', 'Start Local Sandbox');
      await wb.treeRow('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
      await expectDone(wb, resultsDir, 'sandbox');

      // 2. Open an entry from the tree, change it and save it with Ctrl+S.
      await startStep(wb, 'entry', 'Show the Universes View');
      await wb.expandTreeRow('Demo Universe');
      await wb.expandTreeRow('Data Stores');
      await wb.expandTreeRow('PlayerData');
      await wb.treeRow('Player_10001').dblclick();
      await editorText(wb).filter({ hasText: 'coins' }).waitFor({ timeout: 20_000 });
      await readmeShot(wb, 'entry');
      await editorText(wb).click();
      await page.keyboard.press('Control+Home');
      await page.keyboard.press('End');
      await page.keyboard.type('\n"tutorial": true,');
      await page.keyboard.press('Control+S');
      await page.locator('.tabs-container .tab.active:not(.dirty)', { hasText: 'Player_10001' }).waitFor();
      await expectDone(wb, resultsDir, 'entry');

      // 3. Upload one of the workspace's PNGs through the command's file prompt.
      await startStep(wb, 'asset', 'Upload as Asset…');
      await wb.chooseFile('Upload as Asset', 'assets/blue.png', 'Upload');
      await wb.pick('Image');
      await answerAll(wb, [
        ['Display name for blue.png', 'Walkthrough Badge'],
        ['Description', 'Uploaded from the walkthrough'],
        ['Creator', '1001'],
      ]);
      await wb.collapseTreeRow('Data Stores');
      await wb.expandTreeRow('Assets');
      // Pending while the upload's operation runs, then the asset with its type.
      const asset = wb.treeRow('Walkthrough Badge');
      await asset.locator('.label-description', { hasText: /^Image/ }).waitFor({ timeout: 30_000 });
      if (process.env.UE_README_SHOTS === '1') {
        await wb.contextMenu(asset, 'Show Details');
        await editorText(wb).filter({ hasText: 'Walkthrough Badge' }).waitFor({ timeout: 20_000 });
        await readmeShot(wb, 'asset');
      }
      await expectDone(wb, resultsDir, 'asset');

      // 4. Ban a user through the prompts, then show the restriction log from the step's link.
      await startStep(wb, 'ban', 'Ban User…');
      await answerAll(wb, [
        ['Level', 'Whole universe'],
        ['Ban a user from universe 123456', USER],
        [`Duration of the restriction of user ${USER}`, '1 day'],
        [`Display reason for user ${USER}`, 'Griefing'],
        [`Private reason for user ${USER}`, 'Walkthrough'],
        [`Alt accounts of user ${USER}`, 'Also ban alt accounts'],
      ]);
      await wb.collapseTreeRow('Assets');
      await wb.expandTreeRow('User Restrictions');
      await wb.treeRow(USER).waitFor({ state: 'visible', timeout: 20_000 });
      assert.deepEqual(await doneSteps(wb), STEPS.slice(0, 3), 'the ban alone completed the step');
      await startStep(wb, 'ban', 'show the restriction log');
      const log = await wb.webviewFrame('#rows');
      await log.locator('#rows tr', { hasText: USER }).first().waitFor({ timeout: 20_000 });
      await readmeShot(wb, 'restriction-log');
      await expectDone(wb, resultsDir, 'ban');

      // 5. Add a connection to the sandbox's address with its key, and see its universe in the tree.
      const sandbox = await sandboxAddress(wb);
      await startStep(wb, 'connection', 'Add Connection…');
      await answerAll(wb, [
        ['Connection name', 'My Studio'],
        ['Base URL', sandbox.url],
        ['API key', sandbox.key],
        ['Entry header prefix', 'platform'],
        ['Universes', '123456 = My Game'],
      ]);
      await wb.expandTreeRow('My Studio');
      await wb.treeRow('My Game').waitFor({ state: 'visible', timeout: 20_000 });
      await expectDone(wb, resultsDir, 'connection');
      if (process.env.UE_README_SHOTS === '1') {
        // Without the side bar the page has room for the step's own text beside the steps.
        await wb.runCommand('View: Toggle Primary Side Bar Visibility');
        await selectStep(wb, 'entry');
        await page.waitForTimeout(1000);
        await readmeShot(wb, 'walkthrough');
        await wb.runCommand('View: Toggle Primary Side Bar Visibility');
      }
    },
  };
}
