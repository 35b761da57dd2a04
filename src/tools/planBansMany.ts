// The plan tools of bans of many users. Each WRITES NOTHING to the service: it reads each target's restrictions and
// writes a ban plan file (api/bans/planFile.ts, the one every face writes) in a new plan folder; apply_plan runs it
// with applyBans, paced and journaled.
import fsp = require('node:fs/promises');
import path = require('node:path');
import * as z from 'zod/mini';
import {
  BAN_PLAN_FORMAT,
  banPlanText,
  countChanges,
  describeTarget,
  isWrite,
  MAX_DISPLAY_REASON,
  MAX_PRIVATE_REASON,
  parseBanList,
  planBans,
  planUnbanEverywhere,
  type BanList,
  type BanPlanFile,
  type BanTarget,
  type OpenApiClient,
} from '../api';
import { durationSeconds } from './planBans';
import { newPlan, writeManifest, type PlanKind } from './plans';
import { about, bounded, named, tool, ToolError, universeField, type Tool, type ToolContext } from './types';

/** Users one plan takes at most. */
const MAX_USERS = 10_000;
/** Places, and other universes, one plan takes at most. */
const MAX_TARGETS = 50;
/** Unusable lines, and users banned nowhere, a result lists. */
const SHOWN = 20;
/** The plan file in a plan folder; its journal is `<file>.journal` beside it. */
const BANS_FILE = 'bans.plan.json';

const idText = z.string().check(z.regex(/^\d{1,19}$/));
const usersField = about(
  z.union([
    z.array(z.union([z.string(), z.number().check(z.int(), z.positive())])).check(z.maxLength(MAX_USERS)),
    z.string().check(z.maxLength(4_000_000)),
  ]),
  `the users (at most ${MAX_USERS.toLocaleString('en')}): an array of user ids, or a text of ids (one a line, or ` +
    'separated by commas or spaces), or CSV with the columns userId, duration, displayReason, privateReason, ' +
    'excludeAltAccounts (header optional; a line may set its own duration and reasons)',
);
const alsoField = about(
  z.optional(z.array(idText).check(z.maxLength(MAX_TARGETS))),
  `other universes (ids) the same connection reaches, at most ${MAX_TARGETS}`,
);

/** The list the agent gave, read as parseBanList reads one (an array item is a line). */
function listOf(users: (string | number)[] | string): BanList {
  const list = parseBanList(Array.isArray(users) ? users.map(String).join('\n') : users);
  if (list.rows.length > MAX_USERS) {
    throw new ToolError(
      `users: the list names ${list.rows.length.toLocaleString('en')} users, and a plan takes at most ` +
        `${MAX_USERS.toLocaleString('en')}: split the list and make a plan of each part`,
    );
  }
  if (!list.rows.length) {
    const first = list.problems[0];
    throw new ToolError(
      `users: the list names no user it can use${first ? ` (line ${first.line}: ${first.reason})` : ''}: give user ids`,
    );
  }
  return list;
}

/** The client of `universe`, checked to reach each other universe too (the face refuses one it does not serve). */
export async function clientFor(ctx: ToolContext, universe: string, also: string[]): Promise<OpenApiClient> {
  const client = await ctx.client(universe);
  for (const other of also) {
    if ((await ctx.client(other)) !== client) {
      throw new ToolError(
        `universe ${other} is reached through another connection than universe ${universe}: plan it on its own`,
      );
    }
  }
  return client;
}

const unique = (ids: string[]): string[] => [...new Set(ids)];

/** Writes the plan folder: the ban plan file and plan.json naming it. What the plan tools answer. */
async function writeBanPlan(ctx: ToolContext, kind: PlanKind, universe: string, plan: BanPlanFile, summary: string) {
  const folder = await newPlan(ctx.plansDir, kind);
  const bansFile = path.join(folder.dir, BANS_FILE);
  await fsp.writeFile(bansFile, banPlanText(plan));
  await writeManifest(folder, {
    planId: folder.planId,
    kind,
    universe,
    planned: plan.planned,
    summary,
    bansFile: BANS_FILE,
  });
  const writes = plan.actions.filter(isWrite).length;
  const problems = bounded(plan.problems, SHOWN);
  return {
    planId: folder.planId,
    file: folder.file,
    bansFile,
    universe,
    summary,
    targets: plan.targets.map(describeTarget),
    counts: countChanges(plan),
    writes,
    unusedLines: problems.items.map((p) => ({ line: p.line, reason: p.reason, text: p.text })),
    moreUnusedLines: problems.more,
    note:
      `Nothing was written: apply_plan with this planId runs it (${writes} restriction ${writes === 1 ? 'write' : 'writes'}, ` +
      "paced at the service's limits; applying again goes on where a run stopped and sends nothing twice)." +
      (plan.problems.length ? ' The unused lines of the list are not in the plan.' : ''),
  };
}

const planBanMany = tool({
  name: 'plan_ban_many',
  title: 'Plan banning many users',
  description:
    'Plans banning many users (a list of ids or a CSV) from a universe, some of its places and other universes, ' +
    "permanently or for a duration, with reasons. WRITES NOTHING: it reads each target's bans and writes a plan; " +
    'per user and target: new, longer, shorter, changed (other reasons) or same (skipped). Lines of the list that ' +
    'cannot be used are listed by number. apply_plan runs the plan. Returns the planId and the counts.',
  kind: 'plan',
  input: z.object({
    universe: universeField,
    users: usersField,
    places: about(
      z.optional(z.array(idText).check(z.maxLength(MAX_TARGETS))),
      `places of the universe (ids) to ban from too, at most ${MAX_TARGETS}`,
    ),
    alsoUniverses: alsoField,
    duration: about(
      z.optional(z.union([z.string(), z.number().check(z.int(), z.positive())])),
      'how long, for the users whose line sets none: 90m, 12h, 7d, 1h30m, or seconds (default: permanent)',
    ),
    reason: about(
      z.optional(z.string().check(z.maxLength(MAX_PRIVATE_REASON))),
      'the private reason, for moderators (for lines that set none)',
    ),
    displayReason: about(
      z.optional(z.string().check(z.maxLength(MAX_DISPLAY_REASON))),
      'the reason shown to the users (for lines that set none)',
    ),
    excludeAltAccounts: about(z.optional(z.boolean()), "do not ban the users' alternate accounts (default false)"),
  }),
  async run({ universe, users, places, alsoUniverses, duration, reason, displayReason, excludeAltAccounts }, ctx) {
    const list = listOf(users);
    const also = unique(alsoUniverses ?? []).filter((u) => u !== universe);
    const defaults = {
      durationSeconds: duration === undefined ? null : durationSeconds(duration),
      displayReason: displayReason ?? '',
      privateReason: reason ?? '',
      excludeAltAccounts: excludeAltAccounts ?? false,
    };
    const client = await clientFor(ctx, universe, also);
    const targets: BanTarget[] = [
      { universeId: Number(universe) },
      ...unique(places ?? []).map((p) => ({ universeId: Number(universe), placeId: Number(p) })),
      ...also.map((u) => ({ universeId: Number(u) })),
    ];
    const where = targets.map(describeTarget).join(', ');
    const plan = await named(`cannot plan the bans in ${where}`, () =>
      planBans(client, { kind: 'ban', rows: list.rows, targets, defaults, signal: ctx.signal }),
    );
    const how = defaults.durationSeconds === null ? 'permanently' : `for ${defaults.durationSeconds}s`;
    const summary = `ban ${list.rows.length} users from ${where} (${how} unless their line says otherwise)`;
    return writeBanPlan(
      ctx,
      'ban_many',
      universe,
      { format: BAN_PLAN_FORMAT, ...plan, problems: list.problems },
      summary,
    );
  },
});

const planUnbanEverywhereTool = tool({
  name: 'plan_unban_everywhere',
  title: "Plan lifting users' bans everywhere",
  description:
    "Plans lifting many users' bans wherever they hold: in the universe, the other universes named, and each place " +
    "where a user's restriction log shows a ban of their own (the service cannot list a universe's places). " +
    'WRITES NOTHING: it reads the bans and the logs and writes a plan that lifts each ban found; users banned ' +
    'nowhere are listed. apply_plan runs the plan. Returns the planId and the counts.',
  kind: 'plan',
  input: z.object({ universe: universeField, users: usersField, alsoUniverses: alsoField }),
  async run({ universe, users, alsoUniverses }, ctx) {
    const list = listOf(users);
    const also = unique(alsoUniverses ?? []).filter((u) => u !== universe);
    const client = await clientFor(ctx, universe, also);
    const universeIds = [universe, ...also].map(Number);
    const plan = await named(`cannot look for the bans in universe ${universeIds.join(', ')}`, () =>
      planUnbanEverywhere(client, { universeIds, userIds: list.rows.map((r) => r.userId), signal: ctx.signal }),
    );
    const summary =
      `lift the bans of ${list.rows.length} users wherever they hold in universe ${universeIds.join(', ')} ` +
      `and their places (${plan.actions.length} found)`;
    const file: BanPlanFile = { format: BAN_PLAN_FORMAT, ...plan, problems: list.problems };
    const clear = bounded(plan.clear, SHOWN);
    return {
      ...(await writeBanPlan(ctx, 'unban_everywhere', universe, file, summary)),
      bannedNowhere: clear.items.map(String),
      moreBannedNowhere: clear.more,
    };
  },
});

export const PLAN_BANS_MANY_TOOLS: Tool[] = [planBanMany, planUnbanEverywhereTool];
