// The plan of a ban or unban of many users at many targets (a universe, its places, other universes): what each
// (user, target) holds now, read by listing each target's restrictions (a few pages, not one read per user), and
// what the run will do there. Nothing is written here.
import type { OpenApiClient } from '../client';
import type { GameJoinRestriction, UserRestriction } from '../schemas';
import type { BanListRow } from './list';
import { fromServiceDuration } from './duration';

/** Where a restriction lives: a whole universe, or one of its places. */
export interface BanTarget {
  universeId: number;
  placeId?: number;
}

/** What a row of the list does not say itself. */
export interface BanDefaults {
  /** Whole seconds; null: permanent. */
  durationSeconds: number | null;
  displayReason: string;
  privateReason: string;
  excludeAltAccounts: boolean;
}

/**
 * What an action does where it is: `new` (not banned now), `longer`/`shorter` (banned for another duration),
 * `changed` (the same duration, other reasons), `lift` (an unban); or skipped: `same` (already banned the same way),
 * `notBanned` (an unban where there is none), `inherited` (an unban at a place whose ban is the universe's).
 */
export type BanChange = 'new' | 'longer' | 'shorter' | 'changed' | 'lift' | 'same' | 'notBanned' | 'inherited';

export const SKIPPED_CHANGES: readonly BanChange[] = ['same', 'notBanned', 'inherited'];

/** Whether the action writes (a skipped one, or one with nothing to write, does not). */
export const isWrite = (a: BanAction): boolean => a.write !== undefined && !SKIPPED_CHANGES.includes(a.change);

/** What was read of a restriction (absent: none listed). */
export interface BanState {
  active: boolean;
  duration?: string;
  startTime?: string;
  displayReason: string;
  privateReason: string;
  excludeAltAccounts: boolean;
  inherited: boolean;
}

export interface BanAction {
  /** The action's number in the plan, from 0. */
  n: number;
  userId: number;
  target: BanTarget;
  change: BanChange;
  /** What the target held when planned. */
  now?: BanState;
  /** What will be written (absent when skipped). */
  write?: { active: boolean; durationSeconds?: number | null } & Partial<Omit<BanDefaults, 'durationSeconds'>>;
  /** The line of the list the user came from. */
  line?: number;
}

export interface BanPlan {
  kind: 'ban' | 'unban';
  targets: BanTarget[];
  actions: BanAction[];
  /** ISO time of the reads. */
  planned: string;
}

export interface PlanBansArgs {
  kind: 'ban' | 'unban';
  rows: readonly Pick<
    BanListRow,
    'userId' | 'line' | 'durationSeconds' | 'displayReason' | 'privateReason' | 'excludeAltAccounts'
  >[];
  targets: readonly BanTarget[];
  /** For a ban: what a row leaves out. */
  defaults?: BanDefaults;
  signal?: AbortSignal;
  /** The time a timed ban is judged expired against (default now). */
  now?: number;
}

const userOf = (r: UserRestriction): number => Number(r.user.replace(/^users\//, ''));

const stateOf = (g: GameJoinRestriction): BanState => ({
  active: g.active,
  duration: g.duration,
  startTime: g.startTime,
  displayReason: g.displayReason,
  privateReason: g.privateReason,
  excludeAltAccounts: g.excludeAltAccounts,
  inherited: g.inherited,
});

/** Whether the restriction still holds at `now` (a timed one ends at start + duration). */
export function holds(s: BanState | undefined, now: number): boolean {
  if (!s?.active) return false;
  const seconds = fromServiceDuration(s.duration);
  const start = s.startTime === undefined ? NaN : Date.parse(s.startTime);
  return seconds === undefined || Number.isNaN(start) || start + seconds * 1000 > now;
}

/** Every restriction listed at each target, by user id. */
export async function readTargets(
  client: OpenApiClient,
  targets: readonly BanTarget[],
  signal?: AbortSignal,
): Promise<Map<string, Map<number, BanState>>> {
  const read = new Map<string, Map<number, BanState>>();
  for (const target of targets) {
    const states = new Map<number, BanState>();
    const listing = client.restrictions.list({ ...target, maxPageSize: 100 }, { signal });
    for await (const r of listing) states.set(userOf(r), stateOf(r.gameJoinRestriction));
    read.set(targetKey(target), states);
  }
  return read;
}

export const targetKey = (t: BanTarget): string => `${t.universeId}/${t.placeId ?? ''}`;

const ownKey = (t: BanTarget, userId: number): string => `${targetKey(t)}#${userId}`;

/**
 * Each user's own restriction at each place of the universe where their log shows one, from the newest entry. A
 * place's own ban hides behind the universe's (the place then reads `inherited`); only the log tells it.
 */
async function loggedAtPlaces(
  client: OpenApiClient,
  universeId: number,
  userIds: Iterable<number>,
  signal?: AbortSignal,
): Promise<{ places: BanTarget[]; own: Map<string, BanState> }> {
  const places = new Map<string, BanTarget>();
  const newest = new Map<string, { time: string; state: BanState }>();
  for (const userId of userIds) {
    for await (const log of client.restrictions.listLogs({ universeId, user: userId, maxPageSize: 100 }, { signal })) {
      const placeId = Number(log.place.replace(/^places\//, ''));
      if (!(placeId > 0)) continue;
      const target = { universeId, placeId };
      places.set(targetKey(target), target);
      const at = ownKey(target, userId);
      const known = newest.get(at);
      if (known && known.time >= log.createTime) continue;
      newest.set(at, {
        time: log.createTime,
        state: { ...stateOf({ ...log, inherited: false }), startTime: log.createTime },
      });
    }
  }
  return { places: [...places.values()], own: new Map([...newest].map(([k, v]) => [k, v.state])) };
}

/** What the user holds at the target themselves: the listed state, or, where it is the universe's, the logged one. */
const ownState = (listed: BanState | undefined, own: Map<string, BanState>, t: BanTarget, userId: number) =>
  listed?.inherited ? own.get(ownKey(t, userId)) : listed;

export function describeTarget(t: BanTarget): string {
  return t.placeId === undefined ? `universe ${t.universeId}` : `place ${t.placeId} of universe ${t.universeId}`;
}

/**
 * The plan: for each target in turn, each user of the list (a user's writes at several targets of one universe are
 * then far apart, as the service allows 2 a minute per user).
 */
export async function planBans(client: OpenApiClient, args: PlanBansArgs): Promise<BanPlan> {
  const now = args.now ?? Date.now();
  const read = await readTargets(client, args.targets, args.signal);
  const own = args.kind === 'unban' ? await hiddenOwnBans(client, args, read, now) : new Map<string, BanState>();
  const d = args.defaults ?? { durationSeconds: null, displayReason: '', privateReason: '', excludeAltAccounts: false };
  const actions: BanAction[] = [];
  for (const target of args.targets) {
    const states = read.get(targetKey(target))!;
    for (const row of args.rows) {
      const state = states.get(row.userId);
      const action = { n: actions.length, userId: row.userId, target, line: row.line, now: state };
      if (args.kind === 'unban') {
        const mine = ownState(state, own, target, row.userId);
        const change: BanChange = holds(mine, now) ? 'lift' : holds(state, now) ? 'inherited' : 'notBanned';
        actions.push({ ...action, change, ...(change === 'lift' ? { now: mine, write: { active: false } } : {}) });
        continue;
      }
      const write = {
        active: true,
        durationSeconds: row.durationSeconds === undefined ? d.durationSeconds : row.durationSeconds,
        displayReason: row.displayReason ?? d.displayReason,
        privateReason: row.privateReason ?? d.privateReason,
        excludeAltAccounts: row.excludeAltAccounts ?? d.excludeAltAccounts,
      };
      const change = banChange(holds(state, now) ? state : undefined, write);
      actions.push({ ...action, change, ...(change === 'same' ? {} : { write }) });
    }
  }
  return { kind: args.kind, targets: [...args.targets], actions, planned: new Date(now).toISOString() };
}

/** For an unban: the own bans of the users a place lists as `inherited`, read from their logs. */
async function hiddenOwnBans(
  client: OpenApiClient,
  args: PlanBansArgs,
  read: Map<string, Map<number, BanState>>,
  now: number,
): Promise<Map<string, BanState>> {
  const own = new Map<string, BanState>();
  const universes = new Map<number, Set<number>>();
  for (const target of args.targets) {
    if (target.placeId === undefined) continue;
    for (const [userId, state] of read.get(targetKey(target))!) {
      if (!state.inherited || !holds(state, now)) continue;
      const users = universes.get(target.universeId) ?? new Set<number>();
      universes.set(target.universeId, users.add(userId));
    }
  }
  for (const [universeId, users] of universes) {
    const wanted = [...users].filter((u) => args.rows.some((r) => r.userId === u));
    for (const [k, v] of (await loggedAtPlaces(client, universeId, wanted, args.signal)).own) own.set(k, v);
  }
  return own;
}

function banChange(
  state: BanState | undefined,
  write: Required<Omit<NonNullable<BanAction['write']>, 'active'>>,
): BanChange {
  // An inherited ban is the universe's: the place holds none of its own.
  if (!state || state.inherited) return 'new';
  const held = fromServiceDuration(state.duration) ?? null;
  const wanted = write.durationSeconds;
  if (held !== wanted) {
    if (held === null) return 'shorter';
    return wanted === null || wanted > held ? 'longer' : 'shorter';
  }
  const same =
    state.displayReason === write.displayReason &&
    state.privateReason === write.privateReason &&
    state.excludeAltAccounts === write.excludeAltAccounts;
  return same ? 'same' : 'changed';
}

/** How many actions of each change, in the order of BanChange; they add up to the plan's actions. */
export function countChanges(plan: BanPlan): Partial<Record<BanChange, number>> {
  const counts: Partial<Record<BanChange, number>> = {};
  for (const a of plan.actions) counts[a.change] = (counts[a.change] ?? 0) + 1;
  return counts;
}

export interface UnbanEverywhereArgs {
  /** The universes to look in (a connection's). */
  universeIds: readonly number[];
  userIds: readonly number[];
  /** Places to look at besides those the users' logs name (the ones the user shows). */
  places?: readonly BanTarget[];
  signal?: AbortSignal;
  now?: number;
}

/**
 * The plan that lifts each user's bans wherever they hold: at each universe, and at each place where a restriction of
 * theirs was ever logged (the service cannot list a universe's places) or that is named. Only the bans found are in
 * the plan; a user banned nowhere has no action and is counted in `clear`.
 */
export async function planUnbanEverywhere(
  client: OpenApiClient,
  args: UnbanEverywhereArgs,
): Promise<BanPlan & { clear: number[] }> {
  const now = args.now ?? Date.now();
  const users = new Set(args.userIds);
  const places = new Map<string, BanTarget>();
  for (const p of args.places ?? []) places.set(targetKey(p), p);
  const own = new Map<string, BanState>();
  for (const universeId of args.universeIds) {
    const logged = await loggedAtPlaces(client, universeId, users, args.signal);
    for (const p of logged.places) places.set(targetKey(p), p);
    for (const [k, v] of logged.own) own.set(k, v);
  }
  const targets = [...args.universeIds.map((universeId) => ({ universeId })), ...places.values()];
  const read = await readTargets(client, targets, args.signal);
  const actions: BanAction[] = [];
  const found = new Set<number>();
  for (const target of targets) {
    const states = read.get(targetKey(target))!;
    for (const userId of users) {
      const state = ownState(states.get(userId), own, target, userId);
      if (!holds(state, now)) continue;
      found.add(userId);
      actions.push({ n: actions.length, userId, target, change: 'lift', now: state, write: { active: false } });
    }
  }
  return {
    kind: 'unban',
    targets,
    actions,
    planned: new Date(now).toISOString(),
    clear: [...users].filter((u) => !found.has(u)),
  };
}
