// UI test of the restriction log panel in the real workbench: ban a user through the command palette with a
// reason that is HTML and script, open the log, and read the webview's own DOM (webviews are nested iframes:
// the workbench's webview frame, and inside it the page's `active-frame`). The reasons must show as text, with
// no element made from them and no script run. Rows are selected by keyboard, the selection survives a reload, and
// Ban Selected Users… hands its user to the bulk command.
import * as assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import { localTime, utcTime } from '../../src/core/time';
import type { UiTest, Workbench } from './workbench';

const USER = '424242';
const HOSTILE_DISPLAY = `<img src=x onerror="document.title='pwned';window.pwned=1">`;
const HOSTILE_PRIVATE = `<script>document.title='pwned';window.pwned=2</script>, "quoted"`;

/** The page frame of our webview: a frame inside a workbench webview frame that holds the log table. */
async function logFrame(page: Page, timeoutMs = 30_000): Promise<Frame> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      if (!frame.parentFrame()?.url().includes('webview')) continue;
      if (await frame.$('#rows').catch(() => null)) return frame;
    }
    if (Date.now() > end)
      throw new Error(
        `no restriction log webview among ${page
          .frames()
          .map((f) => f.url())
          .join(', ')}`,
      );
    await page.waitForTimeout(200);
  }
}

export function restrictionLogUiTest(resultsDir: string): UiTest {
  return {
    name: 'the restriction log webview shows hostile reasons as text, runs no script from them, filters by keyboard, and comes back after a reload',
    fn: async (wb: Workbench) => {
      const page = wb.page;
      await wb.openViewContainer('Universes');
      await wb.runCommand('Universe Explorer: Start Local Sandbox');
      await wb.treeRow('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });

      await wb.runCommand('Universe Explorer: Ban User…');
      await wb.answer('Level', 'Whole universe');
      await wb.answer('Ban a user from universe 123456', USER);
      await wb.answer(`Duration of the restriction of user ${USER}`, '1 day');
      await wb.answer(`Display reason for user ${USER}`, HOSTILE_DISPLAY);
      await wb.answer(`Private reason for user ${USER}`, HOSTILE_PRIVATE);
      await wb.answer(`Alt accounts of user ${USER}`, 'Also ban alt accounts');
      // The ban is done when its row shows in the log below (the log reloads after a ban).

      await wb.runCommand('Universe Explorer: Show Restriction Log');
      const frame = await logFrame(page);
      const display = frame.locator('td.reason', { hasText: 'onerror=' }).first();
      await display.waitFor({ timeout: 20_000 });
      assert.equal(await display.textContent(), HOSTILE_DISPLAY);
      assert.equal(await frame.locator('td.reason', { hasText: '<script>' }).first().textContent(), HOSTILE_PRIVATE);
      const dom = await frame.evaluate(() => ({
        images: document.querySelectorAll('img').length,
        // VS Code adds a script of its own to every webview; none may come from a reason.
        scriptsFromReasons: Array.from(document.querySelectorAll('script')).filter((s) =>
          s.textContent?.includes('pwned'),
        ).length,
        tagsInRows: [...new Set(Array.from(document.querySelectorAll('#rows *')).map((e) => e.tagName))].sort(),
        title: document.title,
        pwned: (window as unknown as { pwned?: number }).pwned,
        csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '',
      }));
      assert.deepEqual(
        {
          images: dom.images,
          scriptsFromReasons: dom.scriptsFromReasons,
          tagsInRows: dom.tagsInRows,
          title: dom.title,
          pwned: dom.pwned,
        },
        {
          images: 0,
          scriptsFromReasons: 0,
          tagsInRows: ['BUTTON', 'INPUT', 'TD', 'TIME', 'TR'],
          title: 'Restriction Log',
          pwned: undefined,
        },
        'a reason became an element or ran',
      );
      assert.match(dom.csp, /^default-src 'none'; script-src 'nonce-[^']+'; style-src /);
      assert.doesNotMatch(await page.title(), /pwned/);
      await wb.screenshot(resultsDir, 'restriction-log');

      // Times: local in the cell (this machine's zone, as the page's), UTC in its title.
      const cell = frame.locator('#rows tr td:nth-child(2)').first();
      const iso = (await cell.locator('time').getAttribute('datetime')) ?? '';
      assert.match(iso, /^\d{4}-/);
      assert.equal(await cell.textContent(), localTime(iso));
      assert.equal(await cell.getAttribute('title'), `UTC ${utcTime(iso)}`);

      // Selection: Space on a row's checkbox, the count and the buttons, then every row shown.
      const users = () => frame.locator('#rows tr td:nth-child(3)').allTextContents();
      const count = (text: string) => frame.locator('#selected', { hasText: new RegExp(`^${text}$`) }).waitFor();
      const banSelected = frame.getByRole('button', { name: 'Ban Selected Users…' });
      await count('No users selected');
      assert.equal(await banSelected.getAttribute('aria-disabled'), 'true');
      await frame.locator('#rows td.select input').first().press('Space');
      await count('1 user selected');
      assert.equal(await banSelected.getAttribute('aria-disabled'), 'false');
      await frame.getByLabel('Select all rows shown').press('Space');
      await count(`${new Set(await users()).size} users selected`);

      // Keyboard: the filter is a labelled input, Enter applies it, and the rows narrow to that user.
      assert.ok(
        (await users()).some((u) => u !== USER),
        'the demo log should hold other users too',
      );
      await frame.getByLabel('User id').fill(USER);
      await frame.getByLabel('User id').press('Enter');
      await frame.locator('#status', { hasText: `for user ${USER}` }).waitFor({ timeout: 20_000 });
      assert.deepEqual(await users(), [USER]);
      await count('No users selected');
      await frame.getByLabel(`Select the entry of user ${USER}`).press('Space');
      await count('1 user selected');
      for (const name of ['Apply filter', 'Clear filter', 'Refresh', 'Export CSV…']) {
        await frame.getByRole('button', { name }).waitFor({ state: 'visible' });
      }

      // A window reload brings the panel back with its filter; the sandbox it reads starts again on its own.
      await wb.reload();
      const restored = await logFrame(page);
      await restored.locator('#where', { hasText: 'Universe 123456' }).waitFor({ timeout: 30_000 });
      assert.equal(await restored.getByLabel('User id').inputValue(), USER);
      const restoredUsers = restored.locator('#rows tr td:nth-child(3)');
      await restoredUsers.first().waitFor({ timeout: 20_000 });
      assert.deepEqual(await restoredUsers.allTextContents(), [USER]);
      assert.equal(await restored.locator('#problem').isVisible(), false);
      await restored.locator('#selected', { hasText: /^1 user selected$/ }).waitFor();
      await wb.screenshot(resultsDir, 'restriction-log-restored');

      // Ban Selected Users… runs Ban Users from a List… on the selected user; Escape leaves it.
      await restored.getByRole('button', { name: 'Ban Selected Users…' }).click();
      const title = page.locator('.quick-input-widget .quick-input-title', { hasText: 'Ban 1 user: where' });
      await title.waitFor({ state: 'visible', timeout: 20_000 });
      await page.keyboard.press('Escape');
      await title.waitFor({ state: 'hidden', timeout: 20_000 });
    },
  };
}
