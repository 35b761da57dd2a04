// What the tree lists of stores and keys: each universe's store prefix and whether its deleted stores show, each
// store's filter (scope and key prefix) and whether its deleted keys show. The model owns it; views read and set it
// through `model.lists`, and each change fires the model's events.
import type { DataStoreSummary, EntryKey, EntryService, Page } from '../api';
import { settings } from '../core/settings';
import { universeKey, type UniverseAddress } from '../core/universe';

/** The scope filter that lists every scope. */
export const allScopes = '*';

export interface StoreRef extends UniverseAddress {
  datastoreName: string;
}

/** Which keys of a store the tree lists: one scope (or allScopes) and a key prefix. */
export interface StoreFilter {
  scope: string;
  prefix: string;
}

export const storeKey = (s: StoreRef) => `${universeKey(s)}/${encodeURIComponent(s.datastoreName)}`;

export function sameStore(a: StoreRef, b: StoreRef): boolean {
  return storeKey(a) === storeKey(b);
}

/**
 * A filter as the API's listing calls take it: scope '*' is every scope (no scope, allScopes), '' no key prefix.
 * Every listing, export, comparison, restore and plan header of a selection goes through this one rule.
 */
export function listingOf(filter: Partial<StoreFilter>) {
  const all = filter.scope === allScopes;
  return { scope: all ? undefined : filter.scope, allScopes: all || undefined, prefix: filter.prefix || undefined };
}

/** A store's keys under a filter as the API's calls name them. */
export function storeKeys(store: StoreRef, filter: StoreFilter) {
  return { universeId: store.universeId, datastoreName: store.datastoreName, ...listingOf(filter) };
}

/** What the tree lists; each change is told to the model's views through the two callbacks. */
export class ListState {
  constructor(
    private readonly storesChanged: (u: UniverseAddress) => void,
    private readonly storeChanged: (store: StoreRef) => void,
  ) {}

  private readonly storePrefixes = new Map<string, string>();
  private readonly filters = new Map<string, StoreFilter>();
  private readonly storesWithDeleted = new Set<string>();
  private readonly storesWithDeletedEntries = new Set<string>();

  storesPrefix(u: UniverseAddress): string {
    return this.storePrefixes.get(universeKey(u)) ?? '';
  }

  setStoresPrefix(u: UniverseAddress, prefix: string): void {
    this.storePrefixes.set(universeKey(u), prefix);
    this.storesChanged(u);
  }

  filter(store: StoreRef): StoreFilter {
    return this.filters.get(storeKey(store)) ?? { scope: 'global', prefix: '' };
  }

  setFilter(store: StoreRef, change: Partial<StoreFilter>): void {
    this.filters.set(storeKey(store), { ...this.filter(store), ...change });
    this.storeChanged(store);
  }

  /** Whether the universe's deleted stores are listed (cloud v2 keeps them 30 days). */
  deletedShown(u: UniverseAddress): boolean {
    return this.storesWithDeleted.has(universeKey(u));
  }

  setDeletedShown(u: UniverseAddress, shown: boolean): void {
    if (shown) this.storesWithDeleted.add(universeKey(u));
    else this.storesWithDeleted.delete(universeKey(u));
    this.storesChanged(u);
  }

  /** A page of the stores under the universe's prefix; deleted ones only while they are shown. */
  storesPage(
    service: EntryService,
    u: UniverseAddress,
    cursor: string | undefined,
    signal: AbortSignal,
  ): Promise<Page<DataStoreSummary>> {
    const prefix = this.storesPrefix(u);
    return service.listStores(
      u.universeId,
      { prefix: prefix || undefined, showDeleted: this.deletedShown(u), limit: settings().pageSize, cursor },
      { signal },
    );
  }

  /**
   * A page of the store's keys under its filter (scope and prefix). Deleted keys are listed on v1 always, on cloud v2
   * with `showDeleted`.
   */
  keysPage(
    service: EntryService,
    store: StoreRef,
    cursor: string | undefined,
    showDeleted: boolean,
    signal: AbortSignal,
  ): Promise<Page<EntryKey>> {
    const keys = storeKeys(store, this.filter(store));
    return service.listKeys({ ...keys, limit: settings().pageSize, cursor, showDeleted }, { signal });
  }

  /** The store's keys under its filter, deleted ones included, in listing order, at most `limit`. */
  async keyList(service: EntryService, store: StoreRef, limit: number, signal: AbortSignal): Promise<EntryKey[]> {
    const keys: EntryKey[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.keysPage(service, store, cursor, true, signal);
      keys.push(...page.items.slice(0, limit - keys.length));
      cursor = page.next;
    } while (cursor && keys.length < limit);
    return keys;
  }

  /** Whether the store lists its deleted keys on cloud v2 (v1 lists them whatever this says). */
  deletedEntriesShown(store: StoreRef): boolean {
    return this.storesWithDeletedEntries.has(storeKey(store));
  }

  setDeletedEntriesShown(store: StoreRef, shown: boolean): void {
    if (shown) this.storesWithDeletedEntries.add(storeKey(store));
    else this.storesWithDeletedEntries.delete(storeKey(store));
    this.storeChanged(store);
  }
}
