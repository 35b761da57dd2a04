// `npm start`: builds and packages the extension, installs this machine's .vsix into code-server (VS Code 1.139 in
// the browser, from .tools/) and serves it on http://127.0.0.1:$PORT (default 8080) with the local
// sandbox starting on activation. The workspace is a copy of demo/ (its README says what to try), so edits there
// never touch the repository. State (settings, connections, the workspace) is kept in .tools/start/ between runs;
// `npm start -- --fresh` starts from scratch. Ctrl-C stops everything.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, ensureTools, installExtension, runDirsAt, startCodeServer, writeUserSettings } from './code-server';
import { hostTarget, packageVsixes } from './package';

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, not "${process.env.PORT}"`);
  const host = process.env.HOST || '127.0.0.1';
  const tools = ensureTools();
  // The .vsix of this machine's target (its DuckDB binding), the universal one on a machine of none.
  const [vsix] = await packageVsixes([hostTarget() ?? 'universal']);

  const stateDir = path.join(ROOT, '.tools/start');
  if (process.argv.includes('--fresh')) fs.rmSync(stateDir, { recursive: true, force: true });
  const newWorkspace = !fs.existsSync(path.join(stateDir, 'demo'));
  const dirs = runDirsAt(stateDir, path.join(ROOT, 'demo'), 'demo');
  installExtension(tools, dirs, vsix);
  const settingsFile = path.join(dirs.userData, 'User/settings.json');
  let current: Record<string, unknown> = {};
  try {
    current = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
  } catch {
    /* first start, or settings the user broke: start over */
  }
  // A new demo workspace opens with its README (a setting the user may change afterwards).
  const startup = newWorkspace ? { 'workbench.startupEditor': 'readme' } : {};
  // The product run keeps VS Code's AI features (the tests turn them off): agents find the extension's language model
  // tools and MCP servers there.
  writeUserSettings(dirs, {
    'chat.disableAIFeatures': false,
    ...current,
    ...startup,
    'universeExplorer.sandbox.autoStart': true,
  });

  console.log(`starting code-server on ${host}:${port} ...`);
  const server = await startCodeServer({ tools, dirs, host, port, smokeTestDriver: false });
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${why}: stopping code-server ...`);
    void server.stop().then(() => process.exit(0));
  };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => stop(sig));
  void server.exited.then((code) => {
    if (stopping) return;
    console.error(`code-server exited (code ${code}); log: ${path.join(dirs.root, 'code-server.log')}`);
    process.exit(1);
  });

  const url = `${server.url}?folder=${encodeURIComponent(dirs.workspace)}`;
  console.log('');
  console.log('Universe Explorer is running in VS Code (code-server). Open in a browser:');
  console.log(`  ${url}`);
  console.log('The "Universes" view in the activity bar shows the local sandbox; the README of the workspace says');
  console.log('what to try. Press Ctrl-C to stop.');
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
