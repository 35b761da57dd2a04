// The data stores model: what the views show of stores and entries (the list filters, which keys are deleted), every
// read and write through the client, and the events views follow. Open documents are the editor room's (editor/).
import vscode = require('vscode');
import {
  NotFoundError,
  notFoundAs,
  PreconditionFailedError,
  entryService,
  type ApiVersion,
  type DataStoreSummary,
  type Entry,
  type EntryService,
  type EntryKey,
  type EntryVersion,
  type OpenApiClient,
  type Page,
  type Snapshot,
} from '../api';
import type { Connections } from '../core/connections';
import { settings } from '../core/settings';
import { assertWritable, type UniverseAddress } from '../core/universe';
import { entryRequest, type EntryAddress } from './editor/entryPath';
import { toEntryState, type Base, type EntryState } from './editor/openEntries';
import { seenOf, type EntryChange, type EntrySeen, type SeenValue } from './changes';
import { KeyStates, valueKindOf, type KeyState, type ValueKind } from './keyStates';
import { SnapshotTimes } from './snapshots';
import { ListState, storeKeys, type StoreRef } from './listState';

export class DataStoresModel implements vscode.Disposable {
  private readonly storesChanged = new vscode.EventEmitter<UniverseAddress>();
  /** The store list of a universe, or its filter, changed. */
  readonly onDidChangeStores = this.storesChanged.event;
  private readonly storeChanged = new vscode.EventEmitter<StoreRef>();
  /** The keys of a store, or its filter, changed. */
  readonly onDidChangeStore = this.storeChanged.event;
  private readonly entryChanged = new vscode.EventEmitter<EntryChange>();
  /** An entry was written or deleted by this extension. */
  readonly onDidChangeEntry = this.entryChanged.event;
  private readonly keyStateChanged = new vscode.EventEmitter<EntryAddress>();
  /** What is known of a key (live or deleted) changed. */
  readonly onDidChangeKeyState = this.keyStateChanged.event;
  private readonly entrySeen = new vscode.EventEmitter<EntrySeen>();
  /** An entry was read or written (its value and metadata), or found deleted, by this extension. */
  readonly onDidSeeEntry = this.entrySeen.event;
  private readonly bulkWritten = new vscode.EventEmitter<StoreRef>();
  /** A bulk run (restore, undo, copy, import) wrote keys of a store, not told one by one; or it was (un)deleted. */
  readonly onDidWriteInBulk = this.bulkWritten.event;

  /** What the tree lists (store prefixes, filters, deleted stores and keys shown); a change fires the events. */
  readonly lists = new ListState(
    (u) => this.storesChanged.fire(u),
    (store) => this.storeChanged.fire(store),
  );
  private readonly keyStates = new KeyStates((a) => this.keyStateChanged.fire(a));

  private readonly snapshots: SnapshotTimes;

  /** `globalState` (written one update at a time: core/state.ts) keeps the time of each universe's last snapshot. */
  constructor(
    private readonly connections: Connections,
    globalState: vscode.Memento,
  ) {
    this.snapshots = new SnapshotTimes(globalState);
  }

  // What the tree lists.

  /** The stores under the universe's prefix, with their state; deleted ones only while they are shown. */
  async listStores(
    u: UniverseAddress,
    cursor: string | undefined,
    signal: AbortSignal,
  ): Promise<Page<DataStoreSummary>> {
    return this.lists.storesPage(await this.service(u), u, cursor, signal);
  }

  /** The data stores API the universe's connection speaks. */
  apiVersion(u: UniverseAddress): ApiVersion {
    return this.connections.get(u.connectionId)?.datastoresApi ?? 'v1';
  }

  /** When the universe's last snapshot was taken, as far as this machine has seen (ISO); undefined if never. */
  lastSnapshot(u: UniverseAddress): string | undefined {
    return this.snapshots.last(u);
  }

  /** Takes a snapshot (at most one a UTC day: a later call answers the earlier one) and remembers its time. */
  async snapshot(u: UniverseAddress, signal: AbortSignal): Promise<Snapshot> {
    const taken = await (await this.service(u)).snapshot(u.universeId, { signal });
    await this.snapshots.remember(u, taken.latestSnapshotTime);
    this.storesChanged.fire(u);
    return taken;
  }

  /** Deletes the store (cloud v2): its entries are unreachable, and it can be undeleted for 30 days. */
  async deleteStore(store: StoreRef, signal: AbortSignal): Promise<DataStoreSummary> {
    assertWritable(store);
    const deleted = await (await this.service(store)).deleteStore(store.universeId, store.datastoreName, { signal });
    this.storesChanged.fire(store);
    this.bulkWritten.fire(store);
    return deleted;
  }

  async undeleteStore(store: StoreRef, signal: AbortSignal): Promise<DataStoreSummary> {
    assertWritable(store);
    const service = await this.service(store);
    const undeleted = await service.undeleteStore(store.universeId, store.datastoreName, { signal });
    this.storesChanged.fire(store);
    this.bulkWritten.fire(store);
    return undeleted;
  }

  /**
   * A page of keys under the store's filter (cloud v2: deleted keys only while they are shown); its keys are then
   * checked for deletion: on a first page (the store listed afresh, e.g. by Refresh) every key, as another writer may
   * have deleted or re-created one since; on a later page those not known yet.
   */
  async listKeys(store: StoreRef, cursor: string | undefined, signal: AbortSignal): Promise<Page<EntryKey>> {
    const client = await this.client(store);
    const page = await this.keysPage(store, cursor, this.lists.deletedEntriesShown(store), signal);
    const listed = page.items.map((k) => ({ ...store, scope: k.scope, key: k.key }));
    const probed = cursor === undefined ? listed : listed.filter((a) => !this.keyStates.get(a));
    void this.keyStates.probe(client, probed, signal);
    return page;
  }

  /** The store's keys under its filter, deleted ones included (the time machine restores them), at most `limit`. */
  async keyList(store: StoreRef, limit: number, signal: AbortSignal): Promise<EntryKey[]> {
    return this.lists.keyList(await this.service(store), store, limit, signal);
  }

  /** Newest first. The newest version tells whether the key is deleted. */
  async listVersions(a: EntryAddress, cursor: string | undefined, signal: AbortSignal): Promise<Page<EntryVersion>> {
    const client = await this.client(a);
    const page = await client.datastores.listEntryVersions(
      { ...entryRequest(a), sortOrder: 'Descending', limit: settings().pageSize, cursor },
      { signal },
    );
    if (!cursor && page.items[0]) this.keyStates.set(a, page.items[0].deleted ? 'deleted' : 'live');
    return page;
  }

  /** Live or deleted, as far as is known (undefined: not checked yet). */
  keyState(a: EntryAddress): KeyState | undefined {
    return this.keyStates.get(a);
  }

  /** Whether the key's value is a number, as far as is known from its last read or write (undefined: not known). */
  valueKind(a: EntryAddress): ValueKind | undefined {
    return this.keyStates.kind(a);
  }

  // Reads.

  /** Without a signal, the read ends when the connection does (edited, removed, stopped). */
  async read(a: EntryAddress, signal = this.connections.signal(a.connectionId)): Promise<Entry> {
    try {
      const entry = await (await this.client(a)).datastores.getEntry(entryRequest(a), { signal });
      this.keyStates.set(a, 'live');
      this.keyStates.setKind(a, entry.json ? valueKindOf(entry.raw) : 'other');
      this.entrySeen.fire({ address: a, entry });
      return entry;
    } catch (error) {
      if (error instanceof NotFoundError) {
        this.keyStates.set(a, 'deleted');
        this.entrySeen.fire({ address: a, entry: 'deleted' });
      }
      throw error;
    }
  }

  async readVersion(
    a: EntryAddress,
    versionId: string,
    signal = this.connections.signal(a.connectionId),
  ): Promise<Entry> {
    return (await this.client(a)).datastores.getEntryVersion({ ...entryRequest(a), versionId }, { signal });
  }

  /**
   * The entry as it is now: its value, or for a deleted key its last value (marked deleted). A key that never held
   * a value is a NotFoundError.
   */
  async current(a: EntryAddress, signal = this.connections.signal(a.connectionId)): Promise<EntryState> {
    try {
      return toEntryState(await this.read(a, signal));
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      const last = await this.lastLiveVersion(a, signal);
      if (!last) throw error;
      return toEntryState(await this.readVersion(a, last.version, signal), true);
    }
  }

  /** The id of the entry's newest version (deleted or not); a cheap check for a newer one. */
  async newestVersion(
    a: EntryAddress,
    signal = this.connections.signal(a.connectionId),
  ): Promise<EntryVersion | undefined> {
    const client = await this.client(a);
    const page = await client.datastores.listEntryVersions(
      { ...entryRequest(a), sortOrder: 'Descending', limit: 1 },
      { signal },
    );
    return page.items[0];
  }

  /** The newest version that is not a deletion; undefined when none is left (versions are kept 30 days). */
  async lastLiveVersion(a: EntryAddress, signal: AbortSignal): Promise<EntryVersion | undefined> {
    const client = await this.client(a);
    for await (const v of client.datastores.listEntryVersions(
      { ...entryRequest(a), sortOrder: 'Descending' },
      { signal },
    )) {
      if (!v.deleted) return v;
    }
    return undefined;
  }

  /** The entry as it was at `time` (cloud v2: one request; v1: two); undefined when it had no value then. */
  async entryAt(a: EntryAddress, time: Date, signal: AbortSignal): Promise<Entry | undefined> {
    return (await this.service(a)).entryAt(a, time, { signal });
  }

  // Writes.

  /**
   * Writes a document's value, conditioned on its base (the version it was edited from, or "must not exist" when
   * there is none) and resending the base's attributes and user ids. A change made meanwhile is a
   * PreconditionFailedError (or NotFoundError), and nothing is written.
   */
  async writeDocument(
    a: EntryAddress,
    compact: string,
    base: Base | undefined,
    signal?: AbortSignal,
  ): Promise<EntryVersion> {
    assertWritable(a);
    const client = await this.client(a);
    const live = base && !base.deleted ? base : undefined;
    const written = await client.datastores.setEntry(
      {
        ...entryRequest(a),
        raw: compact,
        ...(live ? { matchVersion: live.version } : { exclusiveCreate: true }),
        attributes: base?.attributes,
        userIds: base?.userIds,
      },
      {
        signal: signal
          ? AbortSignal.any([signal, this.connections.signal(a.connectionId)])
          : this.connections.signal(a.connectionId),
      },
    );
    this.written(a, seenOf(written, compact, true, base));
    return written;
  }

  /** Creates the entry; a key that exists is a PreconditionFailedError and stays as it is. */
  async create(a: EntryAddress, compact: string, signal: AbortSignal): Promise<EntryVersion> {
    assertWritable(a);
    const client = await this.client(a);
    const written = await client.datastores.setEntry(
      { ...entryRequest(a), raw: compact, exclusiveCreate: true },
      { signal },
    );
    this.storeChanged.fire(a);
    this.written(a, seenOf(written, compact, true));
    return written;
  }

  async delete(a: EntryAddress, signal: AbortSignal): Promise<void> {
    assertWritable(a);
    await (await this.client(a)).datastores.deleteEntry(entryRequest(a), { signal });
    this.keyStates.set(a, 'deleted');
    this.entryChanged.fire({ address: a });
    this.entrySeen.fire({ address: a, entry: 'deleted' });
  }

  /** Adds to a number; the attributes and user ids are resent (increment clears those not sent). */
  async increment(a: EntryAddress, by: number, signal: AbortSignal): Promise<Entry> {
    assertWritable(a);
    const client = await this.client(a);
    const current = await client.datastores.getEntry(entryRequest(a), { signal });
    const result = await client.datastores.incrementEntry(
      { ...entryRequest(a), incrementBy: by, attributes: current.attributes, userIds: current.userIds },
      { signal },
    );
    this.written(a, result);
    return result;
  }

  /** Replaces attributes and user ids of the version read as `current`, keeping its value. */
  async setMetadata(
    a: EntryAddress,
    current: Entry,
    metadata: { attributes: Record<string, unknown>; userIds: number[] },
    signal: AbortSignal,
  ): Promise<EntryVersion> {
    assertWritable(a);
    const client = await this.client(a);
    const written = await client.datastores.setEntry(
      { ...entryRequest(a), raw: current.raw, matchVersion: current.version, ...metadata },
      { signal },
    );
    this.written(a, seenOf(written, current.raw, current.json, metadata));
    return written;
  }

  /**
   * Writes an old version's value, attributes and user ids as a new version, conditioned on the current one: a
   * change made meanwhile is reported, not overwritten. A deleted entry is re-created; with `whileDeleted`, only if
   * it is deleted (a key that holds a value is then a PreconditionFailedError).
   */
  async restore(
    a: EntryAddress,
    versionId: string,
    signal: AbortSignal,
    { whileDeleted = false } = {},
  ): Promise<EntryVersion> {
    assertWritable(a);
    const client = await this.client(a);
    const old = await client.datastores.getEntryVersion({ ...entryRequest(a), versionId }, { signal });
    const current = whileDeleted
      ? undefined
      : await client.datastores.getEntry(entryRequest(a), { signal }).catch(notFoundAs(undefined));
    const written = await client.datastores
      .setEntry(
        {
          ...entryRequest(a),
          raw: old.raw,
          attributes: old.attributes,
          userIds: old.userIds,
          ...(current ? { matchVersion: current.version } : { exclusiveCreate: true }),
        },
        { signal },
      )
      .catch((error: unknown) => {
        // A refused create: the key holds a value.
        if (!current && error instanceof PreconditionFailedError) this.keyStates.set(a, 'live');
        throw error;
      });
    this.written(a, seenOf(written, old.raw, old.json, old));
    return written;
  }

  // What the time machine reads and tells through the model.

  /** The client of the universe's connection. */
  client(u: UniverseAddress): Promise<OpenApiClient> {
    return this.connections.client(u.connectionId);
  }

  /**
   * Up to `limit` keys starting with `prefix` under the store's scope (its key filter aside), deleted ones as the
   * tree shows them: what Go to Key lists as a key is typed.
   */
  async keysStartingWith(store: StoreRef, prefix: string, limit: number, signal: AbortSignal): Promise<EntryKey[]> {
    const keys = storeKeys(store, { scope: this.lists.filter(store).scope, prefix });
    const showDeleted = this.lists.deletedEntriesShown(store);
    return (await (await this.service(store)).listKeys({ ...keys, limit, showDeleted }, { signal })).items;
  }

  /** A page of the store's keys under its filter; deleted keys on v1 always, on cloud v2 with `showDeleted`. */
  async keysPage(
    store: StoreRef,
    cursor: string | undefined,
    showDeleted: boolean,
    signal: AbortSignal,
  ): Promise<Page<EntryKey>> {
    return this.lists.keysPage(await this.service(store), store, cursor, showDeleted, signal);
  }

  /** Tells the views the store's keys changed (the time machine opened or closed its time view). */
  storeDidChange(store: StoreRef): void {
    this.storeChanged.fire(store);
  }

  /**
   * Tells the views and followers a bulk run wrote keys of the store; `keys` (written: the version made, or
   * undefined for a delete) are redrawn one by one, the values written unknown; deleted keys are seen deleted.
   */
  writtenInBulk(store: StoreRef, keys: { scope: string; key: string; written?: string }[]): void {
    this.storeChanged.fire(store);
    this.bulkWritten.fire(store);
    for (const { scope, key, written } of keys) {
      const address = { ...store, scope, key };
      if (written) this.changed(address, written);
      else {
        this.keyStates.set(address, 'deleted');
        this.entryChanged.fire({ address });
        // A delete needs no read to be known: copies such as the query index drop the entry (an erase's too).
        this.entrySeen.fire({ address, entry: 'deleted' });
      }
    }
  }

  dispose(): void {
    this.storesChanged.dispose();
    this.storeChanged.dispose();
    this.entryChanged.dispose();
    this.keyStateChanged.dispose();
    this.entrySeen.dispose();
    this.bulkWritten.dispose();
  }

  /** A write made the key live; its value's kind is known when the bytes written are (`raw`), else forgotten. */
  private changed(a: EntryAddress, version: string, raw?: string | Buffer): void {
    this.keyStates.set(a, 'live');
    this.keyStates.setKind(a, raw === undefined ? undefined : valueKindOf(raw));
    this.entryChanged.fire({ address: a, version });
  }

  /** A write of known bytes and metadata: the views follow, and so do those who keep copies. */
  private written(a: EntryAddress, entry: SeenValue): void {
    this.changed(a, entry.version, entry.raw);
    this.entrySeen.fire({ address: a, entry });
  }

  private async service(u: UniverseAddress): Promise<EntryService> {
    return entryService(await this.client(u), this.apiVersion(u));
  }
}
