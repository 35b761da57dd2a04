// The ordered data stores model: the stores remembered per universe (the service cannot list them), how each store's
// entries are listed (order, value range), every read and write through the client, and the events views follow.
import vscode = require('vscode');
import { NotFoundError, type OpenApiClient, type OrderedEntry } from '../api';
import type { Connections } from '../core/connections';
import type { RememberedNames } from '../core/rememberedNames';
import { settings } from '../core/settings';
import type { Page } from '../core/tree/pager';
import { assertWritable, type UniverseAddress } from '../core/universe';
import { ORDERED_KIND, rememberedName, storeKey, storeOfName, type OrderedStoreRef, type ValueRange } from './names';

export type Order = 'asc' | 'desc';

/** How a store's entries are listed: highest first unless the user chose ascending, within a value range. */
export interface ListView {
  order: Order;
  range?: ValueRange;
}

/** An entry whose value a write here changed: its row shows `value` until the store is listed again. */
export interface EntryChange {
  store: OrderedStoreRef;
  id: string;
  value: number;
}

export class OrderedModel implements vscode.Disposable {
  private readonly storesChanged = new vscode.EventEmitter<UniverseAddress>();
  /** A universe's remembered stores changed. */
  readonly onDidChangeStores = this.storesChanged.event;
  private readonly storeChanged = new vscode.EventEmitter<OrderedStoreRef>();
  /** A store's list changed: its order or range, or an entry was created or deleted. */
  readonly onDidChangeStore = this.storeChanged.event;
  private readonly entryChanged = new vscode.EventEmitter<EntryChange>();
  readonly onDidChangeEntry = this.entryChanged.event;
  private readonly views = new Map<string, ListView>();
  /** Values written here since each store was last listed from its start, by store and id. */
  private readonly written = new Map<string, Map<string, number>>();
  private readonly following: vscode.Disposable;

  constructor(
    private readonly connections: Connections,
    private readonly names: RememberedNames,
  ) {
    this.following = names.onDidChange(({ universe, kind }) => {
      if (kind === ORDERED_KIND) this.storesChanged.fire(universe);
    });
  }

  private client(u: UniverseAddress): Promise<OpenApiClient> {
    return this.connections.client(u.connectionId);
  }

  private signal(u: UniverseAddress, signal?: AbortSignal): AbortSignal {
    return signal ?? this.connections.signal(u.connectionId);
  }

  // The remembered stores.

  stores(u: UniverseAddress): OrderedStoreRef[] {
    return this.names
      .list(u, ORDERED_KIND)
      .map(storeOfName)
      .filter((s) => s !== undefined)
      .map((s) => ({ ...u, ...s }));
  }

  isRemembered(s: OrderedStoreRef): boolean {
    return this.names.has(s, ORDERED_KIND, rememberedName(s));
  }

  /** Lists one entry (so a name the key may not read is refused), then remembers the store; true when it has any. */
  async add(s: OrderedStoreRef, signal?: AbortSignal): Promise<boolean> {
    const client = await this.client(s);
    const page = await client.orderedDataStores.listEntries(
      { universeId: s.universeId, datastoreName: s.store, scope: s.scope, limit: 1 },
      { signal: this.signal(s, signal) },
    );
    await this.names.add(s, ORDERED_KIND, rememberedName(s));
    return page.items.length > 0;
  }

  /** Remembers stores the universe is known to hold (the Local Sandbox's demo), once: a store forgotten stays so. */
  introduce(u: UniverseAddress, stores: readonly { store: string; scope: string }[]): Promise<void> {
    return this.names.introduce(u, ORDERED_KIND, stores.map(rememberedName));
  }

  /** Forgets the store here; the service is not asked. */
  async forget(s: OrderedStoreRef): Promise<void> {
    this.views.delete(storeKey(s));
    this.written.delete(storeKey(s));
    await this.names.forget(s, ORDERED_KIND, rememberedName(s));
  }

  // How a store is listed.

  view(s: OrderedStoreRef): ListView {
    return this.views.get(storeKey(s)) ?? { order: 'desc' };
  }

  setOrder(s: OrderedStoreRef, order: Order): void {
    this.views.set(storeKey(s), { ...this.view(s), order });
    this.storeChanged.fire(s);
  }

  /** A range with neither bound clears it. */
  setRange(s: OrderedStoreRef, range: ValueRange | undefined): void {
    const bounded = range && (range.min !== undefined || range.max !== undefined) ? range : undefined;
    this.views.set(storeKey(s), { ...this.view(s), range: bounded });
    this.storeChanged.fire(s);
  }

  private listArgs(s: OrderedStoreRef) {
    const { order, range } = this.view(s);
    return { universeId: s.universeId, datastoreName: s.store, scope: s.scope, order, ...range };
  }

  /** A page of the store's entries as the store is listed now; the first page forgets what was written here. */
  async listPage(s: OrderedStoreRef, cursor: string | undefined, signal: AbortSignal): Promise<Page<OrderedEntry>> {
    if (cursor === undefined) this.written.delete(storeKey(s));
    const client = await this.client(s);
    const { items, next } = await client.orderedDataStores.listEntries(
      { ...this.listArgs(s), limit: settings().pageSize, cursor },
      { signal },
    );
    return { items, next };
  }

  /** Every entry as the store is listed now, page after page. */
  async *allEntries(s: OrderedStoreRef, signal: AbortSignal): AsyncGenerator<OrderedEntry[]> {
    const client = await this.client(s);
    let cursor: string | undefined;
    do {
      const page = await client.orderedDataStores.listEntries({ ...this.listArgs(s), cursor }, { signal });
      yield page.items;
      cursor = page.next || undefined;
    } while (cursor);
  }

  /** The value a write here gave the entry since the store was listed, if any. */
  writtenValue(s: OrderedStoreRef, id: string): number | undefined {
    return this.written.get(storeKey(s))?.get(id);
  }

  // Reads and writes.

  private entryArgs(s: OrderedStoreRef, id: string) {
    return { universeId: s.universeId, datastoreName: s.store, scope: s.scope, entryKey: id };
  }

  /** The entry, or undefined when the store has no entry of that id. */
  async get(s: OrderedStoreRef, id: string, signal?: AbortSignal): Promise<OrderedEntry | undefined> {
    const client = await this.client(s);
    return client.orderedDataStores
      .getEntry(this.entryArgs(s, id), { signal: this.signal(s, signal) })
      .catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
  }

  /** Creates the entry; AlreadyExistsError when the id is taken. */
  async create(s: OrderedStoreRef, id: string, value: number, signal?: AbortSignal): Promise<OrderedEntry> {
    assertWritable(s);
    const client = await this.client(s);
    const entry = await client.orderedDataStores.createEntry(
      { ...this.entryArgs(s, id), value },
      { signal: this.signal(s, signal) },
    );
    this.storeChanged.fire(s);
    return entry;
  }

  /** Sets the value of an entry that exists (NotFoundError otherwise). */
  async update(s: OrderedStoreRef, id: string, value: number, signal?: AbortSignal): Promise<OrderedEntry> {
    assertWritable(s);
    const client = await this.client(s);
    const entry = await client.orderedDataStores.updateEntry(
      { ...this.entryArgs(s, id), value },
      { signal: this.signal(s, signal) },
    );
    this.changedValue(s, entry);
    return entry;
  }

  /** Adds `amount` and gives the entry with the value the service now holds. */
  async increment(s: OrderedStoreRef, id: string, amount: number, signal?: AbortSignal): Promise<OrderedEntry> {
    assertWritable(s);
    const client = await this.client(s);
    const entry = await client.orderedDataStores.incrementEntry(
      { ...this.entryArgs(s, id), amount },
      { signal: this.signal(s, signal) },
    );
    this.changedValue(s, entry);
    return entry;
  }

  async delete(s: OrderedStoreRef, id: string, signal?: AbortSignal): Promise<void> {
    assertWritable(s);
    const client = await this.client(s);
    await client.orderedDataStores.deleteEntry(this.entryArgs(s, id), { signal: this.signal(s, signal) });
    this.storeChanged.fire(s);
  }

  private changedValue(s: OrderedStoreRef, entry: OrderedEntry): void {
    const key = storeKey(s);
    let values = this.written.get(key);
    if (!values) this.written.set(key, (values = new Map()));
    values.set(entry.key, entry.value);
    this.entryChanged.fire({ store: s, id: entry.key, value: entry.value });
  }

  dispose(): void {
    this.following.dispose();
    this.storesChanged.dispose();
    this.storeChanged.dispose();
    this.entryChanged.dispose();
  }
}
