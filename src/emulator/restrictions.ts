// User restrictions, cloud v2 (docs/SERVICE.md, "Restrictions and the log"). Decisions where the documentation is
// silent:
// - Lists are sorted by user id; List Logs is newest first. A place list holds that place's restrictions plus every
//   active universe-level one, shown as inherited (a user with both shows the inherited one).
// - Update replaces gameJoinRestriction as a unit (absent fields take their defaults). startTime is set by the
//   server when a restriction becomes active and kept while it stays active; an inactive restriction has none.
//   The answer is the restriction as written at that level (inherited false), even if a universe ban covers it.
// - Bans do not expire by themselves when their duration has passed.
// - idempotencyKey.key is remembered for 24 h per universe. The same key with the same path, mask and body returns
//   the first answer (no second change, no second log entry); with anything different it is 400. A firstSent that
//   is not RFC 3339 or is older than 24 h is 400.
// - Log entries name the moderator as users/<userId of the API key> and the place as places/N ("" at universe level).
import { invalid } from './errors';
import { isObject, readJson, sendJson, type Ctx, type Route } from './http';
import { iso, parseTime } from './clock';
import { pageSize, pathId, text } from './params';
import { RATES } from './ratelimit';
import { IDEMPOTENCY_MS, type LogRec, type Restriction, type Universe } from './records';

const READ = 'universe.user-restriction:read';
const WRITE = 'universe.user-restriction:write';
const MAX_DURATION_S = 315_576_000_000;
const MAX_PRIVATE_REASON = 1000;
const MAX_DISPLAY_REASON = 400;
const MAX_BODY_BYTES = 64 * 1024;
const pageRule = { fallback: 10, max: 100, zeroIsDefault: true };

interface Target {
  u: number;
  place?: number;
  user: number;
}

function target(ctx: Ctx): Target {
  return {
    u: ctx.universeId,
    place: ctx.params.placeId === undefined ? undefined : pathId(ctx, 'placeId', 'Place ID'),
    user: pathId(ctx, 'userId', 'User ID'),
  };
}

const resourcePath = (t: Target): string =>
  t.place === undefined
    ? `universes/${t.u}/user-restrictions/${t.user}`
    : `universes/${t.u}/places/${t.place}/user-restrictions/${t.user}`;

function render(t: Target, r: Restriction | undefined, inherited: boolean): Record<string, unknown> {
  return {
    path: resourcePath(t),
    ...(r && { updateTime: r.updateTime }),
    user: `users/${t.user}`,
    gameJoinRestriction: {
      active: r?.active ?? false,
      ...(r?.startTime && { startTime: r.startTime }),
      ...(r?.duration && { duration: r.duration }),
      privateReason: r?.privateReason ?? '',
      displayReason: r?.displayReason ?? '',
      excludeAltAccounts: r?.excludeAltAccounts ?? false,
      inherited,
    },
  };
}

/** What Get shows: at a place, an active universe ban wins and is inherited. Never banned: the inactive default. */
function effective(u: Universe | undefined, t: Target): Record<string, unknown> {
  const universeBan = u?.bans.get(t.user);
  if (t.place !== undefined && universeBan?.active) return render(t, universeBan, true);
  return render(t, t.place === undefined ? universeBan : u?.placeBans.get(t.place)?.get(t.user), false);
}

function readPageToken(ctx: Ctx, kind: string, binding: unknown[]): unknown {
  const token = text(ctx, 'pageToken', { allowEmpty: true });
  if (!token) return undefined;
  const position = ctx.app.tokens.read(token, kind, binding);
  if (position === undefined)
    throw invalid('Invalid pageToken: it was not issued for this request and its parameters.');
  return position;
}

function list(ctx: Ctx): void {
  const place = ctx.params.placeId === undefined ? undefined : pathId(ctx, 'placeId', 'Place ID');
  const size = pageSize(ctx, 'maxPageSize', pageRule);
  const binding = [ctx.universeId, place ?? null];
  const after = (readPageToken(ctx, 'restrictions', binding) as number | undefined) ?? 0;
  const u = ctx.app.store.universes.get(ctx.universeId);
  const users = new Set<number>();
  if (u && place === undefined) for (const id of u.bans.keys()) users.add(id);
  if (u && place !== undefined) {
    for (const id of u.placeBans.get(place)?.keys() ?? []) users.add(id);
    for (const [id, r] of u.bans) if (r.active) users.add(id);
  }
  const ids = [...users].filter((id) => id > after).sort((a, b) => a - b);
  const page = ids.slice(0, size);
  sendJson(ctx, 200, {
    userRestrictions: page.map((user) => effective(u, { u: ctx.universeId, place, user })),
    ...(ids.length > size && { nextPageToken: ctx.app.tokens.issue('restrictions', binding, page[page.length - 1]) }),
  });
}

function get(ctx: Ctx): void {
  const t = target(ctx);
  sendJson(ctx, 200, effective(ctx.app.store.universes.get(t.u), t));
}

type Input = Omit<Restriction, 'updateTime' | 'startTime'>;

function field<T>(g: Record<string, unknown>, name: string, type: 'boolean' | 'string', fallback: T): T {
  const v = g[name];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== type) throw invalid(`gameJoinRestriction.${name} must be a ${type}.`);
  return v as T;
}

function reason(g: Record<string, unknown>, name: string, max: number): string {
  const v = field(g, name, 'string', '');
  if ([...v].length > max) throw invalid(`gameJoinRestriction.${name} is longer than ${max} characters.`);
  return v;
}

function parseInput(body: unknown): Input {
  const g = isObject(body) ? body.gameJoinRestriction : undefined;
  if (!isObject(g)) throw invalid('The body must be a UserRestriction with a gameJoinRestriction object.');
  const durationText = field<string | undefined>(g, 'duration', 'string', undefined);
  let duration: string | undefined;
  if (durationText !== undefined) {
    const m = /^(\d{1,15})s$/.exec(durationText);
    const seconds = m ? Number(m[1]) : NaN;
    if (!(seconds >= 1 && seconds <= MAX_DURATION_S)) {
      throw invalid(`gameJoinRestriction.duration must be whole seconds from 1s to ${MAX_DURATION_S}s, like "3600s".`);
    }
    duration = `${seconds}s`;
  }
  return {
    active: field(g, 'active', 'boolean', false),
    duration,
    privateReason: reason(g, 'privateReason', MAX_PRIVATE_REASON),
    displayReason: reason(g, 'displayReason', MAX_DISPLAY_REASON),
    excludeAltAccounts: field(g, 'excludeAltAccounts', 'boolean', false),
  };
}

async function update(ctx: Ctx): Promise<void> {
  const t = target(ctx);
  const mask = text(ctx, 'updateMask', { allowEmpty: true });
  if (mask && mask !== 'gameJoinRestriction' && mask !== 'game_join_restriction') {
    throw invalid(
      'updateMask may only be gameJoinRestriction (paths inside it, such as gameJoinRestriction.active, are not supported).',
    );
  }
  const key = text(ctx, 'idempotencyKey.key', { allowEmpty: true }) || undefined;
  const firstSent = text(ctx, 'idempotencyKey.firstSent', { allowEmpty: true }) || undefined;
  const now = ctx.app.clock.now();
  if (firstSent !== undefined) {
    const sent = parseTime(firstSent);
    if (sent === undefined) throw invalid('idempotencyKey.firstSent must be an RFC 3339 timestamp.');
    if (now - sent > IDEMPOTENCY_MS)
      throw invalid('idempotencyKey.firstSent is older than the key lifetime (24 hours).');
  }
  const body = await readJson(ctx, MAX_BODY_BYTES);
  const input = parseInput(body);
  const store = ctx.app.store;
  const u = store.universe(t.u);
  const fingerprint = JSON.stringify([resourcePath(t), body]);
  const remembered = key === undefined ? undefined : u.idem.get(key);
  if (remembered && now - remembered.at < IDEMPOTENCY_MS) {
    if (remembered.fp !== fingerprint) throw invalid('idempotencyKey.key was already used for a different request.');
    return sendJson(ctx, 200, remembered.body);
  }
  const previous = t.place === undefined ? u.bans.get(t.user) : u.placeBans.get(t.place)?.get(t.user);
  const nowIso = iso(now);
  const startTime = input.active ? (previous?.active && previous.startTime) || nowIso : undefined;
  const r: Restriction = { updateTime: nowIso, ...input, startTime };
  const log: LogRec = {
    seq: store.seq + 1,
    json: {
      user: `users/${t.user}`,
      place: t.place === undefined ? '' : `places/${t.place}`,
      moderator: { platformUser: `users/${ctx.key.userId ?? 1}` },
      createTime: nowIso,
      active: r.active,
      ...(startTime && { startTime }),
      ...(r.duration && { duration: r.duration }),
      privateReason: r.privateReason,
      displayReason: r.displayReason,
      restrictionType: { gameJoinRestriction: {} },
      excludeAltAccounts: r.excludeAltAccounts,
    },
  };
  const answer = render(t, r, false);
  store.commit([
    { t: 'ban', u: t.u, place: t.place, user: t.user, r },
    { t: 'log', u: t.u, log },
    ...(key === undefined
      ? []
      : [{ t: 'idem' as const, u: t.u, key, rec: { fp: fingerprint, at: now, body: answer } }]),
  ]);
  sendJson(ctx, 200, answer);
}

const CLAUSE = /^\s*(user|place)\s*==\s*(['"])((users|places)\/[1-9]\d{0,15})\2\s*$/;

/** `user == 'users/N'` and/or `place == 'places/N'`, joined by &&, either quote, any order. */
function parseFilter(filter: string): { user?: string; place?: string } {
  const out: { user?: string; place?: string } = {};
  if (filter.trim() === '') return out;
  for (const clause of filter.split('&&')) {
    const m = CLAUSE.exec(clause);
    const fieldName = m?.[1] as 'user' | 'place' | undefined;
    if (!m || !fieldName || m[4] !== `${fieldName}s` || out[fieldName] !== undefined) {
      throw invalid(`Unsupported filter. Use user == 'users/<id>' and/or place == 'places/<id>', joined by &&.`);
    }
    out[fieldName] = m[3];
  }
  return out;
}

function listLogs(ctx: Ctx): void {
  const filter = parseFilter(text(ctx, 'filter', { allowEmpty: true }) ?? '');
  const size = pageSize(ctx, 'maxPageSize', pageRule);
  const binding = [ctx.universeId, filter.user ?? null, filter.place ?? null];
  const before = (readPageToken(ctx, 'logs', binding) as number | undefined) ?? Infinity;
  const logs = ctx.app.store.universes.get(ctx.universeId)?.logs ?? [];
  const page: LogRec[] = [];
  let more = false;
  for (let i = logs.length - 1; i >= 0; i--) {
    const log = logs[i];
    if (log.seq >= before) continue;
    if ((filter.user && log.json.user !== filter.user) || (filter.place && log.json.place !== filter.place)) continue;
    if (page.length === size) {
      more = true;
      break;
    }
    page.push(log);
  }
  sendJson(ctx, 200, {
    logs: page.map((l) => l.json),
    ...(more && { nextPageToken: ctx.app.tokens.issue('logs', binding, page[page.length - 1].seq) }),
  });
}

const BASE = '/cloud/v2/universes/{universeId}';
const route = (method: string, path: string, handle: Route['handle'], scope: string, rate: Route['rate']): Route => ({
  method,
  path: BASE + path,
  family: 'v2',
  scopes: [scope],
  rate,
  handle,
});

export const restrictionRoutes: Route[] = [
  route('GET', '/user-restrictions', list, READ, [RATES.urList]),
  route('GET', '/places/{placeId}/user-restrictions', list, READ, [RATES.urList]),
  route('GET', '/user-restrictions:listLogs', listLogs, READ, [RATES.urLogs]),
  route('GET', '/user-restrictions/{userId}', get, READ, [RATES.urGet]),
  route('GET', '/places/{placeId}/user-restrictions/{userId}', get, READ, [RATES.urGet]),
  route('PATCH', '/user-restrictions/{userId}', update, WRITE, [RATES.urUpdate, RATES.urUser]),
  route('PATCH', '/places/{placeId}/user-restrictions/{userId}', update, WRITE, [RATES.urUpdate, RATES.urUser]),
];
