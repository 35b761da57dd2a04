// Drives the real VS Code workbench served by code-server: Chromium through playwright-core, the
// payload URL, and small helpers for the UI tests (activity bar, tree rows, screenshots).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Frame, type Locator, type Page } from 'playwright-core';
import type { RunningCodeServer } from '../../scripts/code-server';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export async function launchBrowser(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    // The runner handles signals itself and closes the browser (playwright also kills it on exit).
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

/** `vscode-remote://remote<abs path>`: how the payload names a file on the code-server side. */
export function remoteUri(absPath: string): string {
  return `vscode-remote://remote${path.resolve(absPath)}`;
}

export interface WorkbenchUrlOptions {
  workspace: string;
  extensionDevelopmentPath?: string;
  extensionTestsPath?: string;
}

export function workbenchUrl(server: RunningCodeServer, o: WorkbenchUrlOptions): string {
  const payload: [string, string][] = [];
  if (o.extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remoteUri(o.extensionDevelopmentPath)]);
  if (o.extensionTestsPath) payload.push(['extensionTestsPath', remoteUri(o.extensionTestsPath)]);
  let url = `${server.url}?folder=${encodeURIComponent(path.resolve(o.workspace))}`;
  if (payload.length) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return url;
}

export interface OpenOptions {
  /** Lines the workbench passes to window.codeAutomationLog (the extension host's console under test). */
  onLog?: (level: string, message: string) => void;
  /** window.codeAutomationExit: the extension host finished the tests with this code (0 = all passed). */
  onExit?: (code: number) => void;
  /** Browser console and page errors go here (a file in the run dir), not to stdout. */
  consoleLog?: string;
  viewport?: { width: number; height: number };
}

/** A test that clicks the workbench (listed in ui.ts). */
export interface UiTest {
  name: string;
  fn: (wb: Workbench) => Promise<void>;
}

export class Workbench {
  private constructor(readonly page: Page) {}

  static async open(browser: Browser, url: string, o: OpenOptions = {}): Promise<Workbench> {
    const context = await browser.newContext({ viewport: o.viewport ?? { width: 1400, height: 900 } });
    const page = await context.newPage();
    if (o.consoleLog) {
      const out = fs.createWriteStream(o.consoleLog, { flags: 'a' });
      page.on('console', (m) => out.write(`[${m.type()}] ${m.text()}\n`));
      page.on('pageerror', (e) => out.write(`[pageerror] ${e.stack ?? e.message}\n`));
      page.on('close', () => out.end());
    }
    await page.exposeFunction('codeAutomationLog', (level: unknown, message: unknown) => {
      o.onLog?.(String(level), typeof message === 'string' ? message : JSON.stringify(message));
    });
    await page.exposeFunction('codeAutomationExit', (code: unknown) => {
      o.onExit?.(typeof code === 'number' ? code : Number(code) || 1);
    });
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    return new Workbench(page);
  }

  /** A second window of the same workbench (another browser page on the same folder). */
  async another(): Promise<Workbench> {
    const browser = this.page.context().browser();
    if (!browser) throw new Error('the page has no browser');
    const wb = await Workbench.open(browser, this.page.url());
    await wb.activityBar().waitFor({ state: 'visible', timeout: 60_000 });
    return wb;
  }

  /** The description a tree row shows next to its label. */
  async treeRowDescription(label: string): Promise<string> {
    return (await this.treeRow(label).locator('.label-description').first().textContent()) ?? '';
  }

  /** Waits until the workbench is restored (the smoke-test driver's own signal) and the activity bar shows. */
  async waitReady(timeoutMs = 60_000): Promise<void> {
    await this.page.waitForFunction(
      () => typeof (window as unknown as { driver?: unknown }).driver === 'object',
      undefined,
      {
        timeout: timeoutMs,
      },
    );
    await this.page.evaluate(() =>
      (window as unknown as { driver: { whenWorkbenchRestored(): Promise<void> } }).driver.whenWorkbenchRestored(),
    );
    await this.activityBar().waitFor({ state: 'visible', timeout: timeoutMs });
  }

  activityBar(): Locator {
    return this.page.locator('#workbench\\.parts\\.activitybar');
  }

  /** An activity bar entry (`li.action-item`) by the start of its label, e.g. "Explorer" or "Universes". */
  activityBarItem(name: string): Locator {
    return this.activityBar()
      .locator('li.action-item')
      .filter({ has: this.page.locator(`a.action-label[aria-label^=${JSON.stringify(name)}]`) })
      .first();
  }

  /** The labels of the activity bar entries, without their key bindings: ["Explorer", "Search", ...]. */
  async activityBarNames(): Promise<string[]> {
    const labels = await this.activityBar()
      .locator('li.action-item a.action-label')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    return labels.map((l) => l.replace(/\s*\([^)]*\)$/, '')).filter((l) => l.length > 0);
  }

  /** Opens a view container from the activity bar (does nothing when it is already open). */
  async openViewContainer(name: string): Promise<void> {
    const item = this.activityBarItem(name);
    await item.waitFor({ state: 'visible' });
    const timeout = 7_500;
    const open = async () => {
      try {
        const handle = await item.elementHandle();
        await this.page.waitForFunction((el) => el?.getAttribute('aria-selected') === 'true', handle, { timeout });
        await this.sideBar().waitFor({ state: 'visible', timeout });
        return true;
      } catch {
        return false;
      }
    };
    // Right after a reload the workbench may still be restoring the side bar, and a click then closes it again.
    for (let attempt = 0; attempt < 4; attempt++) {
      const shown = (await item.getAttribute('aria-selected')) === 'true' && (await this.sideBar().isVisible());
      if (!shown) await item.click();
      if (await open()) return;
    }
    throw new Error(`the ${name} view did not open`);
  }

  sideBar(): Locator {
    return this.page.locator('#workbench\\.parts\\.sidebar');
  }

  /** A tree row (`role=treeitem`) in the side bar whose label contains `label`. */
  treeRow(label: string): Locator {
    return this.sideBar()
      .locator('.monaco-list-row[role="treeitem"]')
      .filter({ has: this.page.locator('.label-name', { hasText: label }) })
      .first();
  }

  /** Expands a collapsed tree row (clicking its twistie) and waits until it is expanded. */
  async expandTreeRow(label: string): Promise<Locator> {
    const row = this.treeRow(label);
    await row.waitFor({ state: 'visible' });
    if ((await row.getAttribute('aria-expanded')) === 'false') await row.locator('.monaco-tl-twistie').click();
    await this.page.waitForFunction((el) => el?.getAttribute('aria-expanded') === 'true', await row.elementHandle());
    return row;
  }

  /**
   * The row labelled `label` among the children of the row `parent` (expanded first), once the tree has drawn the rows
   * from the parent down to it: not a row of the same name under another parent (two stores both hold a
   * Player_10003).
   */
  async childRow(parent: string, label: string): Promise<Locator> {
    const row = await this.expandTreeRow(parent);
    const [index, level] = await Promise.all([row.getAttribute('data-index'), row.getAttribute('aria-level')]);
    const found = await this.page.waitForFunction(
      ({ index, level, label }) => {
        const rows = new Map<number, Element>();
        for (const r of Array.from(document.querySelectorAll('#workbench\\.parts\\.sidebar .monaco-list-row')))
          rows.set(Number(r.getAttribute('data-index')), r);
        // The rows after the parent, until one of its level or above: its children and theirs.
        for (let i = index + 1; rows.has(i); i++) {
          const r = rows.get(i)!;
          const at = Number(r.getAttribute('aria-level'));
          if (at <= level) return undefined;
          if (at === level + 1 && r.querySelector('.label-name')?.textContent?.trim() === label) return i;
        }
        return undefined;
      },
      { index: Number(index), level: Number(level), label },
      { timeout: 20_000 },
    );
    return this.sideBar().locator(`.monaco-list-row[role="treeitem"][data-index="${String(await found.jsonValue())}"]`);
  }

  /** Collapses an expanded tree row (clicking its twistie). */
  async collapseTreeRow(label: string): Promise<void> {
    const row = this.treeRow(label);
    if ((await row.getAttribute('aria-expanded')) === 'true') await row.locator('.monaco-tl-twistie').click();
    await this.page.waitForFunction((el) => el?.getAttribute('aria-expanded') === 'false', await row.elementHandle());
  }

  /** Runs a command through the command palette by its title. */
  async runCommand(title: string): Promise<void> {
    await this.page.keyboard.press('F1');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(`>${title}`);
    // The first row is not always the one named (File: Save also finds "File: Compare Active File with Saved").
    const row = this.page
      .locator('.quick-input-list .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(title)}$`) }) })
      .first();
    await row.click();
  }

  /** Waits for the quick input to show `title`, types `text` and accepts it (a pick takes its first match). */
  async answer(title: string, text: string): Promise<void> {
    const widget = this.page.locator('.quick-input-widget');
    await widget.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: 20_000 });
    const input = widget.locator('.quick-input-box input');
    await input.fill(text);
    if (await widget.locator('.quick-input-list .monaco-list-row').count()) {
      await widget.locator('.quick-input-list .monaco-list-row', { hasText: text }).first().waitFor();
    }
    await this.page.keyboard.press('Enter');
  }

  /** Picks the item of the open quick pick whose label is `label`. */
  async pick(label: string): Promise<void> {
    const row = this.page
      .locator('.quick-input-list .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }) })
      .first();
    await row.waitFor({ state: 'visible', timeout: 20_000 });
    await row.click();
  }

  /**
   * Answers an open dialog (code-server's own: a path in the quick input, starting at the workspace folder) with
   * this path inside the workspace, then its button (`ok`, the dialog's own label such as "Open").
   */
  async chooseFile(title: string, relativePath: string, ok: string): Promise<void> {
    const widget = this.page.locator('.quick-input-widget');
    await widget.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: 20_000 });
    const input = widget.locator('.quick-input-box input');
    // The dialog shows the workspace folder once it lists the path's first folder and its path ends with a slash.
    const row = (name: string) => widget.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
    await row(relativePath.split('/')[0]).waitFor();
    await this.page.waitForFunction(
      (el) => (el as HTMLInputElement | null)?.value.endsWith('/'),
      await input.elementHandle(),
    );
    await input.fill((await input.inputValue()) + relativePath);
    await row(path.posix.basename(relativePath)).waitFor();
    await widget.getByRole('button', { name: ok, exact: true }).click();
  }

  /** The page frame of a webview (a frame inside a workbench webview frame) that holds `selector`. */
  async webviewFrame(selector: string, timeoutMs = 30_000): Promise<Frame> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      for (const frame of this.page.frames()) {
        if (!frame.parentFrame()?.url().includes('webview')) continue;
        if (await frame.$(selector).catch(() => null)) return frame;
      }
      if (Date.now() > end) throw new Error(`no webview holds ${selector}`);
      await this.page.waitForTimeout(200);
    }
  }

  /** Opens a tree row's context menu and runs the item with this label. */
  async contextMenu(row: Locator, item: string): Promise<void> {
    await row.click({ button: 'right' });
    const entry = this.page.locator('.monaco-menu .action-item', { hasText: item }).first();
    await entry.waitFor({ state: 'visible', timeout: 10_000 });
    // A menu ignores a click that comes as it opens (its rows may still move): hover first, as a hand does.
    await entry.hover();
    await this.page.waitForTimeout(250);
    await entry.click();
  }

  /** Developer: Reload Window, then waits until the workbench is back (restored, where the test driver says so). */
  async reload(): Promise<void> {
    await Promise.all([
      this.page.waitForEvent('load', { timeout: 60_000 }),
      this.runCommand('Developer: Reload Window'),
    ]);
    const driver = await this.page.evaluate(() => typeof (window as { driver?: unknown }).driver === 'object');
    if (driver) await this.waitReady();
    else await this.activityBar().waitFor({ state: 'visible', timeout: 60_000 });
  }

  /** The editor tab whose label starts with `label`. */
  tab(label: string): Locator {
    return this.page
      .locator('.tabs-container .tab', { has: this.page.locator('.label-name', { hasText: label }) })
      .first();
  }

  /** A modal dialog whose message holds `text`. */
  dialog(text: string): Locator {
    return this.page.locator('.monaco-dialog-box', { hasText: text }).first();
  }

  /** Saves a full-page PNG under test-results/ and returns its path. */
  async screenshot(dir: string, name: string): Promise<string> {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  async close(): Promise<void> {
    await this.page.context().close();
  }
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
