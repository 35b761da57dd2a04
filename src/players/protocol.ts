// The messages between the player page's host (panel.ts) and its page (page/main.ts, bundled to
// media/players/main.js). Both import this file. No vscode and no DOM here.
//
// Handshake: the page sends `ready` once its script runs (after every load); only then does the host send `state`,
// and again whenever anything changes. After drawing a state the page says what it shows (`painted`).

/** Whose page: a user of a universe of a connection. Also what the page keeps to be restored after a reload. */
export interface PlayerRef {
  connectionId: string;
  universeId: number;
  userId: number;
}

/** How an entry is the player's (api's PlayerTie): its key names the id, its user ids are theirs alone, or shared. */
export type Tie = 'key' | 'userIds' | 'shared';

/** What Check Live found: the version indexed, a newer one, no live entry, an entry no longer the player's. */
export type LiveMark = 'same' | 'changed' | 'deleted' | 'untied' | 'failed';

export interface EntryRow {
  store: string;
  scope: string;
  key: string;
  tie: Tie;
  /** ISO 8601 (UTC), or null when the index has no time. */
  updated: string | null;
  version: string;
  live?: { mark: LiveMark; version?: string; tie?: Tie; note?: string };
}

export interface BanRow {
  /** Undefined: the whole universe. */
  placeId?: number;
  active: boolean;
  inherited: boolean;
  /** `permanent`, `7d`, `1h 30m`; "" when not active. */
  duration: string;
  /** ISO 8601, when known. */
  start?: string;
  ends?: string;
  displayReason: string;
  privateReason: string;
  excludeAltAccounts: boolean;
  /** Why this level could not be read. */
  error?: string;
}

export interface LogRow {
  time: string;
  /** "" for a universe-level change. */
  place: string;
  moderator: string;
  active: boolean;
  duration: string;
  displayReason: string;
  privateReason: string;
  excludeAltAccounts: boolean;
}

/** The player's entry in an ordered data store the universe remembers (its key is the user id). */
export interface OrderedRow {
  store: string;
  scope: string;
  /** The value with group separators; "" when it could not be read. */
  value: string;
  /** Why it could not be read. */
  error?: string;
}

export interface Section<T> {
  rows: T[];
  loading: boolean;
  /** Why the section could not be read, and what to do. */
  error?: string;
}

export interface IndexFacts {
  /** The universe has a query index. */
  built: boolean;
  /** `PlayerData, Inventory · 40,312 entries · as of 10:32, 2 hours ago`. */
  coverage?: string;
  /** The universe's stores the index does not hold (unknown when they could not be listed). */
  notIndexed?: string[];
}

export interface PlayerState {
  /** `User 2001`. */
  heading: string;
  /** `Demo Universe (123456) on Local Sandbox`. */
  where: string;
  restore: PlayerRef;
  index: IndexFacts;
  entries: Section<EntryRow> & { truncated: boolean; checked?: string };
  bans: Section<BanRow>;
  log: Section<LogRow> & { more: boolean };
  /** `stores`: how many ordered data stores the universe remembers (the service cannot list them). */
  ordered: Section<OrderedRow> & { stores: number };
  /** Work under way (Check Live); the buttons wait. */
  busy?: string;
  /** The universe is read-only (setting): no Ban, Unban, Restore or Erase. */
  readOnly: boolean;
  generation: number;
}

/** The text of each row's cells, as the page drew them: for tests, through the host. */
export interface Painted {
  generation: number;
  entries: string[][];
  bans: string[][];
  log: string[][];
  ordered: string[][];
}

export type ToPage = { type: 'state'; state: PlayerState } | { type: 'texts'; bundle: Record<string, string> };

export type Action = 'refresh' | 'checkLive' | 'buildIndex' | 'restore' | 'erase';

export type ToHost =
  | { type: 'ready' }
  | { type: 'action'; action: Action }
  | { type: 'open'; row: number }
  | { type: 'ban' | 'unban'; placeId?: number }
  | ({ type: 'painted' } & Painted);

/** A user id: a whole number above 0 that a double keeps exactly (as every id the platform hands out). */
export function userIdOf(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^[1-9]\d{0,15}$/.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : undefined;
}

const isId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;

/** A plain `{ connectionId, universeId, userId }` (any value can arrive); undefined when it is not one. */
export function readPlayerRef(value: unknown): PlayerRef | undefined {
  const r = value as Record<string, unknown> | null | undefined;
  if (typeof r !== 'object' || r === null || typeof r.connectionId !== 'string' || !isId(r.universeId)) return;
  const userId = userIdOf(r.userId);
  return userId === undefined ? undefined : { connectionId: r.connectionId, universeId: r.universeId, userId };
}

const ACTIONS: readonly Action[] = ['refresh', 'checkLive', 'buildIndex', 'restore', 'erase'];
/** Rows a painted message may name, per table. */
const MAX_PAINTED = 10_000;

const isCells = (v: unknown): v is string[][] =>
  Array.isArray(v) &&
  v.length <= MAX_PAINTED &&
  v.every((row) => Array.isArray(row) && row.every((c) => typeof c === 'string'));

/** Checks a message from the page (any value can arrive); undefined when it is not one of ToHost. */
export function readToHost(message: unknown): ToHost | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'action':
      return ACTIONS.includes(m.action as Action) ? { type: 'action', action: m.action as Action } : undefined;
    case 'open':
      return Number.isSafeInteger(m.row) && (m.row as number) >= 0 ? { type: 'open', row: m.row as number } : undefined;
    case 'ban':
    case 'unban':
      if (m.placeId === undefined) return { type: m.type };
      return isId(m.placeId) ? { type: m.type, placeId: m.placeId } : undefined;
    case 'painted':
      return Number.isSafeInteger(m.generation) &&
        isCells(m.entries) &&
        isCells(m.bans) &&
        isCells(m.log) &&
        isCells(m.ordered)
        ? {
            type: 'painted',
            generation: m.generation as number,
            entries: m.entries,
            bans: m.bans,
            log: m.log,
            ordered: m.ordered,
          }
        : undefined;
    default:
      return undefined;
  }
}
