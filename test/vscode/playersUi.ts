// UI test of the player page in the real workbench: Build Query Index… of the sandbox's PlayerData and Inventory,
// Show Player… from the Command Palette with a user id typed, then the page with the keyboard only: Tab reaches the
// entries grid, the arrows move its row, Enter opens the live entry; Tab reaches Check Live, Space runs it (a click
// on the page's heading only gives the webview the focus), and Enter on a user of the restriction log opens theirs. Every
// cell is text, the ban and the log show, and the page's own markup has a strict CSP.
import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import type { UiTest, Workbench } from './workbench';

const USER = '10004';
const KEY = `Player_${USER}`;

/** Presses Tab in the page until the element with this id has the focus. */
async function tabTo(frame: Frame, id: string): Promise<void> {
  for (let i = 0; i < 30; i++) {
    if (await frame.evaluate((want) => document.activeElement?.id === want, id)) return;
    await frame.page().keyboard.press('Tab');
  }
  throw new Error(`Tab never reached #${id}`);
}

/** The player page whose heading reads `heading` (another player's page may still be loaded beside it). */
async function pageOf(wb: Workbench, heading: string): Promise<Frame> {
  const end = Date.now() + 30_000;
  for (;;) {
    for (const frame of wb.page.frames()) {
      if (!frame.parentFrame()?.url().includes('webview')) continue;
      const text = await frame.$eval('#heading', (h) => h.textContent).catch(() => undefined);
      if (text === heading) return frame;
    }
    if (Date.now() > end) throw new Error(`no player page reads ${heading}`);
    await wb.page.waitForTimeout(200);
  }
}

/** Checks the stores wanted in the open Build Query Index pick (those indexed before come checked) and accepts. */
async function buildIndex(wb: Workbench, stores: string[]): Promise<void> {
  const widget = wb.page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: 'Build Query Index' }).waitFor({ timeout: 20_000 });
  for (const store of stores) {
    const row = widget.locator('.quick-input-list .monaco-list-row', { hasText: store }).first();
    await row.waitFor();
    if ((await row.getAttribute('aria-checked')) !== 'true') await row.click();
  }
  await widget.getByRole('button', { name: 'OK', exact: true }).click();
}

export function playersUiTest(resultsDir: string): UiTest {
  return {
    name: 'players: Show Player… from the palette, the entries grid with the keyboard, Check Live',
    fn: async (wb: Workbench) => {
      const page = wb.page;
      await wb.openViewContainer('Universes');
      await wb.runCommand('Universe Explorer: Start Local Sandbox');
      await wb.treeRow('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
      await wb.expandTreeRow('Demo Universe');

      await wb.runCommand('Universe Explorer: Build Query Index…');
      await buildIndex(wb, ['PlayerData', 'Inventory']);
      await page.waitForFunction(
        () =>
          Array.from(document.querySelectorAll('.monaco-list-row[role="treeitem"]')).some(
            (r) => r.textContent?.includes('Query Index') && /Inventory.*PlayerData/.test(r.textContent),
          ),
        undefined,
        { timeout: 90_000 },
      );

      await wb.runCommand('Universe Explorer: Show Player…');
      await wb.answer('Show Player in Demo Universe', USER);
      const frame = await wb.webviewFrame('#entryRows');
      await frame.locator('#heading', { hasText: `User ${USER}` }).waitFor({ timeout: 30_000 });
      await frame.locator('#entryRows tr[data-row]').first().waitFor({ timeout: 30_000 });
      const rows = await frame
        .locator('#entryRows tr[data-row]')
        .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent)));
      assert.deepEqual(
        rows.map((r) => r.slice(0, 4)),
        [
          ['Inventory', 'global', KEY, 'key names the id'],
          ['Inventory', 'season2', KEY, 'key names the id'],
          ['PlayerData', 'global', KEY, 'key names the id'],
        ],
      );
      assert.match(await frame.locator('#coverage').innerText(), /^Indexed: Inventory, PlayerData · [\d,]+ entries/);
      assert.match(await frame.locator('#coverage').innerText(), /Not indexed: .*Leaderboard/);
      await frame.locator('#banRows tr', { hasText: 'Universe' }).first().waitFor();
      assert.deepEqual(
        [
          ...new Set(await frame.locator('#entryRows *, #logRows *').evaluateAll((els) => els.map((e) => e.tagName))),
        ].sort(),
        ['TD', 'TIME', 'TR'],
        'a value became an element',
      );
      const csp = await frame.evaluate(
        () => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '',
      );
      assert.match(csp, /^default-src 'none'; script-src 'nonce-[^']+'; style-src /);

      // The keyboard only, from the page's first control: Tab to the grid, Down to the second row, Enter opens it.
      await frame.locator('#heading').click();
      await tabTo(frame, 'entries');
      await page.keyboard.press('ArrowDown');
      assert.equal(await frame.locator('#entries').getAttribute('aria-activedescendant'), 'entry-1');
      assert.equal(await frame.locator('#entry-1').getAttribute('aria-selected'), 'true');
      await page.keyboard.press('Enter');
      await page
        .locator('.tabs-container .tab', { hasText: `${KEY}.json` })
        .first()
        .waitFor({ timeout: 20_000 });
      await page.locator('.breadcrumbs-control', { hasText: 'season2' }).first().waitFor({ timeout: 20_000 });

      // Back to the page (its tab), Tab to Check Live, Space: every row is marked.
      await page
        .locator('.tabs-container .tab', { hasText: `Player ${USER}` })
        .first()
        .click();
      const again = await wb.webviewFrame('#entryRows');
      await again.locator('#entryRows tr[data-row]').first().waitFor({ timeout: 30_000 });
      await again.locator('#heading').click();
      await tabTo(again, 'checkLive');
      await page.keyboard.press('Space');
      await again.locator('#checked', { hasText: 'Checked live at' }).waitFor({ timeout: 30_000 });
      assert.deepEqual(await again.locator('#entryRows td.live').allTextContents(), [
        'same version',
        'same version',
        'same version',
      ]);
      await wb.screenshot(resultsDir, 'player-page');

      // A restriction log row opens its user's page: the demo's user 2001, banned from the whole universe.
      await wb.runCommand('Universe Explorer: Show Restriction Log');
      const log = await wb.webviewFrame('#filter');
      const link = log.getByRole('button', { name: 'Show Player 2001' }).first();
      await link.waitFor({ timeout: 30_000 });
      await link.focus();
      await page.keyboard.press('Enter');
      const banned = await pageOf(wb, 'User 2001');
      const universeRow = banned.locator('#banRows tr', { hasText: 'Universe' }).first();
      await universeRow.locator('td', { hasText: 'banned' }).first().waitFor({ timeout: 30_000 });
      assert.deepEqual((await universeRow.locator('td').allTextContents()).slice(0, 3), [
        'Universe',
        'banned',
        'permanent',
      ]);
      await banned.locator('#logRows tr', { hasText: 'Exploit: speed hack' }).waitFor({ timeout: 30_000 });
      await wb.screenshot(resultsDir, 'player-page-banned');
    },
  };
}
