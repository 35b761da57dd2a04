import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import vscode = require('vscode');
import { SANDBOX_ID, type Connection, type Connections } from '../core/connections';
import type { EmulatorOptions, RunningEmulator } from '../emulator/server';
import type { Log } from '../core/log';
import { settings } from '../core/settings';

export const demoUniverse = { id: 123456, name: 'Demo Universe' };

/**
 * The built-in sandbox: the emulator (the same bundle as dist/emulator.js, loaded on first use so activation
 * stays fast) running in the extension host on a free loopback port, its data in the extension's global storage.
 */
export class Sandbox implements vscode.Disposable {
  private running: RunningEmulator | undefined;
  private starting: Promise<Connection> | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly connections: Connections,
    private readonly log: Log,
  ) {}

  get url(): string | undefined {
    return this.running?.url;
  }

  get dataDir(): string {
    return path.join(this.context.globalStorageUri.fsPath, 'sandbox');
  }

  start(): Promise<Connection> {
    this.starting ??= this.launch().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  async stop(): Promise<void> {
    await this.starting?.catch(() => undefined); // a stop during a start stops what that start made
    const running = this.running;
    this.running = undefined;
    await this.connections.setSandbox(undefined);
    await vscode.commands.executeCommand('setContext', 'universeExplorer.sandboxRunning', false);
    if (running) {
      await running.close();
      this.log.info('Local Sandbox stopped');
    }
  }

  /** Stops the sandbox, wipes its data and starts it again with fresh demo data. */
  async reset(): Promise<Connection> {
    await this.stop();
    await fs.rm(this.dataDir, { recursive: true, force: true });
    return this.start();
  }

  dispose(): void {
    void this.running?.close();
  }

  private async launch(): Promise<Connection> {
    const existing = this.connections.get(SANDBOX_ID);
    if (this.running && existing) return existing;
    await fs.mkdir(this.dataDir, { recursive: true });
    const emulatorPath = path.join(this.context.extensionPath, 'dist', 'emulator.js');
    // The emulator's own bundle, loaded on first start so activation stays fast.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { startEmulator } = require(emulatorPath) as {
      startEmulator(options: EmulatorOptions): Promise<RunningEmulator>;
    };
    const apiKey = randomBytes(24).toString('base64url');
    this.running = await startEmulator({
      host: '127.0.0.1',
      port: 0,
      dataDir: this.dataDir,
      apiKeys: [{ key: apiKey }],
      seed: 'demo',
      operationDelayMs: settings().sandboxOperationDelayMs,
      log: (line) => this.log.info(`sandbox: ${line}`),
    });
    const connection: Connection = {
      id: SANDBOX_ID,
      name: 'Local Sandbox',
      baseUrl: this.running.url,
      entryHeaderPrefix: 'platform',
      universes: [demoUniverse],
      sandbox: true,
    };
    await this.connections.setSandbox(connection, apiKey);
    await vscode.commands.executeCommand('setContext', 'universeExplorer.sandboxRunning', true);
    this.log.info(`Local Sandbox listening on ${this.running.url}`);
    return connection;
  }
}
