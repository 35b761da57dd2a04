// The time machine of the data stores area: a store's time view (Open at Time), comparisons with a time and
// between stores, a field's history, backups (export, import) and restores (their dry runs, runs and undos). It
// reads through the model, whose events the views follow.
import {
  auditFileFor,
  compareStores,
  compareWithTime,
  estimateMs,
  exportDataStore,
  importDataStore,
  fieldHistory,
  newestVersions,
  planCopy,
  planErase,
  planPutBack,
  planRestore,
  planUndo,
  ratePerMinute,
  readAudit,
  runRestore,
  type BulkOptions,
  type CompareOptions,
  type CompareSide,
  type CompareSummary,
  type CopyPlanSummary,
  type ErasePlanSummary,
  type EntryKey,
  type EntryVersion,
  type ExportCounts,
  type ExportResult,
  type FieldChange,
  type FieldHistoryOptions,
  type FieldPath,
  type ImportArgs,
  type ImportCounts,
  type ImportResult,
  type KeyComparison,
  type LiveSide,
  type OpenApiClient,
  type RestoreCounts,
  type RestorePlanSummary,
  type RestoreRate,
  type RestoreResult,
  type StoresComparison,
  type StoresCounts,
  type StoresSummary,
} from '../api';
import type { Connections } from '../core/connections';
import { assertWritable } from '../core/universe';
import type { EntryAddress } from './editor/entryPath';
import { PROBES_IN_FLIGHT } from './keyStates';
import type { UniverseAddress } from '../core/universe';
import { listingOf, storeKey, storeKeys, type StoreFilter, type StoreRef } from './listState';
import type { DataStoresModel } from './model';

/** The keys a time-machine command works on: one scope (or allScopes), a key prefix, and some keys or one player's. */
export interface TimeSelection extends StoreFilter {
  /** Only entries whose user ids include this user, now or at the time. */
  userId?: number;
  /** Only these keys. */
  keys?: EntryKey[];
}

/** One side of Compare with Another Store: a store's keys under a filter, or an export file. */
export type StoreSide = { store: StoreRef; filter: StoreFilter } | { file: string; prefix: string };

/** Audit lines whose keys are redrawn after a run; past that, the store's list reloads alone. */
const RESTORED_KEYS_TOLD = 1000;

/** The rate a restore's estimate assumes: the limit the connection last read, else the documented ones. */
function restoreRate(client: OpenApiClient): RestoreRate {
  const perMinute = ratePerMinute(client.rateLimit);
  return perMinute ? { writesPerMinute: perMinute, readsPerMinute: perMinute } : {};
}

export class TimeMachine {
  private readonly moments = new Map<string, Date>();

  constructor(
    private readonly model: DataStoresModel,
    private readonly connections: Connections,
  ) {}

  /** The moment a store's time view shows (Open at Time); undefined when it has none. */
  moment(store: StoreRef): Date | undefined {
    return this.moments.get(storeKey(store));
  }

  /** Shows the store as it was at `time` under its row, or closes that view (no time). */
  setMoment(store: StoreRef, time: Date | undefined): void {
    if (time) this.moments.set(storeKey(store), time);
    else this.moments.delete(storeKey(store));
    this.model.storeDidChange(store);
  }

  /**
   * A page of the store's keys under its filter as they were at `time`: each that held an entry then, with the
   * version it held and what became of it since. Keys created since are left out; a page left empty by them is
   * followed by the next one.
   */
  async listKeysAt(
    store: StoreRef,
    time: Date,
    cursor: string | undefined,
    signal: AbortSignal,
  ): Promise<{ items: KeyComparison[]; next?: string }> {
    const client = await this.model.client(store);
    const { universeId, datastoreName } = store;
    for (;;) {
      // Deleted keys too: a key deleted since the moment held an entry then.
      const page = await this.model.keysPage(store, cursor, true, signal);
      const items: KeyComparison[] = [];
      const opts = { signal, concurrency: PROBES_IN_FLIGHT };
      for await (const c of compareWithTime(client, { universeId, datastoreName, keys: page.items }, time, opts))
        if (c.status !== 'created') items.push(c);
      if (items.length || !page.next) return { items, next: page.next };
      cursor = page.next;
    }
  }

  /** The entry's newest versions (deletions included), newest first, at most `limit`. */
  async recentVersions(a: EntryAddress, limit: number, signal: AbortSignal): Promise<EntryVersion[]> {
    return newestVersions(await this.model.client(a), a, limit, undefined, { signal });
  }

  /** Each selected key of the store that held an entry at `time` or now, against then. */
  async *compareWithTime(
    store: StoreRef,
    selection: TimeSelection,
    time: Date,
    opts: CompareOptions,
  ): AsyncGenerator<KeyComparison, CompareSummary> {
    const client = await this.model.client(store);
    const keys = { ...storeKeys(store, selection), userId: selection.userId, keys: selection.keys };
    return yield* compareWithTime(client, keys, time, opts);
  }

  /** The store names of a universe, in the service's order (at most `limit`). */
  async storeNames(u: UniverseAddress, limit: number, signal: AbortSignal): Promise<string[]> {
    const client = await this.model.client(u);
    const names: string[] = [];
    for await (const s of client.datastores.listDataStores({ universeId: u.universeId }, { signal })) {
      names.push(s.name);
      if (names.length >= limit) break;
    }
    return names;
  }

  /** Each key of two stores (or a store and an export file), in key order, with what differs. */
  async *compareStores(
    source: StoreSide,
    target: StoreSide,
    opts: BulkOptions<StoresCounts>,
  ): AsyncGenerator<StoresComparison, StoresSummary> {
    return yield* compareStores(await this.side(source), await this.side(target), opts);
  }

  /** The dry run of Copy Differences: the plan that makes `target` hold `source`'s entries, with its estimate. */
  async planCopy(
    source: StoreSide,
    target: { store: StoreRef; filter: StoreFilter },
    planFile: string,
    deleteExtra: boolean,
    signal: AbortSignal,
  ): Promise<CopyPlanSummary> {
    const live = (await this.side(target)) as LiveSide;
    const rate = restoreRate(live.client);
    const summary = await planCopy(await this.side(source), live, planFile, { signal, deleteExtra, rate });
    return { ...summary, estimateMs: estimateMs(summary, rate) };
  }

  /** The versions of an entry where the value at `path` changed, oldest first. */
  async *fieldHistory(a: EntryAddress, path: FieldPath, opts: FieldHistoryOptions): AsyncGenerator<FieldChange> {
    const client = await this.model.client(a);
    yield* fieldHistory(
      client,
      { universeId: a.universeId, datastoreName: a.datastoreName, scope: a.scope, key: a.key },
      path,
      opts,
    );
  }

  /**
   * The dry run of Restore to Time: writes the plan of what puts the selection back as it was at `time`, with its
   * estimate at the rate limit the connection last read (the documented limits when none was read).
   */
  async planRestore(
    store: StoreRef,
    selection: TimeSelection,
    time: Date,
    planFile: string,
    signal: AbortSignal,
  ): Promise<RestorePlanSummary> {
    const keys = { ...storeKeys(store, selection), userId: selection.userId, keys: selection.keys };
    return this.planned(store, (client, opts) => planRestore(client, keys, time, planFile, { ...opts, signal }));
  }

  /** The dry run of undoing a restore from its audit file, into `planFile`. */
  async planUndo(
    store: StoreRef,
    auditFile: string,
    planFile: string,
    signal: AbortSignal,
  ): Promise<RestorePlanSummary> {
    return this.planned(store, (client, opts) => planUndo(client, auditFile, planFile, { ...opts, signal }));
  }

  /** The dry run of putting back what a restore's raced deletes removed, into `planFile`. */
  async planPutBack(
    store: StoreRef,
    auditFile: string,
    planFile: string,
    signal: AbortSignal,
  ): Promise<RestorePlanSummary> {
    return this.planned(store, (client, opts) => planPutBack(client, auditFile, planFile, { ...opts, signal }));
  }

  /**
   * The dry run of Erase Player Data in one store: reads each candidate key and plans deleting what is the player's
   * and taking the id out of what is shared (`stores`: every store the erase searches, for the plan's header).
   */
  async planErase(
    store: StoreRef,
    userId: number,
    candidates: EntryKey[],
    stores: string[],
    planFile: string,
    signal: AbortSignal,
  ): Promise<ErasePlanSummary> {
    const all = stores.map((datastoreName) => ({ universeId: store.universeId, datastoreName }));
    return this.planned(store, (client, opts) =>
      planErase(client, store, userId, candidates, planFile, { ...opts, stores: all, signal }),
    );
  }

  /** Runs a restore (or undo) plan, or continues a stopped one; the views then show what it wrote. */
  async runRestore(store: StoreRef, planFile: string, opts: BulkOptions<RestoreCounts>): Promise<RestoreResult> {
    assertWritable(store);
    const client = await this.model.client(store);
    try {
      return await runRestore(client, planFile, opts);
    } finally {
      await this.told(store, auditFileFor(planFile));
    }
  }

  /** Tells the views and followers what a run wrote: the store, and the first keys of its audit file. */
  private async told(store: StoreRef, auditFile: string): Promise<void> {
    const keys: { scope: string; key: string; written?: string }[] = [];
    try {
      for await (const line of readAudit(auditFile)) {
        if (keys.length >= RESTORED_KEYS_TOLD) break;
        keys.push({ scope: line.scope, key: line.key, written: line.action === 'delete' ? undefined : line.written });
      }
    } catch {
      // A key not told shows its new value when it is read again.
    }
    this.model.writtenInBulk(store, keys);
  }

  /** Writes the store's keys under its scope filter to an NDJSON file (resuming one that holds entries). */
  async export(store: StoreRef, file: string, resume: boolean, opts: BulkOptions<ExportCounts>): Promise<ExportResult> {
    const client = await this.model.client(store);
    // The export takes the scope filter only: every key of the scope (or scopes), whatever the key prefix.
    const keys = storeKeys(store, { scope: this.model.lists.filter(store).scope, prefix: '' });
    return exportDataStore(client, { ...keys, file, resume, api: this.model.apiVersion(store) }, opts);
  }

  /** Imports `args.file` (from `args.fromLine`, failures to `args.failuresFile`). */
  async import(
    store: StoreRef,
    args: Omit<ImportArgs, 'universeId' | 'datastoreName'>,
    opts: BulkOptions<ImportCounts>,
  ): Promise<ImportResult> {
    assertWritable(store);
    const client = await this.model.client(store);
    try {
      return await importDataStore(
        client,
        { ...args, universeId: store.universeId, datastoreName: store.datastoreName },
        opts,
      );
    } finally {
      this.model.writtenInBulk(store, []);
    }
  }

  /** The connections that show a universe (where an audit file's restore can be undone). */
  universeConnections(universeId: number): { connectionId: string; name: string }[] {
    return this.connections
      .list()
      .filter((c) => c.universes.some((u) => u.id === universeId))
      .map((c) => ({ connectionId: c.id, name: c.name }));
  }

  /** A dry run through the store's client at the rate it last read, with its estimate at that rate. */
  private async planned<S extends RestorePlanSummary>(
    store: StoreRef,
    plan: (client: OpenApiClient, opts: { rate: RestoreRate }) => Promise<S>,
  ): Promise<S> {
    const client = await this.model.client(store);
    const rate = restoreRate(client);
    const summary = await plan(client, { rate });
    return { ...summary, estimateMs: estimateMs(summary, rate) };
  }

  private async side(side: StoreSide): Promise<CompareSide> {
    if ('file' in side) return { file: side.file, prefix: listingOf({ prefix: side.prefix }).prefix };
    return { client: await this.model.client(side.store), ...storeKeys(side.store, side.filter) };
  }
}
