// activate() time inside a real VS Code (code-server 1.139, its Node 24 extension host), as VS Code itself reports
// it in Developer: Show Running Extensions ("Activation: N ms": code loading plus the activate() call). The
// extension is a temporary folder holding the manifest, its texts, media/ and the bundles under test; each run is a fresh page
// (a fresh extension host), and the Universes view is opened after the workbench has settled, so other extensions
// starting up do not share the measurement. A bundle whose activate() does nothing, under the same manifest, is the
// reference: what VS Code itself takes to activate an extension here.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeRunDir, ROOT, startCodeServer, toolPaths, writeUserSettings } from '../../scripts/code-server';
import type { Browser } from 'playwright-core';
import { launchBrowser, Workbench, workbenchUrl } from '../vscode/workbench';

const SETTLE_MS = 10_000;

/** An extension folder with this manifest (and its texts, package.nls.json and l10n/) and media/, whose dist/ is a copy of `dist`. */
function extensionFolder(dir: string, name: string, dist: string): string {
  const ext = path.join(dir, name);
  fs.mkdirSync(ext, { recursive: true });
  for (const file of ['package.json', 'package.nls.json']) fs.copyFileSync(path.join(ROOT, file), path.join(ext, file));
  for (const folder of ['media', 'l10n'])
    fs.cpSync(path.join(ROOT, folder), path.join(ext, folder), { recursive: true });
  fs.cpSync(dist, path.join(ext, 'dist'), { recursive: true });
  return ext;
}

/**
 * Puts a wrapper in front of `dist/<entry>` (the manifest's main) that times the require of the real entry and its
 * activate() call inside the extension host and writes both to `out`.
 */
function timed(dist: string, entry: string, out: string): void {
  fs.renameSync(path.join(dist, entry), path.join(dist, `timed-${entry}`));
  fs.writeFileSync(
    path.join(dist, entry),
    [
      'const t0 = performance.now();',
      `const real = require('./timed-${entry}');`,
      'const load = performance.now() - t0;',
      'exports.activate = (context) => {',
      '  const t1 = performance.now();',
      '  const api = real.activate(context);',
      `  require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ load, activate: performance.now() - t1 }));`,
      '  return api;',
      '};',
      'exports.deactivate = () => real.deactivate?.();',
      '',
    ].join('\n'),
  );
}

export interface Activations {
  /** Ours on the first start after an install: no code cache yet (it leaves one). */
  first: number;
  /** Ours on the later starts, ms per run. */
  ours: number[];
  /**
   * Those split in two, measured by a wrapper in the extension host: require of the entry (dist/main.js), and its
   * activate() call (the bundle compiled from the code cache, run, and its activate()).
   */
  load: number[];
  activate: number[];
  /** The same manifest with a bundle whose activate() does nothing: what VS Code itself takes. */
  empty: number[];
}

/** Milliseconds per run, or undefined when code-server is not installed (npm run test:vscode installs it). */
export async function codeServerActivation(dir: string, dist: string, runs: number): Promise<Activations | undefined> {
  const tools = toolPaths();
  if (!fs.existsSync(tools.node) || !fs.existsSync(tools.entry) || !fs.existsSync(tools.chromium)) return undefined;
  const dirs = makeRunDir(path.join(dir, 'runs'), 'activation', path.join(ROOT, 'test/vscode/workspace'));
  writeUserSettings(dirs, {});
  const server = await startCodeServer({ tools, dirs });
  const browser = await launchBrowser(tools.chromium);
  const emptyDist = path.join(dir, 'empty-dist');
  fs.mkdirSync(emptyDist, { recursive: true });
  fs.writeFileSync(path.join(emptyDist, 'main.js'), 'exports.activate = () => ({});\nexports.deactivate = () => {};\n');
  const ours = extensionFolder(dir, 'ours', dist);
  const split = path.join(dir, 'split.json');
  timed(path.join(ours, 'dist'), 'main.js', split);
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
  };
  const storage = path.join(dirs.userData, 'User', 'globalStorage', `${manifest.publisher}.${manifest.name}`);
  const hasCache = () => fs.existsSync(storage) && fs.readdirSync(storage).some((f) => /^code-cache-\w+\.bin$/.test(f));
  const urls = {
    ours: workbenchUrl(server, { workspace: dirs.workspace, extensionDevelopmentPath: ours }),
    empty: workbenchUrl(server, {
      workspace: dirs.workspace,
      extensionDevelopmentPath: extensionFolder(dir, 'empty', emptyDist),
    }),
  };
  const times: Activations = { first: 0, ours: [], load: [], activate: [], empty: [] };
  try {
    if (hasCache()) throw new Error(`a code cache is in ${storage} before the first start`);
    times.first = await activationOnce(browser, urls.ours);
    // The first start writes the code cache a moment after activation (its page may already be closed by then).
    for (let waited = 0; !hasCache(); waited += 200) {
      if (waited > 30_000) throw new Error('the first start left no code cache');
      await new Promise((r) => setTimeout(r, 200));
    }
    for (let i = 0; i < runs; i++) {
      for (const which of ['empty', 'ours'] as const) times[which].push(await activationOnce(browser, urls[which]));
      const { load, activate } = JSON.parse(fs.readFileSync(split, 'utf8')) as { load: number; activate: number };
      times.load.push(Math.round(load));
      times.activate.push(Math.round(activate));
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  return times;
}

async function activationOnce(browser: Browser, url: string): Promise<number> {
  // Tall enough that the list of running extensions (virtualized: rows out of view are not drawn) shows every row.
  const wb = await Workbench.open(browser, url, { viewport: { width: 1400, height: 3200 } });
  try {
    await wb.waitReady();
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    await wb.openViewContainer('Universes');
    await wb.runCommand('Developer: Show Running Extensions');
    const row = wb.page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: 'universe-explorer' });
    const text = await row.locator('.activation-time').innerText({ timeout: 30_000 });
    const m = /(\d+)\s*ms/.exec(text);
    if (!m) throw new Error(`no activation time in "${text}"`);
    return Number(m[1]);
  } finally {
    await wb.close();
  }
}
