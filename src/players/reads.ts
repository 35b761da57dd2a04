// What the player page reads, through the client and the query index only (never another area's model): the
// player's entries in the index, the ban at the universe and at each place, the restriction log, and Check Live.
// No vscode here.
import {
  NotFoundError,
  playerTie,
  Scheduler,
  type OpenApiClient,
  type Page,
  type RestrictionLog,
  type UserRestriction,
} from '../api';
import { describeDuration } from '../core/duration';
import { t } from '../core/text';
import type { BanRow, EntryRow, LiveMark, LogRow, OrderedRow, PlayerRef } from './protocol';

function endOf(start: string | undefined, duration: string | undefined): string | undefined {
  const seconds = Number(/^(\d+)s$/.exec(duration ?? '')?.[1]);
  const ms = Date.parse(start ?? '');
  return Number.isFinite(seconds) && !Number.isNaN(ms) ? new Date(ms + seconds * 1000).toISOString() : undefined;
}

export function banRow(restriction: UserRestriction, placeId: number | undefined): BanRow {
  const r = restriction.gameJoinRestriction;
  return {
    placeId,
    active: r.active,
    inherited: r.inherited,
    duration: r.active ? describeDuration(r.duration) : '',
    start: r.startTime,
    ends: r.active ? endOf(r.startTime, r.duration) : undefined,
    displayReason: r.displayReason,
    privateReason: r.privateReason,
    excludeAltAccounts: r.excludeAltAccounts,
  };
}

/** The player's restriction at the universe and at each place; a level that cannot be read says why in its row. */
export async function readBans(
  client: OpenApiClient,
  p: PlayerRef,
  places: readonly number[],
  signal: AbortSignal,
): Promise<BanRow[]> {
  const levels = [undefined, ...places];
  return Promise.all(
    levels.map(async (placeId): Promise<BanRow> => {
      try {
        const r = await client.restrictions.get({ universeId: p.universeId, placeId, userId: p.userId }, { signal });
        return banRow(r, placeId);
      } catch (error) {
        if (signal.aborted) throw error;
        return {
          placeId,
          active: false,
          inherited: false,
          duration: '',
          displayReason: '',
          privateReason: '',
          excludeAltAccounts: false,
          error: error instanceof Error ? error.message : String(error),
        };
      }
    }),
  );
}

const idOf = (name: string): string => name.replace(/^(users|places)\//, '');

export function logRow(log: RestrictionLog): LogRow {
  const m = log.moderator;
  return {
    time: log.createTime,
    place: idOf(log.place),
    moderator: m.platformUser ? idOf(m.platformUser) : m.gameServerScript ? t`game server script` : '',
    active: log.active,
    duration: log.active ? describeDuration(log.duration) : '',
    displayReason: log.displayReason,
    privateReason: log.privateReason,
    excludeAltAccounts: log.excludeAltAccounts,
  };
}

/** Log entries read at most; `more` says the log holds more. */
export const LOG_LIMIT = 500;

/** The player's restriction log, newest first (the service's filter on `user`). */
export async function readLog(
  client: OpenApiClient,
  p: PlayerRef,
  signal: AbortSignal,
): Promise<{ rows: LogRow[]; more: boolean }> {
  const rows: LogRow[] = [];
  let page: Page<RestrictionLog> | undefined = await client.restrictions.listLogs(
    { universeId: p.universeId, user: p.userId, maxPageSize: 100 },
    { signal },
  );
  while (page && rows.length < LOG_LIMIT) {
    rows.push(...page.items.map(logRow));
    page = page.next === undefined ? undefined : await page.nextPage();
  }
  return { rows: rows.slice(0, LOG_LIMIT), more: page !== undefined || rows.length > LOG_LIMIT };
}

export interface LiveOptions {
  signal: AbortSignal;
  /** The share of each rate window the reads may spend (the setting universeExplorer.bulk.budgetShare). */
  budgetShare: number;
  /** Called as each row is marked. */
  onMarked(done: number): void;
}

/**
 * Reads each row's entry from the service again, paced by the rate limit (a 429 waits and tries again), and marks
 * the row: the version indexed, changed since, deleted, or no longer the player's. A cancel stops it.
 */
export async function checkLive(
  client: OpenApiClient,
  p: PlayerRef,
  rows: readonly EntryRow[],
  opts: LiveOptions,
): Promise<void> {
  const scheduler = new Scheduler({
    concurrency: 4,
    budgetShare: opts.budgetShare,
    rateLimit: (budget) => client.rateLimitOf(budget),
    signal: opts.signal,
  });
  let done = 0;
  const read = (row: EntryRow) =>
    scheduler.run(() =>
      client.datastores.getEntryBytes(
        { universeId: p.universeId, datastoreName: row.store, scope: row.scope, entryKey: row.key },
        { signal: opts.signal },
      ),
    );
  await Promise.all(
    rows.map(async (row) => {
      try {
        const entry = await read(row);
        const tie = playerTie(row.key, entry.userIds, p.userId);
        const mark: LiveMark = !tie ? 'untied' : entry.version === row.version ? 'same' : 'changed';
        row.live = { mark, version: entry.version, tie };
      } catch (error) {
        if (opts.signal.aborted) throw error;
        row.live =
          error instanceof NotFoundError
            ? { mark: 'deleted' }
            : { mark: 'failed', note: error instanceof Error ? error.message : String(error) };
      }
      opts.onMarked(++done);
    }),
  );
}

/**
 * The player's entry in each of the given ordered data stores: the one whose key is the user id (a leaderboard's
 * usual key). A store without one is left out; one that cannot be read says why in its row.
 */
export async function readOrdered(
  client: OpenApiClient,
  p: PlayerRef,
  stores: readonly { store: string; scope: string }[],
  signal: AbortSignal,
): Promise<OrderedRow[]> {
  const rows = await Promise.all(
    stores.map(async ({ store, scope }): Promise<OrderedRow | undefined> => {
      try {
        const entry = await client.orderedDataStores.getEntry(
          { universeId: p.universeId, datastoreName: store, scope, entryKey: String(p.userId) },
          { signal },
        );
        return { store, scope, value: entry.value.toLocaleString('en-US') };
      } catch (error) {
        if (signal.aborted) throw error;
        if (error instanceof NotFoundError) return undefined;
        return { store, scope, value: '', error: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  return rows.filter((r) => r !== undefined);
}
