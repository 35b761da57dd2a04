// The Local Sandbox: one emulator process per data folder (the extension's global storage), shared by every
// window. The first window that needs it starts dist/emulator.js as a process of its own (not on the extension
// host's thread); the others find it through the lock file the emulator keeps in the folder. Each window holds it
// with a file named after its process id; the emulator stops once no live window holds it. Its API key lives in
// the folder (readable by this user only), so every window, and a terminal, can use it.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs = require('node:fs');
import path = require('node:path');
import vscode = require('vscode');
import { SANDBOX_ID, type Connection, type Connections } from '../core/connections';
import { reason } from '../core/errors';
import type { StatusBar } from '../core/statusBar';
import type { Log } from '../core/log';
import { settings } from '../core/settings';
import { t } from '../core/text';
import { alive } from '../emulator/lock';
import { demoUniverse } from './demo';

const portKey = 'universeExplorer.sandbox.port';
/** How long a start may take before it is reported as failed. */
const START_TIMEOUT_MS = 30_000;

/** Where a running sandbox answers, and the key it takes. */
export interface SandboxAddress {
  url: string;
  apiKey: string;
}

interface Lock {
  pid: number;
  url?: string;
}

export class Sandbox implements vscode.Disposable {
  private address: SandboxAddress | undefined;
  private starting: Promise<Connection> | undefined;

  constructor(
    private readonly context: Pick<vscode.ExtensionContext, 'globalStorageUri' | 'extensionPath'>,
    /** globalState, through the SerialMemento every part of the extension writes it with (core/state.ts). */
    private readonly state: vscode.Memento,
    private readonly connections: Connections,
    private readonly log: Log,
    private readonly status: Pick<StatusBar, 'during'>,
  ) {}

  get dataDir(): string {
    return path.join(this.context.globalStorageUri.fsPath, 'sandbox');
  }

  /** The address and key of the running sandbox (undefined while it is not running for this window). */
  get running(): SandboxAddress | undefined {
    return this.address;
  }

  start(): Promise<Connection> {
    this.starting ??= this.status.during(t`Starting Local Sandbox`, this.launch()).finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** This window lets go of the sandbox; it stops once no window holds it. */
  async stop(): Promise<void> {
    await this.starting?.catch(() => undefined); // a stop during a start stops what that start made
    this.release();
    const was = this.address;
    this.address = undefined;
    await this.connections.setSandbox(undefined);
    await vscode.commands.executeCommand('setContext', 'universeExplorer.sandboxRunning', false);
    if (was) this.log.info('Local Sandbox: this window let go of it');
  }

  /** Wipes the sandbox's data and loads the demo data again, in every window that uses it. */
  async reset(): Promise<Connection> {
    const connection = await this.start();
    const res = await fetch(`${connection.baseUrl}/_emulator/reset`, { method: 'POST' });
    if (!res.ok) throw new Error(t`the sandbox answered ${res.status} to the reset`);
    await this.connections.setSandbox({ ...connection }, this.address?.apiKey);
    return connection;
  }

  dispose(): void {
    this.release();
  }

  private get holderFile(): string {
    return path.join(this.dataDir, 'holders', String(process.pid));
  }

  private hold(): void {
    fs.mkdirSync(path.dirname(this.holderFile), { recursive: true });
    fs.writeFileSync(this.holderFile, '');
  }

  private release(): void {
    fs.rmSync(this.holderFile, { force: true });
  }

  private async launch(): Promise<Connection> {
    const existing = this.connections.get(SANDBOX_ID);
    if (this.address && existing) return existing;
    fs.mkdirSync(this.dataDir, { recursive: true });
    this.hold();
    try {
      const apiKey = this.apiKey();
      const url = this.runningUrl() ?? (await this.spawnEmulator());
      this.address = { url, apiKey };
      const connection: Connection = {
        id: SANDBOX_ID,
        name: t`Local Sandbox`,
        baseUrl: url,
        entryHeaderPrefix: 'platform',
        universes: [demoUniverse],
        datastoresApi: 'v2',
        sandbox: true,
        details: [t`Address: ${url}`, t`API key: ${apiKey}`, t`Data: ${this.dataDir}`].join('\n'),
      };
      await this.connections.setSandbox(connection, apiKey);
      await vscode.commands.executeCommand('setContext', 'universeExplorer.sandboxRunning', true);
      this.log.info(`Local Sandbox at ${url}`);
      return connection;
    } catch (error) {
      this.release();
      throw error;
    }
  }

  private get keysFile(): string {
    return path.join(this.dataDir, 'keys.json');
  }

  /**
   * The key every window and the emulator share (its --config file): made once by whichever window comes first,
   * kept in the data folder, readable by this user only.
   */
  private apiKey(): string {
    const keys = { apiKeys: [{ key: randomBytes(24).toString('base64url') }] };
    try {
      fs.writeFileSync(this.keysFile, JSON.stringify(keys), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const saved = JSON.parse(fs.readFileSync(this.keysFile, 'utf8')) as typeof keys;
    return saved.apiKeys[0].key;
  }

  /** The address of the emulator that holds the data folder, when one runs and is ready. */
  private runningUrl(): string | undefined {
    let lock: Lock;
    try {
      lock = JSON.parse(fs.readFileSync(path.join(this.dataDir, 'emulator.lock'), 'utf8')) as Lock;
    } catch {
      return undefined;
    }
    return lock.url && alive(lock.pid) ? lock.url : undefined;
  }

  /**
   * Starts the emulator as a process of its own, on the port it had last time when that one is free. Another window
   * may win the race for the folder: its emulator is then used.
   */
  private async spawnEmulator(): Promise<string> {
    const preferred = this.state.get<number>(portKey);
    let url: string;
    try {
      url = await this.runEmulator(preferred ?? 0);
    } catch (error) {
      if (!preferred) throw error;
      this.log.warn(`Local Sandbox: port ${preferred} could not be used (${reason(error)}); taking a free one`);
      url = await this.runEmulator(0);
    }
    await this.state.update(portKey, Number(new URL(url).port));
    return url;
  }

  private runEmulator(port: number): Promise<string> {
    const logFile = path.join(this.dataDir, 'emulator.log');
    const out = fs.openSync(logFile, 'a');
    const args = [
      path.join(this.context.extensionPath, 'dist', 'emulator.js'),
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--data',
      this.dataDir,
      '--config',
      this.keysFile,
      '--seed',
      'demo',
      '--operation-delay',
      String(settings().sandboxOperationDelayMs),
      '--control',
      '--exit-unheld',
    ];
    // The extension host's own runtime: Node in VS Code Server, Electron (run as Node) in desktop VS Code.
    const child = spawn(process.execPath, args, {
      detached: true,
      stdio: ['ignore', out, out],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    fs.closeSync(out);
    child.unref();
    return new Promise<string>((resolve, reject) => {
      const started = Date.now();
      let exited: number | null | undefined;
      child.once('exit', (code) => (exited = code));
      child.once('error', reject);
      const poll = setInterval(() => {
        const url = this.runningUrl();
        const mine = exited === undefined;
        if (url) {
          clearInterval(poll);
          resolve(url);
        } else if (!mine && exited !== 3) {
          clearInterval(poll);
          reject(new Error(t`the emulator stopped at start (exit code ${exited}): ${lastLine(logFile)}`));
        } else if (Date.now() - started > START_TIMEOUT_MS) {
          clearInterval(poll);
          reject(new Error(t`the emulator did not start within ${START_TIMEOUT_MS / 1000} s; see ${logFile}`));
        }
      }, 100);
    });
  }
}

function lastLine(file: string): string {
  try {
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    return lines[lines.length - 1] ?? '';
  } catch {
    return '';
  }
}
