// The data stores model: what the views show of stores and entries (the list filters, the entries open as
// documents and the version each is based on), every write through the client, and the events views follow.
import vscode = require('vscode');
import {
  exportDataStore,
  importDataStore,
  type BulkOptions,
  type DataStore,
  type Entry,
  type EntryKey,
  type EntryVersion,
  type ExportCounts,
  type ExportResult,
  type ImportCounts,
  type ImportMode,
  type ImportResult,
  type OpenApiClient,
  type Page,
} from '../api';
import type { Connections } from '../core/connections';
import { settings } from '../core/settings';
import { entryRequest, type EntryAddress } from './entryPath';
import { formatJson } from './json';

/** The scope filter that lists every scope. */
export const allScopes = '*';

export interface UniverseRef {
  connectionId: string;
  universeId: number;
}

export interface StoreRef extends UniverseRef {
  datastoreName: string;
}

/** Which keys of a store the tree lists: one scope (or allScopes) and a key prefix. */
export interface StoreFilter {
  scope: string;
  prefix: string;
}

/** An entry open as a document: the version its text is based on, and what a save must resend. */
export interface OpenEntry {
  version: string;
  attributes: Record<string, unknown>;
  userIds: number[];
  ctime: number;
  mtime: number;
  /** The document's text: the value pretty-printed (or as it is, when it is not JSON). */
  text: Uint8Array;
  /** The value's compact JSON, to tell whether a save changes anything. */
  compact: string;
}

/** An entry written by this extension (`version` absent: deleted). */
export interface EntryChange {
  address: EntryAddress;
  version?: string;
}

const universeKey = (u: UniverseRef) => `${u.connectionId}/${u.universeId}`;
const storeKey = (s: StoreRef) => `${universeKey(s)}/${encodeURIComponent(s.datastoreName)}`;
const entryKey = (a: EntryAddress) => `${storeKey(a)}/${encodeURIComponent(a.scope)}/${encodeURIComponent(a.key)}`;

export function sameStore(a: StoreRef, b: StoreRef): boolean {
  return storeKey(a) === storeKey(b);
}

export function sameEntry(a: EntryAddress, b: EntryAddress): boolean {
  return entryKey(a) === entryKey(b);
}

const encoder = new TextEncoder();

/** How an entry read from the service shows as a document. */
export function toOpenEntry(entry: Entry): OpenEntry {
  const compact = entry.raw.toString('utf8');
  let text: string;
  try {
    text = formatJson(compact) + '\n';
  } catch {
    text = compact; // The service holds something that is not JSON: show it as it is.
  }
  const mtime = Date.parse(entry.versionCreatedTime ?? '') || 0;
  return {
    version: entry.version,
    attributes: entry.attributes,
    userIds: entry.userIds,
    ctime: Date.parse(entry.createdTime ?? '') || mtime,
    mtime,
    text: encoder.encode(text),
    compact,
  };
}

export class DataStoresModel implements vscode.Disposable {
  private readonly storesChanged = new vscode.EventEmitter<UniverseRef>();
  /** The store list of a universe, or its filter, changed. */
  readonly onDidChangeStores = this.storesChanged.event;
  private readonly storeChanged = new vscode.EventEmitter<StoreRef>();
  /** The keys of a store, or its filter, changed. */
  readonly onDidChangeStore = this.storeChanged.event;
  private readonly entryChanged = new vscode.EventEmitter<EntryChange>();
  /** An entry was written or deleted by this extension. */
  readonly onDidChangeEntry = this.entryChanged.event;

  private readonly storePrefixes = new Map<string, string>();
  private readonly filters = new Map<string, StoreFilter>();
  private readonly open = new Map<string, OpenEntry>();

  constructor(private readonly connections: Connections) {}

  // What the tree lists.

  storesPrefix(u: UniverseRef): string {
    return this.storePrefixes.get(universeKey(u)) ?? '';
  }

  setStoresPrefix(u: UniverseRef, prefix: string): void {
    this.storePrefixes.set(universeKey(u), prefix);
    this.storesChanged.fire(u);
  }

  filter(store: StoreRef): StoreFilter {
    return this.filters.get(storeKey(store)) ?? { scope: 'global', prefix: '' };
  }

  setFilter(store: StoreRef, change: Partial<StoreFilter>): void {
    this.filters.set(storeKey(store), { ...this.filter(store), ...change });
    this.storeChanged.fire(store);
  }

  async listStores(u: UniverseRef, cursor: string | undefined, signal: AbortSignal): Promise<Page<DataStore>> {
    const client = await this.client(u);
    const prefix = this.storesPrefix(u);
    return client.datastores.listDataStores(
      { universeId: u.universeId, prefix: prefix || undefined, limit: settings().pageSize, cursor },
      { signal },
    );
  }

  /** A page of keys under the store's filter. */
  async listKeys(store: StoreRef, cursor: string | undefined, signal: AbortSignal): Promise<Page<EntryKey>> {
    const client = await this.client(store);
    const { scope, prefix } = this.filter(store);
    const all = scope === allScopes;
    return client.datastores.listEntries(
      {
        universeId: store.universeId,
        datastoreName: store.datastoreName,
        scope: all ? undefined : scope,
        allScopes: all || undefined,
        prefix: prefix || undefined,
        limit: settings().pageSize,
        cursor,
      },
      { signal },
    );
  }

  /** Newest first. */
  async listVersions(a: EntryAddress, cursor: string | undefined, signal: AbortSignal): Promise<Page<EntryVersion>> {
    const client = await this.client(a);
    return client.datastores.listEntryVersions(
      { ...entryRequest(a), sortOrder: 'Descending', limit: settings().pageSize, cursor },
      { signal },
    );
  }

  // Reads.

  /** Without a signal, the read ends when the connection does (edited, removed, stopped). */
  async read(a: EntryAddress, signal = this.connections.signal(a.connectionId)): Promise<Entry> {
    return (await this.client(a)).datastores.getEntry(entryRequest(a), { signal });
  }

  async readVersion(
    a: EntryAddress,
    versionId: string,
    signal = this.connections.signal(a.connectionId),
  ): Promise<Entry> {
    return (await this.client(a)).datastores.getEntryVersion({ ...entryRequest(a), versionId }, { signal });
  }

  // Entries open as documents.

  /** What the open document of the entry is based on, if one was loaded. */
  document(a: EntryAddress): OpenEntry | undefined {
    return this.open.get(entryKey(a));
  }

  /** Reads the entry for its document; the document is now based on the version read. */
  async load(a: EntryAddress, signal?: AbortSignal): Promise<OpenEntry> {
    return this.based(a, toOpenEntry(await this.read(a, signal)));
  }

  /** Records what the document of the entry is now based on. */
  based(a: EntryAddress, entry: OpenEntry): OpenEntry {
    this.open.set(entryKey(a), entry);
    return entry;
  }

  /**
   * Writes a document's value, conditioned on `base` (its version, or "must not exist" without one), resending the
   * attributes and user ids the base had. The document is then based on the version written.
   */
  async saveDocument(
    a: EntryAddress,
    text: Uint8Array,
    compact: string,
    base: OpenEntry | undefined,
  ): Promise<EntryVersion> {
    const client = await this.client(a);
    const written = await client.datastores.setEntry(
      {
        ...entryRequest(a),
        raw: compact,
        matchVersion: base?.version,
        exclusiveCreate: base ? undefined : true,
        attributes: base?.attributes,
        userIds: base?.userIds,
      },
      { signal: this.connections.signal(a.connectionId) },
    );
    const mtime = Date.parse(written.createdTime) || Date.now();
    this.based(a, {
      version: written.version,
      attributes: base?.attributes ?? {},
      userIds: base?.userIds ?? [],
      ctime: base?.ctime ?? mtime,
      mtime,
      text,
      compact,
    });
    this.entryChanged.fire({ address: a, version: written.version });
    return written;
  }

  // Writes from commands.

  /** Creates the entry; a key that exists is a PreconditionFailedError and stays as it is. */
  async create(a: EntryAddress, compact: string, signal: AbortSignal): Promise<EntryVersion> {
    const client = await this.client(a);
    const written = await client.datastores.setEntry(
      { ...entryRequest(a), raw: compact, exclusiveCreate: true },
      { signal },
    );
    this.storeChanged.fire(a);
    this.entryChanged.fire({ address: a, version: written.version });
    return written;
  }

  async delete(a: EntryAddress, signal: AbortSignal): Promise<void> {
    await (await this.client(a)).datastores.deleteEntry(entryRequest(a), { signal });
    this.storeChanged.fire(a);
    this.entryChanged.fire({ address: a });
  }

  /** Adds to a number; the attributes and user ids are resent (increment clears those not sent). */
  async increment(a: EntryAddress, by: number, signal: AbortSignal): Promise<Entry> {
    const client = await this.client(a);
    const current = await client.datastores.getEntry(entryRequest(a), { signal });
    const result = await client.datastores.incrementEntry(
      { ...entryRequest(a), incrementBy: by, attributes: current.attributes, userIds: current.userIds },
      { signal },
    );
    this.entryChanged.fire({ address: a, version: result.version });
    return result;
  }

  /** Replaces attributes and user ids of the version read as `current`, keeping its value. */
  async setMetadata(
    a: EntryAddress,
    current: Entry,
    metadata: { attributes: Record<string, unknown>; userIds: number[] },
    signal: AbortSignal,
  ): Promise<EntryVersion> {
    const client = await this.client(a);
    const written = await client.datastores.setEntry(
      { ...entryRequest(a), raw: current.raw, matchVersion: current.version, ...metadata },
      { signal },
    );
    this.entryChanged.fire({ address: a, version: written.version });
    return written;
  }

  /**
   * Writes an old version's value, attributes and user ids as a new version, conditioned on the current one: a
   * change made meanwhile is reported, not overwritten. A deleted entry is re-created.
   */
  async restore(a: EntryAddress, versionId: string, signal: AbortSignal): Promise<EntryVersion> {
    const client = await this.client(a);
    const old = await client.datastores.getEntryVersion({ ...entryRequest(a), versionId }, { signal });
    const current = await client.datastores.getEntry(entryRequest(a), { signal }).catch(() => undefined);
    const written = await client.datastores.setEntry(
      {
        ...entryRequest(a),
        raw: old.raw,
        attributes: old.attributes,
        userIds: old.userIds,
        ...(current ? { matchVersion: current.version } : { exclusiveCreate: true }),
      },
      { signal },
    );
    this.entryChanged.fire({ address: a, version: written.version });
    return written;
  }

  // Backups.

  /** Writes the store's keys under its scope filter to an NDJSON file (resuming one that holds entries). */
  async export(store: StoreRef, file: string, resume: boolean, opts: BulkOptions<ExportCounts>): Promise<ExportResult> {
    const client = await this.client(store);
    const { scope } = this.filter(store);
    const all = scope === allScopes;
    return exportDataStore(
      client,
      {
        universeId: store.universeId,
        datastoreName: store.datastoreName,
        scope: all ? undefined : scope,
        allScopes: all,
        file,
        resume,
      },
      opts,
    );
  }

  async import(
    store: StoreRef,
    file: string,
    mode: ImportMode,
    opts: BulkOptions<ImportCounts>,
  ): Promise<ImportResult> {
    const client = await this.client(store);
    try {
      return await importDataStore(
        client,
        { universeId: store.universeId, datastoreName: store.datastoreName, file, mode },
        opts,
      );
    } finally {
      this.storeChanged.fire(store);
    }
  }

  dispose(): void {
    this.storesChanged.dispose();
    this.storeChanged.dispose();
    this.entryChanged.dispose();
  }

  private client(u: UniverseRef): Promise<OpenApiClient> {
    return this.connections.client(u.connectionId);
  }
}
