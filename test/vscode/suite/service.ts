// One suite's service: an emulator over real HTTP, a client of it to arrange and check data, and the extension's
// connection to it, with a temporary folder for files. close() removes all of it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OpenApiClient } from '../../../src/api';
import type { Connection } from '../../../src/core/connections';
import type { TestContext } from '../../../src/extension';
import type { EmulatorOptions } from '../../../src/emulator/server';
import { TestEmulator } from '../../unit/support/emulator';

export class SuiteService {
  readonly connections: Connection[] = [];
  private folder: string | undefined;

  private constructor(
    readonly emulator: TestEmulator,
    readonly client: OpenApiClient,
    private readonly key: string,
  ) {}

  /** An emulator that accepts `key` (and any other key `options` name). */
  static async start(key: string, options: EmulatorOptions = {}): Promise<SuiteService> {
    const emulator = await TestEmulator.start({ apiKeys: [{ key }], ...options });
    return new SuiteService(emulator, new OpenApiClient({ baseUrl: emulator.url, apiKey: key }), key);
  }

  /** Adds the extension's connection to this emulator with the suite's key (v1 data stores unless `api` says). */
  async connect(
    ctx: TestContext,
    name: string,
    universes: { id: number; name?: string }[],
    api?: 'v1' | 'v2',
  ): Promise<Connection> {
    const connection = await ctx.connections.add(
      { name, baseUrl: this.emulator.url, entryHeaderPrefix: 'platform', universes, datastoresApi: api },
      this.key,
    );
    this.connections.push(connection);
    return connection;
  }

  /** A temporary folder, made on first use. */
  get dir(): string {
    this.folder ??= fs.mkdtempSync(path.join(os.tmpdir(), 'ue-suite-'));
    return this.folder;
  }

  async close(ctx: TestContext): Promise<void> {
    for (const c of this.connections) await ctx.connections.remove(c.id);
    await this.client.close();
    await this.emulator.close();
    if (this.folder) fs.rmSync(this.folder, { recursive: true, force: true });
  }
}
