// The plan tools of bans. Each WRITES NOTHING to the service: it reads the user's restriction and writes a small
// plan (plan.json) with what it read and what to write; apply_plan writes it only if the restriction is still as read.
import * as z from 'zod/mini';
import {
  DurationError,
  MAX_DURATION_SECONDS,
  parseDuration,
  type GameJoinRestriction,
  type GameJoinRestrictionInput,
} from '../api';
import { newPlan, writeManifest, type BanPlan } from './plans';
import { about, named, tool, ToolError, universeField, userField, type Tool, type ToolContext } from './types';

/** `7d`, `12h`, `1h30m`, `3600s` (or a number of seconds) as whole seconds. */
export function durationSeconds(typed: string | number): number {
  if (typeof typed === 'number') {
    if (Number.isSafeInteger(typed) && typed >= 1 && typed <= MAX_DURATION_SECONDS) return typed;
    throw new ToolError('duration: from 1 second to 10,000 years');
  }
  try {
    return parseDuration(typed);
  } catch (error) {
    if (error instanceof DurationError) throw new ToolError(`duration: ${error.message}`);
    throw error;
  }
}

/** The fields of a restriction a ban plan reads and apply_plan compares. */
export const readOf = (g: GameJoinRestriction): BanPlan['read'] => ({
  active: g.active,
  startTime: g.startTime,
  duration: g.duration,
  privateReason: g.privateReason,
  displayReason: g.displayReason,
  excludeAltAccounts: g.excludeAltAccounts,
});

const where = (universe: string, place: string | undefined): string =>
  place === undefined ? `universe ${universe}` : `place ${place} of universe ${universe}`;

const describe = (r: BanPlan['read']): string =>
  r.active ? `banned (${r.duration ?? 'permanent'}${r.privateReason ? `, ${r.privateReason}` : ''})` : 'not banned';

const placeField = about(
  z.optional(z.string().check(z.regex(/^\d{1,19}$/))),
  'a place of the universe instead of the whole universe (id)',
);

async function planBanChange(
  ctx: ToolContext,
  universe: string,
  user: string,
  place: string | undefined,
  write: GameJoinRestrictionInput,
) {
  const client = await ctx.client(universe);
  const verb = write.active ? 'ban' : 'unban';
  return named(`cannot plan the ${verb} of user ${user} in ${where(universe, place)}`, async () => {
    const current = await client.restrictions.get(
      { universeId: universe, placeId: place, userId: user },
      { signal: ctx.signal },
    );
    const read = readOf(current.gameJoinRestriction);
    const folder = await newPlan(ctx.plansDir, 'ban');
    const change = write.active
      ? `ban user ${user} from ${where(universe, place)} ${write.duration ? `for ${write.duration}s` : 'permanently'}`
      : `lift the ban of user ${user} in ${where(universe, place)}`;
    const summary = `${change} (now ${describe(read)}), if the restriction is still as read`;
    const ban: BanPlan = { ...(place ? { place } : {}), user, read, write };
    await writeManifest(folder, {
      planId: folder.planId,
      kind: 'ban',
      universe,
      planned: new Date().toISOString(),
      summary,
      ban,
    });
    return {
      planId: folder.planId,
      file: folder.file,
      universe,
      summary,
      counts: { write: 1 },
      now: read,
      ...(!write.active && !read.active ? { warning: 'the user is not banned now: applying changes nothing' } : {}),
      note: 'Nothing was written: apply_plan with this planId runs it.',
    };
  });
}

const planBan = tool({
  name: 'plan_ban',
  title: 'Plan a ban',
  description:
    'Plans banning a user from a universe or one of its places, permanently or for a duration, with a private ' +
    'reason (for moderators) and a reason shown to the user. WRITES NOTHING: it reads the current restriction and ' +
    'writes a plan; apply_plan bans only if the restriction is still as read. Returns the planId.',
  kind: 'plan',
  input: z.object({
    universe: universeField,
    user: userField,
    place: placeField,
    duration: about(
      z.optional(z.union([z.string(), z.number().check(z.int(), z.positive())])),
      'how long: 90m, 12h, 7d, 1h30m, or seconds (default: permanent)',
    ),
    reason: about(z.optional(z.string()), 'the private reason, for moderators'),
    displayReason: about(z.optional(z.string()), 'the reason shown to the user'),
    excludeAltAccounts: about(z.optional(z.boolean()), "do not ban the user's alternate accounts (default false)"),
  }),
  async run({ universe, user, place, duration, reason, displayReason, excludeAltAccounts }, ctx) {
    const write: GameJoinRestrictionInput = {
      active: true,
      duration: duration === undefined ? undefined : durationSeconds(duration),
      privateReason: reason ?? '',
      displayReason: displayReason ?? '',
      excludeAltAccounts: excludeAltAccounts ?? false,
    };
    return planBanChange(ctx, universe, user, place, write);
  },
});

const planUnban = tool({
  name: 'plan_unban',
  title: 'Plan lifting a ban',
  description:
    "Plans lifting a user's ban in a universe or one of its places. WRITES NOTHING: it reads the current " +
    'restriction and writes a plan; apply_plan lifts the ban only if the restriction is still as read. The ' +
    'restriction log keeps the ban and its lifting. Returns the planId.',
  kind: 'plan',
  input: z.object({
    universe: universeField,
    user: userField,
    place: placeField,
    reason: about(z.optional(z.string()), 'a private note, for moderators'),
  }),
  async run({ universe, user, place, reason }, ctx) {
    return planBanChange(ctx, universe, user, place, { active: false, privateReason: reason ?? '', displayReason: '' });
  },
});

export const PLAN_BAN_TOOLS: Tool[] = [planBan, planUnban];
