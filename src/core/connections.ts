import vscode = require('vscode');
import { OpenApiClient, type RateLimit, type WriteTarget } from '../api';
import type { Log } from './log';
import { settings } from './settings';
import { t } from './text';
import { isReadOnly, readOnlyReason, useUniverses, type Role, type UniverseAddress } from './universe';

/**
 * A universe as a connection lists it: its id, the name the user gave it, its role (absent: development) and
 * whether the user marked it read-only. Connections saved before roles load as development and writable.
 */
export interface ListedUniverse {
  id: number;
  name?: string;
  role?: Role;
  readOnly?: boolean;
}

export interface Connection {
  id: string;
  name: string;
  baseUrl: string;
  entryHeaderPrefix: string;
  universes: ListedUniverse[];
  /**
   * The data stores API it speaks: cloud v2 (the service's stable one: snapshots, store delete and undelete, reads
   * at a time in one request) or v1 (legacy). Absent: v1, as connections made before v2 was offered.
   */
  datastoresApi?: 'v1' | 'v2';
  /** The built-in sandbox: not persisted, shown while it runs. */
  sandbox?: boolean;
  /** More lines for the tooltip (the sandbox's address and key). */
  details?: string;
}

/** The id of the built-in sandbox's connection, which exists while the sandbox runs. */
export const SANDBOX_ID = 'sandbox';

const stateKey = 'universeExplorer.connections';
const secretKey = (id: string) => `universeExplorer.apiKey.${id}`;

/**
 * Connections live in globalState, through the SerialMemento every part of the extension writes it with (a write of
 * another part could drop a connection otherwise: core/state.ts); their API keys only in SecretStorage.
 */
export class Connections implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly removed = new vscode.EventEmitter<string>();
  /** A saved connection was removed (its id). */
  readonly onDidRemove = this.removed.event;
  private readonly clients = new Map<string, OpenApiClient>();
  private readonly lifetimes = new Map<string, AbortController>();
  private readonly starters = new Map<string, () => Promise<unknown>>();
  private sandbox: Connection | undefined;

  constructor(
    private readonly context: Pick<vscode.ExtensionContext, 'secrets'>,
    private readonly state: vscode.Memento,
    private readonly log: Log,
  ) {
    useUniverses({
      facts: (u) => {
        const connection = this.get(u.connectionId);
        const universe = connection?.universes.find((x) => x.id === u.universeId);
        if (!connection || !universe) return undefined;
        return { ...universe, connectionName: connection.name, sandbox: connection.sandbox };
      },
      listing: (universeId) =>
        this.list()
          .filter((c) => c.universes.some((u) => u.id === universeId))
          .map((c) => ({ connectionId: c.id, universeId })),
    });
  }

  list(): Connection[] {
    const saved = this.state.get<Connection[]>(stateKey, []);
    return this.sandbox ? [this.sandbox, ...saved] : saved;
  }

  get(id: string): Connection | undefined {
    return this.list().find((c) => c.id === id);
  }

  async add(connection: Omit<Connection, 'id'>, apiKey: string): Promise<Connection> {
    const saved: Connection = {
      ...connection,
      id: `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
    };
    await this.context.secrets.store(secretKey(saved.id), apiKey);
    await this.save([...this.persisted(), saved]);
    return saved;
  }

  /** Replaces a saved connection's settings; a new API key replaces the stored one. */
  async update(connection: Connection, apiKey?: string): Promise<void> {
    if (connection.sandbox) throw new Error(t`The Local Sandbox connection is managed by the extension.`);
    if (apiKey !== undefined) await this.context.secrets.store(secretKey(connection.id), apiKey);
    this.dropClient(connection.id);
    await this.save(this.persisted().map((c) => (c.id === connection.id ? connection : c)));
  }

  /** Sets a saved connection's universe's role. The Local Sandbox's universes are development and stay so. */
  async setRole(u: UniverseAddress, role: Role): Promise<void> {
    await this.changeUniverse(u, (x) => ({ ...x, role: role === 'development' ? undefined : role }));
  }

  /** Marks a saved connection's universe read-only, or lifts the mark (the setting's read-only list stays). */
  async setReadOnly(u: UniverseAddress, readOnly: boolean): Promise<void> {
    await this.changeUniverse(u, (x) => ({ ...x, readOnly: readOnly || undefined }));
  }

  private async changeUniverse(u: UniverseAddress, change: (x: ListedUniverse) => ListedUniverse): Promise<void> {
    const connection = this.persisted().find((c) => c.id === u.connectionId);
    if (!connection) {
      throw new Error(
        u.connectionId === SANDBOX_ID
          ? t`the Local Sandbox's universes are always development and writable`
          : t`The connection no longer exists.`,
      );
    }
    if (!connection.universes.some((x) => x.id === u.universeId)) {
      throw new Error(t`universe ${u.universeId} is no longer listed in "${connection.name}"`);
    }
    const universes = connection.universes.map((x) => (x.id === u.universeId ? change(x) : x));
    await this.save(this.persisted().map((c) => (c.id === connection.id ? { ...connection, universes } : c)));
  }

  async remove(id: string): Promise<void> {
    this.dropClient(id);
    await this.context.secrets.delete(secretKey(id));
    await this.save(this.persisted().filter((c) => c.id !== id));
    this.removed.fire(id);
  }

  async setSandbox(connection: Connection | undefined, apiKey?: string): Promise<void> {
    // Reads waiting for a sandbox that is starting go on with it; those of one that stops or is replaced end.
    this.dropClient(SANDBOX_ID, this.sandbox !== undefined);
    if (connection && apiKey) await this.context.secrets.store(secretKey(connection.id), apiKey);
    this.sandbox = connection;
    this.changed.fire();
  }

  /**
   * A connection that exists while something runs (the Local Sandbox) and may be started when it is asked for: a tab
   * of it restored after a window reload then opens. `start` undefined: it is not started that way any more.
   */
  startOnDemand(id: string, start: (() => Promise<unknown>) | undefined): void {
    if (start) this.starters.set(id, start);
    else this.starters.delete(id);
  }

  /** A client for the connection, created on first use with the key from SecretStorage. */
  async client(id: string): Promise<OpenApiClient> {
    const cached = this.clients.get(id);
    if (cached) return cached;
    const start = this.starters.get(id);
    if (!this.get(id) && start) await start();
    const connection = this.get(id);
    if (!connection) {
      throw new Error(
        id === SANDBOX_ID
          ? t`The Local Sandbox is not running. Start it, then try again.`
          : t`The connection no longer exists.`,
      );
    }
    const apiKey = await this.context.secrets.get(secretKey(id));
    if (!apiKey) throw new Error(t`No API key is stored for "${connection.name}". Edit the connection to set one.`);
    this.log.hideKey(apiKey);
    const client = new OpenApiClient({
      baseUrl: connection.baseUrl,
      apiKey,
      entryHeaderPrefix: connection.entryHeaderPrefix,
      timeoutMs: settings().requestTimeoutSeconds * 1000,
      // Read when each write is about to be sent, so a mark made after the client was created holds at once.
      writeGuard: (target) => this.writeRefusal(id, target),
      log: (e) =>
        this.log.info(
          `${connection.name}: ${e.method} ${e.path} ${e.status ?? e.error ?? ''} ${Math.round(e.ms)}ms` +
            (e.attempt > 1 ? ` (attempt ${e.attempt})` : ''),
        ),
    });
    this.clients.set(id, client);
    return client;
  }

  /** The connection's API key, for a process started for it (the MCP server's environment); never shown. */
  async apiKey(id: string): Promise<string | undefined> {
    return this.context.secrets.get(secretKey(id));
  }

  /**
   * Why the client may not send a write: its universe is read-only. Assets are the connection's, shared by all its
   * universes, so an asset write is refused while any of them is read-only.
   */
  private writeRefusal(connectionId: string, target: WriteTarget): string | undefined {
    if ('universeId' in target) return readOnlyReason({ connectionId, universeId: target.universeId });
    const connection = this.get(connectionId);
    const locked = connection?.universes.find((u) => isReadOnly({ connectionId, universeId: u.id }));
    if (!connection || !locked) return undefined;
    const why = readOnlyReason({ connectionId, universeId: locked.id }) ?? '';
    return t`assets are shared by every universe of "${connection.name}", and ${why}`;
  }

  /** The x-ratelimit-* figures the connection's client last read, if it has made one. */
  rateLimit(id: string): RateLimit | undefined {
    return this.clients.get(id)?.rateLimit;
  }

  /**
   * Aborted when the connection's client is dropped (the connection edited or removed, the sandbox stopped, the
   * extension deactivated): for reads that no user action can cancel, such as the file system's.
   */
  signal(id: string): AbortSignal {
    let controller = this.lifetimes.get(id);
    if (!controller) this.lifetimes.set(id, (controller = new AbortController()));
    return controller.signal;
  }

  dispose(): void {
    for (const id of new Set([...this.clients.keys(), ...this.lifetimes.keys()])) this.dropClient(id);
    this.changed.dispose();
    this.removed.dispose();
  }

  private persisted(): Connection[] {
    return this.state.get<Connection[]>(stateKey, []);
  }

  private async save(connections: Connection[]): Promise<void> {
    await this.state.update(stateKey, connections);
    this.changed.fire();
  }

  private dropClient(id: string, endReads = true): void {
    const client = this.clients.get(id);
    this.clients.delete(id);
    if (endReads) {
      this.lifetimes.get(id)?.abort();
      this.lifetimes.delete(id);
    }
    void client?.close();
  }
}
