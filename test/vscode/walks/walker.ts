// The walker of test/vscode/walk.ts and its walks: one workbench page, screenshots under test-results/, and the
// steps every walk takes (menus, quick picks, typed input, review panels, the save dialog).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import { ROOT } from '../../../scripts/code-server';
import { OpenApiClient } from '../../../src/api';
import type { Workbench } from '../workbench';

const RESULTS = path.join(ROOT, 'test-results');
export class Walker {
  private step = 0;
  constructor(
    readonly wb: Workbench,
    readonly name: string,
  ) {}

  get page() {
    return this.wb.page;
  }

  async shot(what: string): Promise<void> {
    const file = await this.wb.screenshot(RESULTS, `walk-${this.name}-${String(++this.step).padStart(2, '0')}-${what}`);
    console.log(`  ${path.relative(ROOT, file)}`);
  }

  row(label: string): Locator {
    return this.wb.treeRow(label);
  }

  /** The first tree row whose label starts with `start`. */
  rowStarting(start: string): Locator {
    return this.wb
      .sideBar()
      .locator('.monaco-list-row[role="treeitem"]')
      .filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^${start}`) }) })
      .first();
  }

  async menu(row: Locator, item: string): Promise<void> {
    await this.wb.contextMenu(row, item);
  }

  /** Picks an item of the open quick pick by its label. */
  async pick(label: string): Promise<void> {
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
    await row.waitFor({ state: 'visible', timeout: 10_000 });
    await row.click();
  }

  /** Types into the open input box and presses Enter. */
  async type(text: string): Promise<void> {
    await this.pause(400); // the input of the step before may still be shown
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(text);
    await this.page.keyboard.press('Enter');
  }

  /** Collapses an expanded tree row by its twistie. */
  async collapse(label: string): Promise<void> {
    const row = this.row(label);
    if ((await row.getAttribute('aria-expanded')) === 'true') await row.locator('.monaco-tl-twistie').click();
  }

  /** Types a time into the open moment prompt; a screenshot of what it stands for, then Enter. */
  async moment(text: string, shot?: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(text);
    await this.pause(600);
    if (shot) await this.shot(shot);
    await this.page.keyboard.press('Enter');
  }

  /** Hovers a row for its tooltip, then clicks it; a screenshot of each. */
  async hoverThenOpen(row: Locator, tooltipShot: string, openShot: string): Promise<void> {
    await row.hover();
    await this.pause(1500);
    await this.shot(tooltipShot);
    await row.click();
    await this.pause(1500);
    await this.shot(openShot);
  }

  async palette(title: string): Promise<void> {
    await this.wb.runCommand(title);
  }

  /** Opens the Universes view with the sandbox's Data Stores expanded; returns the sandbox's address. */
  async sandboxStores(): Promise<string> {
    await this.wb.openViewContainer('Universes');
    await this.row('Local Sandbox').waitFor({ state: 'visible', timeout: 30_000 });
    const url = await this.wb.treeRowDescription('Local Sandbox');
    await this.wb.expandTreeRow('Demo Universe');
    await this.wb.expandTreeRow('Data Stores');
    return url;
  }

  async pause(ms = 800): Promise<void> {
    await this.page.waitForTimeout(ms);
  }
}

/** A client of the sandbox as another writer would be, with the key `npm start`'s sandbox keeps in its data folder. */
export function anotherWriter(sandboxUrl: string): OpenApiClient {
  const keys = path.join(
    ROOT,
    '.tools/start/ud/User/globalStorage/universe-explorer.universe-explorer/sandbox/keys.json',
  );
  const { apiKeys } = JSON.parse(fs.readFileSync(keys, 'utf8')) as { apiKeys: { key: string }[] };
  return new OpenApiClient({ baseUrl: sandboxUrl, apiKey: apiKeys[0].key });
}

export async function logFrame(w: Walker): Promise<Frame> {
  for (let i = 0; i < 150; i++) {
    for (const frame of w.page.frames()) {
      if (frame.parentFrame()?.url().includes('webview') && (await frame.$('#rows').catch(() => null))) return frame;
    }
    await w.pause(200);
  }
  throw new Error('no restriction log webview');
}

/** Accepts the save dialog (code-server's own, a path in the quick input) at the path it proposes. */
export async function acceptSaveDialog(w: Walker): Promise<void> {
  await w.page.locator('.quick-input-widget input').waitFor({ state: 'visible', timeout: 10_000 });
  await w.pause(600);
  await w.shot('save-dialog');
  await w.page.keyboard.press('Enter');
  await w.pause(600);
  const overwrite = w.page.locator('.quick-input-widget', { hasText: 'already exists' });
  if (await overwrite.isVisible()) await w.page.keyboard.press('Enter');
}

export async function reviewFrame(w: Walker, heading: string): Promise<Frame> {
  for (let i = 0; i < 150; i++) {
    const frames = w.page.frames().filter((f) => f.parentFrame()?.url().includes('webview'));
    for (const frame of frames.reverse()) {
      const text = await frame.$eval('#heading', (el) => el.textContent).catch(() => undefined);
      if (text === heading && (await frame.$('#spacer .row').catch(() => null))) return frame;
    }
    await w.pause(200);
  }
  throw new Error(`no review panel "${heading}"`);
}

/** Clicks a button of a review page by its label. */
export async function reviewButton(frame: Frame, label: string): Promise<void> {
  await frame.locator('#buttons button', { hasText: label }).first().click();
}

/** Build Query Index… on the sandbox's Data Stores with its three stores, waiting until the row names them. */
export async function buildIndex(w: Walker, shot?: string): Promise<void> {
  const page = w.page;
  await w.menu(w.row('Data Stores'), 'Build Query Index…');
  for (const store of ['PlayerData', 'Inventory', 'Leaderboard']) {
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: store }).first();
    await row.waitFor({ timeout: 20_000 });
    if ((await row.getAttribute('aria-checked')) !== 'true') await row.click();
  }
  if (shot) await w.shot(shot);
  await page.locator('.quick-input-widget').getByRole('button', { name: 'OK', exact: true }).click();
  await w.rowStarting('Query Index').waitFor();
  await page.waitForFunction(
    () =>
      Array.from(document.querySelectorAll('.monaco-list-row[role="treeitem"]')).some(
        (r) => r.textContent?.includes('Query Index') && r.textContent.includes('Leaderboard'),
      ),
    undefined,
    { timeout: 120_000 },
  );
}
