// Erase Player Data (the right to be forgotten), the plan: for each candidate key of one store, the live entry is read
// and judged against the user id. The plan is a restore plan (restoreFormat.ts, its header saying `erase`), so
// runRestore runs it with its conditions, audit (each line keeping what it replaced), skipped file and resumption,
// and planUndo puts it back.
// - tied to the player (its key names the id as a whole token, or its user ids are the player's alone): `delete`,
//   checked against the version read (`now`), `replaces` what that version held.
// - shared (its user ids hold the player's id and others): `write` of the same bytes and attributes with the player's
//   id taken out of the user ids, conditioned on the version read (`now`, also `then`), `replaces` what it held.
// - anything else is not the player's, and a key with no live entry has nothing to erase: both left out, with why.
// Which keys are candidates (an index, a search, a list) is the caller's: the plan only reads what it is given.
import type { OpenApiClient } from '../client';
import type { EntryBytes, EntryKey } from '../datastores';
import { NotFoundError } from '../errors';
import { Progress, startRun, type BulkOptions, type BulkRun } from '../bulk/progress';
import { newestVersions } from './at';
import type { RestoreRate } from './restoreEstimate';
import { recordOf, undoRecordOf, type RestoreAction, type RestorePlanHeader } from './restoreFormat';
import { singles, startPlanFile, writePlan, type RestorePlanSummary } from './restorePlan';

/** One data store of a universe. */
export interface EraseStore {
  universeId: number | string;
  datastoreName: string;
}

/** How an entry is the player's: by its key's name, by its user ids alone, or shared with other users. */
export type PlayerTie = 'key' | 'userIds' | 'shared';

/** deleted: the key's newest version is a deletion; missing: no version at all; notTied: not the player's. */
export type EraseLeftReason = 'deleted' | 'missing' | 'notTied';

/** A candidate key the plan leaves out, and why (in words, for a list). */
export interface EraseLeftOut extends EntryKey {
  reason: EraseLeftReason;
  why: string;
  /** The version seen: the deletion (deleted) or the live version (notTied). */
  version?: string;
}

export interface ErasePlanSummary extends RestorePlanSummary {
  userId: number;
  /** Candidate keys read (each key once: repeats are dropped). */
  candidates: number;
  /** Entries deleted as tied to the player, by their key's name or by their user ids. */
  tied: { key: number; userIds: number };
  /** Every candidate not planned, and why. `gone` lists those without a live entry again; `unchanged` counts the rest. */
  left: EraseLeftOut[];
}

/** Counts while planning: candidates read, and what each came to. */
export interface EraseProgress {
  read: number;
  delete: number;
  write: number;
  left: number;
}

export interface EraseOptions extends BulkOptions<EraseProgress> {
  rate?: RestoreRate;
  /** Every store the erase searches for the player, for the header (default: this one). */
  stores?: EraseStore[];
}

const pick = ({ universeId, datastoreName }: EraseStore): EraseStore => ({ universeId, datastoreName });

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/** The user id as the digits a key would hold; throws a RangeError for what is no user id. */
function idText(userId: number): string {
  if (!Number.isSafeInteger(userId) || userId <= 0) throw new RangeError(`${userId} is not a user id`);
  return String(userId);
}

/**
 * Whether a key names the user: the id's digits as a whole token, not preceded or followed by another digit
 * (`Player_2001`, `2001`, `u:2001:inv` name user 2001; `12001`, `20010`, `Player_02001` do not). The one rule for
 * the erase plan, the editor and the index.
 */
export function keyNamesUser(key: string, userId: number): boolean {
  const id = idText(userId);
  for (let i = key.indexOf(id); i !== -1; i = key.indexOf(id, i + 1)) {
    if (!isDigit(key.charCodeAt(i - 1)) && !isDigit(key.charCodeAt(i + id.length))) return true;
  }
  return false;
}

/**
 * How an entry is the player's: `key` when its key names the user (keyNamesUser), `userIds` when its user ids are
 * the player's alone, `shared` when they hold the player's id and others; undefined when it is not the player's.
 */
export function playerTie(key: string, userIds: readonly number[], userId: number): PlayerTie | undefined {
  if (keyNamesUser(key, userId)) return 'key';
  if (!userIds.includes(userId)) return undefined;
  return userIds.every((id) => id === userId) ? 'userIds' : 'shared';
}

/** Each candidate once, in the order given. */
async function* once(candidates: Iterable<EntryKey> | AsyncIterable<EntryKey>): AsyncGenerator<EntryKey> {
  const seen = new Set<string>();
  for await (const { scope, key } of candidates) {
    const id = `${scope}\n${key}`;
    if (seen.has(id)) continue;
    seen.add(id);
    yield { scope, key };
  }
}

type Planned = (RestoreAction & { tie: PlayerTie }) | { left: EraseLeftOut };

/**
 * The dry run of Erase Player Data: reads each candidate key of `store` once and writes to `planFile` (replacing it)
 * the plan that deletes the entries tied to `userId` and takes the id out of the entries it shares with other users,
 * to be run by `runRestore(client, planFile)` and undone by `planUndo` from its audit. Writes nothing to the store.
 * Returns the counts, bytes, requests and estimate, and what was left out and why. Refused when
 * `<planFile>.audit.ndjson` holds an earlier run.
 */
export async function planErase(
  client: OpenApiClient,
  store: EraseStore,
  userId: number,
  candidates: Iterable<EntryKey> | AsyncIterable<EntryKey>,
  planFile: string,
  opts: EraseOptions = {},
): Promise<ErasePlanSummary> {
  const started = Date.now();
  idText(userId);
  await startPlanFile(planFile);
  const { universeId, datastoreName } = store;
  const header: RestorePlanHeader = {
    universeId,
    datastoreName,
    selection: { userId, keys: true },
    planned: new Date().toISOString(),
    undoRecord: undoRecordOf(planFile),
    erase: { userId, stores: (opts.stores ?? [store]).map(pick) },
  };
  const progress = new Progress<EraseProgress>(
    { read: 0, delete: 0, write: 0, left: 0 },
    (c) => c.read,
    opts.onProgress,
  );
  const left: EraseLeftOut[] = [];
  const tied = { key: 0, userIds: 0 };
  const run = startRun(client, opts);
  try {
    const plan = async (c: EntryKey): Promise<Planned> => {
      const p = await planKey(run, client, store, userId, c);
      progress.counts.read++;
      progress.counts['left' in p ? 'left' : p.action === 'delete' ? 'delete' : 'write']++;
      return p;
    };
    const actions = async function* (): AsyncGenerator<(RestoreAction | { gone: EntryKey })[]> {
      for await (const planned of run.map(singles(once(candidates)), plan, { progress })) {
        const out: (RestoreAction | { gone: EntryKey })[] = [];
        for (const p of planned) {
          if ('left' in p) {
            left.push(p.left);
            if (p.left.reason !== 'notTied') out.push({ gone: { scope: p.left.scope, key: p.left.key } });
            continue;
          }
          const { tie, ...action } = p;
          if (tie !== 'shared') tied[tie]++;
          out.push(action);
        }
        yield out;
      }
    };
    const summary = await writePlan(planFile, header, actions(), opts.rate, started);
    progress.end();
    const unchanged = left.filter((l) => l.reason === 'notTied').length;
    return { ...summary, unchanged, userId, candidates: progress.counts.read, tied, left };
  } finally {
    run.end();
  }
}

/** What one candidate key comes to: a delete, a write without the id, or left out. */
async function planKey(
  run: BulkRun,
  client: OpenApiClient,
  store: EraseStore,
  userId: number,
  { scope, key }: EntryKey,
): Promise<Planned> {
  const call = { signal: run.signal };
  const address = { ...pick(store), scope, key };
  const leave = (reason: EraseLeftReason, why: string, version?: string): Planned => ({
    left: { scope, key, reason, why, version },
  });
  let entry: EntryBytes | undefined;
  // A key written again between a 404 and the look at its versions is read once more.
  for (let attempt = 1; !entry; attempt++) {
    try {
      entry = await run.scheduler.run(() =>
        client.datastores.getEntryBytes({ ...pick(store), scope, entryKey: key }, call),
      );
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      const [newest] = await run.scheduler.run(() => newestVersions(client, address, 1, undefined, call));
      if (!newest) return leave('missing', 'no such key');
      if (newest.deleted) return leave('deleted', 'already deleted', newest.version);
      if (attempt === 2) return leave('missing', 'no live entry when read (written again meanwhile: plan again)');
    }
  }
  const tie = playerTie(key, entry.userIds, userId);
  if (!tie) return leave('notTied', `not tied to user ${userId}`, entry.version);
  const replaces = recordOf(entry);
  const base = { n: 0, scope, key, now: entry.version, replaces, tie };
  if (tie !== 'shared') return { ...base, action: 'delete', bytes: 0 };
  return {
    ...base,
    action: 'write',
    then: entry.version,
    bytes: entry.raw.length,
    ...(replaces.raw !== undefined ? { raw: replaces.raw } : { base64: replaces.base64 }),
    attributes: entry.attributes,
    userIds: entry.userIds.filter((id) => id !== userId),
  };
}
