// universe-explorer bans list|ban|unban: a universe's (or a place's) user restrictions.
import {
  describeDuration,
  DurationError,
  parseDuration,
  type GameJoinRestrictionInput,
  type UserRestriction,
} from '../../api';
import type { Command, Context } from '../command';
import { connect, failure } from '../connect';
import { CONNECTION, flag, OUTPUT, required, text, type Options, type Values } from '../options';
import { EXIT, UsageError } from '../output';
import { count } from './words';

const PLACE: Options = {
  place: { type: 'string', value: '<id>', help: 'a place of the universe instead of the whole universe' },
};
const USER: Options = { user: { type: 'string', value: '<id>', help: 'the user, by id' } };

/** `--duration`'s `7d`, `12h`, `1h30m`, `3600s` as whole seconds; a bad one is a usage error. */
export function durationSeconds(typed: string): number {
  try {
    return parseDuration(typed);
  } catch (error) {
    if (error instanceof DurationError) throw new UsageError(`--duration: ${error.message}`);
    throw error;
  }
}

const idOf = (values: Values, name: string): string | undefined => {
  const v = text(values, name);
  if (v !== undefined && !/^\d{1,19}$/.test(v)) throw new UsageError(`--${name}: ${JSON.stringify(v)} is not an id`);
  return v;
};

const userOf = (values: Values): string => {
  required(values, 'user', 'the user id, e.g. --user 2001');
  return idOf(values, 'user')!;
};

const where = (universe: string, place: string | undefined): string =>
  place === undefined ? `universe ${universe}` : `place ${place} of universe ${universe}`;

const restrictionJson = (r: UserRestriction) => {
  const g = r.gameJoinRestriction;
  return {
    user: r.user.replace(/^users\//, ''),
    active: g.active,
    ...(g.startTime ? { startTime: g.startTime } : {}),
    ...(g.duration ? { duration: g.duration } : {}),
    privateReason: g.privateReason,
    displayReason: g.displayReason,
    excludeAltAccounts: g.excludeAltAccounts,
    inherited: g.inherited,
  };
};

const describe = (r: ReturnType<typeof restrictionJson>): string =>
  `user ${r.user}: ${r.active ? `banned, ${describeDuration(r.duration)}` : 'not banned'}` +
  `${r.startTime ? ` from ${r.startTime}` : ''}${r.privateReason ? ` (${r.privateReason})` : ''}`;

export const bansList: Command = {
  name: 'bans list',
  summary: "list a universe's (or a place's) banned users",
  usage: ['--universe <id> [--place <id>] [--all] [options]'],
  about: 'Lists the users banned from the universe or place; --all also lists restrictions that were lifted.',
  options: [
    ['Connection', CONNECTION],
    ['Bans', { ...PLACE, all: { type: 'boolean', help: 'also lifted restrictions (active false)' } }],
    ['Output', OUTPUT],
  ],
  json:
    '  {"command":"bans list","exitCode":0,"universe":"123456","place":"…" (when given),"restrictions":[{"user":"2001",\n' +
    '   "active":true,"startTime":"…","duration":"604800s" (absent: permanent),"privateReason":"…","displayReason":"…",\n' +
    '   "excludeAltAccounts":false,"inherited":false}]}',
  async run(ctx) {
    const place = idOf(ctx.values, 'place');
    const { client, universe } = await connect(ctx);
    const restrictions: ReturnType<typeof restrictionJson>[] = [];
    try {
      for await (const r of client.restrictions.list(
        { universeId: universe, placeId: place },
        { signal: ctx.signal },
      )) {
        if (flag(ctx.values, 'all') || r.gameJoinRestriction.active) restrictions.push(restrictionJson(r));
      }
    } catch (error) {
      throw failure(`cannot list the bans of ${where(universe, place)}`, error);
    }
    for (const r of restrictions) ctx.out.say(describe(r));
    const what = flag(ctx.values, 'all') ? 'restriction' : 'banned user';
    ctx.out.say(`${count(restrictions.length, what)} in ${where(universe, place)}.`);
    return ctx.out.finish({ universe, ...(place ? { place } : {}), restrictions }, EXIT.done);
  },
};

/** One PATCH of the user's restriction; the JSON result of the command. */
async function write(ctx: Context, input: GameJoinRestrictionInput, verb: string): Promise<object> {
  const place = idOf(ctx.values, 'place');
  const user = userOf(ctx.values);
  const { client, universe } = await connect(ctx);
  try {
    const r = await client.restrictions.update(
      {
        universeId: universe,
        placeId: place,
        userId: user,
        gameJoinRestriction: input,
        updateMask: 'gameJoinRestriction',
      },
      { signal: ctx.signal },
    );
    const restriction = restrictionJson(r);
    ctx.out.say(`${describe(restriction)} in ${where(universe, place)}.`);
    return { universe, ...(place ? { place } : {}), restriction };
  } catch (error) {
    throw failure(`cannot ${verb} user ${user} in ${where(universe, place)}`, error);
  }
}

const writeJson = (command: string): string =>
  `  {"command":"${command}","exitCode":0,"universe":"123456","place":"…" (when given),\n` +
  '   "restriction":{"user":"2001","active":true,… as in bans list}}';

export const bansBan: Command = {
  name: 'bans ban',
  summary: 'ban a user from the universe or a place',
  usage: ['--universe <id> --user <id> [--duration <d>] [--reason <text>] [--display-reason <text>] [options]'],
  about: 'Bans the user (permanently unless --duration is given). The restriction log keeps a record of the change.',
  options: [
    ['Connection', CONNECTION],
    [
      'Ban',
      {
        ...USER,
        ...PLACE,
        duration: { type: 'string', value: '<d>', help: 'how long, e.g. 90m, 12h, 7d, 1h30m (default permanent)' },
        reason: { type: 'string', value: '<text>', help: 'the private reason, for moderators' },
        'display-reason': { type: 'string', value: '<text>', help: 'the reason shown to the user' },
        'exclude-alt-accounts': { type: 'boolean', help: "do not ban the user's alternate accounts" },
      },
    ],
    ['Output', OUTPUT],
  ],
  json: writeJson('bans ban'),
  examples: ['universe-explorer bans ban --universe 123456 --user 2001 --duration 7d --reason "chargeback"'],
  async run(ctx) {
    const typed = text(ctx.values, 'duration');
    const input: GameJoinRestrictionInput = {
      active: true,
      duration: typed === undefined ? undefined : durationSeconds(typed),
      privateReason: text(ctx.values, 'reason') ?? '',
      displayReason: text(ctx.values, 'display-reason') ?? '',
      excludeAltAccounts: flag(ctx.values, 'exclude-alt-accounts'),
    };
    return ctx.out.finish(await write(ctx, input, 'ban'), EXIT.done);
  },
};

export const bansUnban: Command = {
  name: 'bans unban',
  summary: 'lift a user’s ban from the universe or a place',
  usage: ['--universe <id> --user <id> [--reason <text>] [options]'],
  about:
    'Lifts the ban; the user can join again at once. The restriction log keeps a record of the ban and the change.',
  options: [
    ['Connection', CONNECTION],
    ['Unban', { ...USER, ...PLACE, reason: { type: 'string', value: '<text>', help: 'a private note' } }],
    ['Output', OUTPUT],
  ],
  json: writeJson('bans unban'),
  async run(ctx) {
    const input: GameJoinRestrictionInput = {
      active: false,
      privateReason: text(ctx.values, 'reason') ?? '',
      displayReason: '',
    };
    return ctx.out.finish(await write(ctx, input, 'unban'), EXIT.done);
  },
};
