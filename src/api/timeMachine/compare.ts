// Compare with a time: for each selected key, whether it is unchanged, changed, created or deleted since then. The
// status comes from version ids (the newest version now against the version in effect then), so an unchanged key
// costs one List Entry Versions and no value read. Keys stream through the bulk scheduler in listing order; only the
// window of keys in flight is held.
import type { OpenApiClient } from '../client';
import type { EntryKey } from '../datastores';
import type { EntryVersion } from '../schemas';
import { LineWriter } from '../bulk/ndjson';
import { Progress, startRun, type BulkOptions } from '../bulk/progress';
import { pagesAhead, type Scheduler } from '../bulk/scheduler';
import { newestVersions, readVersion, versionAt, type EntryAddress } from './at';
import { checkMoment } from './moment';

export type CompareStatus = 'unchanged' | 'changed' | 'created' | 'deleted';

export interface CompareSelection {
  universeId: number | string;
  datastoreName: string;
  /** The scope compared (default "global"); ignored with allScopes. Also the scope of keys given as strings. */
  scope?: string;
  allScopes?: boolean;
  /** Only keys that start with this. */
  prefix?: string;
  /** These keys instead of listing the store, compared in this order (still limited by `prefix`). */
  keys?: Iterable<string | EntryKey> | AsyncIterable<string | EntryKey>;
  /** Only entries whose user ids include this user, now or at the time. */
  userId?: number;
  /** Keys per List Entries page (default 100). */
  pageSize?: number;
}

export interface KeyComparison extends EntryKey {
  status: CompareStatus;
  /** The version in effect at the time (a deletion when the key was deleted then); absent when it had none. */
  then?: EntryVersion;
  /** The newest version now (a deletion for a deleted key). */
  now?: EntryVersion;
}

export interface CompareCounts extends Record<CompareStatus, number> {
  /** Keys listed that held no entry at the time nor now (deleted then and still deleted): not yielded. */
  absent: number;
  /** Keys left out because the user was not among their user ids at either time. */
  otherUsers: number;
}

export interface CompareSummary extends CompareCounts {
  ms: number;
}

export interface CompareOptions extends BulkOptions<CompareCounts> {
  /** The service's time: when given, a time it cannot restore (or a future one) is refused before any request. */
  now?: Date;
}

/** Versions asked for in the first request: the newest, and the one before it for a key changed once since. */
const HEAD = 2;

/** What one key came to: its comparison, or the count of a key left out. */
type Outcome = KeyComparison | 'absent' | 'otherUsers';

/** Unchanged: the same version then and now. A key without an entry at either time has no status. */
export function statusOf(then: EntryVersion | undefined, now: EntryVersion | undefined): CompareStatus | undefined {
  const [was, is] = [then !== undefined && !then.deleted, now !== undefined && !now.deleted];
  if (!was) return is ? 'created' : undefined;
  if (!is) return 'deleted';
  return then!.version === now!.version ? 'unchanged' : 'changed';
}

/**
 * Yields one comparison per selected key that held an entry at the time or now, in listing order (or the order of
 * `selection.keys`), and returns the counts. Requests per key: one when the newest version was written at or before
 * the time or the key changed once since; two otherwise. With `userId`, also one value read per live version looked
 * at (now first; the version then only when different and the user is not among the ids now), as user ids are only
 * sent with a value. Stopping the iteration or aborting the signal stops the requests in flight.
 */
export async function* compareWithTime(
  client: OpenApiClient,
  selection: CompareSelection,
  time: Date,
  opts: CompareOptions = {},
): AsyncGenerator<KeyComparison, CompareSummary> {
  if (opts.now) checkMoment(time, opts.now);
  const run = startRun(client, opts);
  const { signal, scheduler } = run;
  const call = { signal };
  const progress = new Progress<CompareCounts>(
    { unchanged: 0, changed: 0, created: 0, deleted: 0, absent: 0, otherUsers: 0 },
    (c) => c.unchanged + c.changed + c.created + c.deleted + c.absent + c.otherUsers,
    opts.onProgress,
  );
  const { universeId, datastoreName, userId } = selection;
  const t = time.getTime();

  const hasUser = async (address: EntryAddress, versions: (EntryVersion | undefined)[]): Promise<boolean> => {
    let read: string | undefined;
    for (const v of versions) {
      if (!v || v.deleted || v.version === read) continue;
      read = v.version;
      const entry = await scheduler.run(() => readVersion(client, address, v, call));
      if (entry?.userIds.includes(userId!)) return true;
    }
    return false;
  };

  const comparison = (
    address: EntryAddress & EntryKey,
    then: EntryVersion | undefined,
    now: EntryVersion | undefined,
  ): Outcome | Promise<Outcome> => {
    const status = statusOf(then, now);
    if (!status) return 'absent';
    const result: KeyComparison = { scope: address.scope, key: address.key, status };
    if (then) result.then = then;
    if (now) result.now = now;
    if (userId === undefined) return result;
    return hasUser(address, [now, then]).then((has) => (has ? result : 'otherUsers'));
  };

  // Per key, no async frame: the newest versions, and the one in effect then when they do not reach back to it.
  const compareKey = (k: EntryKey): Promise<Outcome> => {
    const address = { universeId, datastoreName, scope: k.scope, key: k.key };
    return scheduler
      .run(() => newestVersions(client, address, HEAD, undefined, call))
      .then((head) => {
        const then = head.find((v) => Date.parse(v.createdTime) <= t);
        if (then || head.length < HEAD) return comparison(address, then, head[0]);
        return scheduler
          .run(() => versionAt(client, address, time, call))
          .then((at) => comparison(address, at, head[0]));
      });
  };

  const counts = progress.counts;
  let ms: number;
  try {
    // As many keys running as the scheduler has slots (none waits in its queue), more results held for their turn.
    const keys = keyBatches(client, selection, scheduler, signal);
    for await (const outcomes of run.map(keys, compareKey, { running: scheduler.concurrency, progress })) {
      for (const outcome of outcomes) {
        if (typeof outcome === 'string') counts[outcome]++;
        else {
          counts[outcome.status]++;
          yield outcome;
        }
      }
    }
  } finally {
    run.end(); // and whatever is still in flight after a stop
    ms = progress.end(); // also after a stop, so the caller has the final counts
  }
  return { ...counts, ms };
}

/** The keys to compare, in batches: the given ones, or the store listed page by page one page ahead. */
async function* keyBatches(
  client: OpenApiClient,
  selection: CompareSelection,
  scheduler: Scheduler,
  signal: AbortSignal,
): AsyncGenerator<EntryKey[]> {
  const prefix = selection.prefix ?? '';
  const size = selection.pageSize ?? 100;
  if (selection.keys) {
    const scope = selection.scope ?? 'global';
    let batch: EntryKey[] = [];
    for await (const k of selection.keys) {
      const entryKey = typeof k === 'string' ? { scope, key: k } : k;
      if (!entryKey.key.startsWith(prefix)) continue;
      batch.push(entryKey);
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
    return;
  }
  const listing = {
    universeId: selection.universeId,
    datastoreName: selection.datastoreName,
    scope: selection.allScopes ? undefined : selection.scope,
    allScopes: selection.allScopes,
    prefix: prefix || undefined,
    limit: size,
  };
  yield* pagesAhead(scheduler, await scheduler.run(() => client.datastores.listEntries(listing, { signal })));
}

const versionLine = (v: EntryVersion | undefined) =>
  v && {
    version: v.version,
    deleted: v.deleted,
    createdTime: v.createdTime,
    contentLength: v.contentLength,
    objectCreatedTime: v.objectCreatedTime,
  };

/** One NDJSON line (with its newline): `{scope, key, status, then?, now?}`, the versions as the service sent them. */
export function formatComparisonLine(c: KeyComparison): string {
  return `${JSON.stringify({ scope: c.scope, key: c.key, status: c.status, then: versionLine(c.then), now: versionLine(c.now) })}\n`;
}

/** Writes one line per comparison to `file` (replacing it) as they come; returns the counts per status. */
export async function writeComparison(
  file: string,
  results: AsyncIterable<KeyComparison>,
): Promise<Record<CompareStatus, number>> {
  const counts: Record<CompareStatus, number> = { unchanged: 0, changed: 0, created: 0, deleted: 0 };
  const out = await LineWriter.open(file, 'w');
  try {
    for await (const c of results) {
      out.write(formatComparisonLine(c));
      counts[c.status]++;
      if (out.full) await out.flush();
    }
  } finally {
    await out.close();
  }
  return counts;
}

/** The comparisons of `results` that are not unchanged, handing the summary it returns to `keep`; stopping early stops
 * the requests in flight. */
export async function* changedKeys(
  results: AsyncGenerator<KeyComparison, CompareSummary>,
  keep: (summary: CompareSummary) => void,
): AsyncGenerator<KeyComparison> {
  try {
    let next = await results.next();
    for (; !next.done; next = await results.next()) if (next.value.status !== 'unchanged') yield next.value;
    keep(next.value);
  } finally {
    await results.return(undefined as never);
  }
}
