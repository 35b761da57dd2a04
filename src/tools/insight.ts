// The tools that look across entries and players: a store against a time, a query over the universe's index, a
// player's entries, bans and log, and the restriction log.
import fsp = require('node:fs/promises');
import path = require('node:path');
import * as z from 'zod/mini';
import {
  changedKeys,
  compareWithTime,
  writeComparison,
  type CompareSummary,
  type OpenApiClient,
  type RestrictionLog,
} from '../api';
import { playerEntryRows, QueryError, type UniverseIndex } from '../query';
import { newId } from './plans';
import { requireStore } from './read';
import {
  about,
  bounded,
  cut,
  limitField,
  momentOf,
  named,
  scopeField,
  storeField,
  timeField,
  tool,
  ToolError,
  universeField,
  userField,
  type Tool,
  type ToolContext,
} from './types';

/** Keys a comparison lists in its result; the file holds them all. */
const KEYS_SHOWN = 50;

const compare = tool({
  name: 'compare_with_time',
  title: 'Compare a store with a time',
  description:
    'Compares a data store (one scope or all) now with itself at a time: the counts of keys changed, created and ' +
    'deleted since and unchanged, the first changed keys, and the path of a file listing every key that differs ' +
    '({scope, key, status, then, now}). Use it before plan_restore_to_time to see what a restore would touch. ' +
    'Reads only (the file is written on this machine).',
  kind: 'read',
  input: z.object({
    universe: universeField,
    store: storeField,
    scope: scopeField,
    allScopes: about(z.optional(z.boolean()), 'every scope instead of one'),
    prefix: about(z.optional(z.string()), 'only keys that start with this'),
    time: timeField('the time compared with'),
  }),
  async run({ universe, store, scope, allScopes, prefix, time: typed }, ctx) {
    if (allScopes && scope !== undefined) throw new ToolError('scope and allScopes go apart: give one of them');
    const time = momentOf(typed, 'time');
    const client = await ctx.client(universe);
    const where = `${store} (${allScopes ? 'all scopes' : `scope ${scope ?? 'global'}`}) of universe ${universe}`;
    const dir = path.join(ctx.plansDir, 'comparisons');
    const file = path.join(dir, `${newId('compare')}.ndjson`);
    return named(`cannot compare ${where} with ${time.toISOString()}`, async () => {
      await requireStore(client, universe, store, ctx.signal);
      await fsp.mkdir(dir, { recursive: true });
      const keys: { scope: string; key: string; status: string }[] = [];
      let summary: CompareSummary | undefined;
      const selection = { universeId: universe, datastoreName: store, scope, allScopes, prefix };
      const results = changedKeys(
        compareWithTime(client, selection, time, { signal: ctx.signal, now: new Date() }),
        (s) => (summary = s),
      );
      const tapped = async function* () {
        for await (const c of results) {
          if (keys.length < KEYS_SHOWN) keys.push({ scope: c.scope, key: c.key, status: c.status });
          yield c;
        }
      };
      await writeComparison(file, tapped());
      const { unchanged, changed, created, deleted } = summary!;
      return {
        universe,
        store,
        ...(allScopes ? { allScopes: true } : { scope: scope ?? 'global' }),
        time: time.toISOString(),
        counts: { changed, created, deleted, unchanged },
        keys,
        more: changed + created + deleted - keys.length,
        file,
      };
    });
  },
});

/** A cell as a result shows it: long text cut. */
const cell = (v: unknown): unknown => (typeof v === 'string' ? cut(v, 2000) : v);

const queryIndex = tool({
  name: 'query_index',
  title: 'Query the index',
  description:
    "Runs one SQL statement that reads (SELECT, WITH, DESCRIBE…) over the universe's query index, a local DuckDB " +
    'copy of its data stores built beforehand (it says so when there is none). Tables: entries (store, scope, key, ' +
    'version, created_time, updated_time, user_ids, attributes, value JSON, not_json) and index_info (each build and ' +
    "as of when). JSON fields: value->>'coins'. The index may be older than the service: check with get_entry " +
    'before planning a write. Reads only.',
  kind: 'read',
  input: z.object({
    universe: universeField,
    sql: about(z.string().check(z.minLength(1)), 'one statement that reads'),
    limit: limitField(100, 1000),
  }),
  async run({ universe, sql, limit = 100 }, ctx) {
    const index = await ctx.index(universe);
    try {
      const { columns, rows, truncated } = await index.query(sql, { limit, signal: ctx.signal });
      return { universe, columns, rows: rows.map((r) => r.map(cell)), truncated };
    } catch (error) {
      if (error instanceof QueryError) throw new ToolError(`the query was not run: ${error.message}`);
      throw error;
    }
  },
});

const idOf = (name: string): string => name.replace(/^(users|places)\//, '');

const logJson = (log: RestrictionLog) => ({
  time: log.createTime,
  user: idOf(log.user),
  ...(log.place ? { place: idOf(log.place) } : {}),
  moderator: log.moderator.platformUser
    ? idOf(log.moderator.platformUser)
    : log.moderator.gameServerScript
      ? 'game server script'
      : undefined,
  active: log.active,
  ...(log.startTime ? { startTime: log.startTime } : {}),
  ...(log.active ? { duration: log.duration ?? 'permanent' } : {}),
  privateReason: log.privateReason,
  displayReason: log.displayReason,
  excludeAltAccounts: log.excludeAltAccounts,
});

/** The restriction log, newest first, at most `limit` rows; the cursor of the rest. */
async function readLog(
  client: OpenApiClient,
  args: { universe: string; user?: string; place?: string; limit: number; cursor?: string },
  signal: AbortSignal,
) {
  const logs: ReturnType<typeof logJson>[] = [];
  let next = args.cursor;
  do {
    const page = await client.restrictions.listLogs(
      {
        universeId: args.universe,
        user: args.user,
        place: args.place,
        maxPageSize: Math.min(100, args.limit - logs.length),
        pageToken: next,
      },
      { signal },
    );
    logs.push(...page.items.map(logJson));
    next = page.next;
  } while (next && logs.length < args.limit);
  return { logs: logs.slice(0, args.limit), ...(next ? { cursor: next } : {}) };
}

const restrictionLog = tool({
  name: 'restriction_log',
  title: 'Read the restriction log',
  description:
    "Lists a universe's restriction log (every ban and unban, who made it, the reasons), newest first, for one " +
    'user or place or all. A returned cursor means more follow. Reads only.',
  kind: 'read',
  input: z.object({
    universe: universeField,
    user: about(z.optional(z.string().check(z.regex(/^\d{1,19}$/))), 'only changes of this user (id)'),
    place: about(z.optional(z.string().check(z.regex(/^\d{1,19}$/))), 'only changes at this place (id)'),
    limit: limitField(50, 500),
    cursor: about(z.optional(z.string()), 'where to go on: the cursor a previous call returned'),
  }),
  async run({ universe, user, place, limit = 50, cursor }, ctx) {
    const client = await ctx.client(universe);
    return named(`cannot read the restriction log of universe ${universe}`, async () => ({
      universe,
      ...(await readLog(client, { universe, user, place, limit, cursor }, ctx.signal)),
    }));
  },
});

const restrictionJson = (g: {
  active: boolean;
  startTime?: string;
  duration?: string;
  privateReason: string;
  displayReason: string;
  excludeAltAccounts: boolean;
  inherited?: boolean;
}) => ({
  active: g.active,
  ...(g.active ? { duration: g.duration ?? 'permanent', startTime: g.startTime } : {}),
  privateReason: g.privateReason,
  displayReason: g.displayReason,
  excludeAltAccounts: g.excludeAltAccounts,
  ...(g.inherited ? { inherited: true } : {}),
});

/** The entries the index ties to the user, at most `limit`; without an index, none and why. */
async function indexedEntries(ctx: ToolContext, universe: string, user: string, limit: number) {
  let index: UniverseIndex;
  try {
    index = await ctx.index(universe);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return { entries: [], more: 0, indexNote: error.message };
  }
  const [found, parts] = await Promise.all([
    index.playerEntries(user, { signal: ctx.signal, limit: limit + 1000 }),
    index.info(),
  ]);
  const entries = playerEntryRows(found, Number(user));
  const shown = bounded(entries, limit);
  return {
    index: parts.map((p) => ({ store: p.store, ...(p.scope ? { scope: p.scope } : {}), asOf: p.asOf })),
    entries: shown.items,
    more: shown.more,
    ...(found.truncated
      ? { indexNote: 'the index holds more entries of the user than were read: query_index finds them all' }
      : {}),
  };
}

const showPlayer = tool({
  name: 'show_player',
  title: 'Show a player',
  description:
    'Gathers what a universe holds of one user: the entries the query index ties to them (their key names the id, ' +
    'or their user ids hold it; each with how), their ban at the universe (and at the places given), and their ' +
    'newest restriction log rows. Entries come from the index, which may be older than the service (without an ' +
    'index the answer says so, with the bans and log). Use it before ' +
    'plan_erase_player or plan_ban. Reads only.',
  kind: 'read',
  input: z.object({
    universe: universeField,
    user: userField,
    places: about(z.optional(z.array(z.string().check(z.regex(/^\d{1,19}$/)))), 'place ids whose ban to read too'),
    limit: limitField(50, 500),
  }),
  async run({ universe, user, places = [], limit = 50 }, ctx) {
    const client = await ctx.client(universe);
    const indexed = await indexedEntries(ctx, universe, user, limit);
    const bans = await named(`cannot read the bans of user ${user} in universe ${universe}`, () =>
      Promise.all(
        [undefined, ...places].map(async (place) => {
          const r = await client.restrictions.get(
            { universeId: universe, placeId: place, userId: user },
            { signal: ctx.signal },
          );
          return { ...(place ? { place } : {}), ...restrictionJson(r.gameJoinRestriction) };
        }),
      ),
    );
    const log = await named(`cannot read the restriction log of user ${user}`, () =>
      readLog(client, { universe, user, limit: 20 }, ctx.signal),
    );
    return {
      universe,
      user,
      ...indexed,
      bans,
      log: log.logs,
      ...(log.cursor ? { logCursor: log.cursor } : {}),
    };
  },
});

export const INSIGHT_TOOLS: Tool[] = [compare, queryIndex, showPlayer, restrictionLog];
