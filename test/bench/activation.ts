// activate() time inside a real VS Code (code-server 1.139, its Node 24 extension host), as VS Code itself reports
// it in Developer: Show Running Extensions ("Activation: N ms": code loading plus the activate() call). The
// extension is a temporary folder holding the manifest, media/ and the bundle under test; each run is a fresh page
// (a fresh extension host), and the Universes view is opened after the workbench has settled, so other extensions
// starting up do not share the measurement.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeRunDir, ROOT, startCodeServer, toolPaths, writeUserSettings } from '../../scripts/code-server';
import { launchBrowser, Workbench, workbenchUrl } from '../vscode/workbench';

const SETTLE_MS = 10_000;

/** An extension folder whose dist/extension.js is `bundle`. */
function extensionFolder(dir: string, bundle: string): string {
  const ext = path.join(dir, 'extension');
  fs.mkdirSync(path.join(ext, 'dist'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(ext, 'package.json'));
  fs.cpSync(path.join(ROOT, 'media'), path.join(ext, 'media'), { recursive: true });
  fs.copyFileSync(bundle, path.join(ext, 'dist/extension.js'));
  return ext;
}

/** Milliseconds per run, or undefined when code-server is not installed (npm run test:vscode installs it). */
export async function codeServerActivation(dir: string, bundle: string, runs: number): Promise<number[] | undefined> {
  const tools = toolPaths();
  if (!fs.existsSync(tools.node) || !fs.existsSync(tools.entry) || !fs.existsSync(tools.chromium)) return undefined;
  const dirs = makeRunDir(path.join(dir, 'runs'), 'activation', path.join(ROOT, 'test/vscode/workspace'));
  writeUserSettings(dirs, {});
  const server = await startCodeServer({ tools, dirs });
  const browser = await launchBrowser(tools.chromium);
  const url = workbenchUrl(server, { workspace: dirs.workspace, extensionDevelopmentPath: extensionFolder(dir, bundle) });
  const times: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const wb = await Workbench.open(browser, url, {});
      try {
        await wb.waitReady();
        await new Promise((r) => setTimeout(r, SETTLE_MS));
        await wb.openViewContainer('Universes');
        await wb.runCommand('Developer: Show Running Extensions');
        const row = wb.page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: 'universe-explorer' });
        const text = await row.locator('.activation-time').innerText({ timeout: 30_000 });
        const m = /(\d+)\s*ms/.exec(text);
        if (!m) throw new Error(`no activation time in "${text}"`);
        times.push(Number(m[1]));
      } finally {
        await wb.close();
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  return times;
}
