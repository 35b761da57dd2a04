// universe-explorer bans ban-many | unban-everywhere | apply: bans of many users. The first two write a plan file (what
// each user and target holds now and what changes; nothing is sent to the service but reads); `bans apply <plan>`
// runs one, paced under the service's limits, and an apply run again goes on where it stopped and sends nothing twice.
import fs = require('node:fs');
import {
  applyBans,
  BAN_PLAN_FORMAT,
  banPlanText,
  readBanPlanText,
  countChanges,
  describeTarget,
  isWrite,
  parseBanList,
  planBans,
  planUnbanEverywhere,
  type BanChange,
  type BanPlan,
  type BanPlanFile,
  type BanTarget,
} from '../../api';
import type { Command, Context } from '../command';
import { clientOf, connect, failure } from '../connect';
import { CONNECTION, flag, OUTPUT, required, text, type Options, type Values } from '../options';
import { EXIT, UsageError, type ExitCode } from '../output';
import { durationSeconds } from './bans';
import { count } from './words';

const CHANGE_WORDS: Record<BanChange, string> = {
  new: 'new ban',
  longer: 'longer ban',
  shorter: 'shorter ban',
  changed: 'other reasons',
  lift: 'lift',
  same: 'skipped: already banned the same way',
  notBanned: 'skipped: not banned',
  inherited: "skipped: the universe's ban",
};

/** Ids in a comma-separated option, each a whole number above 0. */
function ids(values: Values, name: string): number[] {
  const v = text(values, name);
  if (v === undefined) return [];
  return v.split(',').map((s) => {
    const id = Number(s.trim());
    if (!/^\d{1,16}$/.test(s.trim()) || !Number.isSafeInteger(id) || id < 1)
      throw new UsageError(`--${name}: ${JSON.stringify(s.trim())} is not an id`);
    return id;
  });
}

/** The list: a file (`-` reads stdin) or ids given inline. */
function readList(values: Values) {
  const file = text(values, 'list');
  const inline = text(values, 'users');
  if ((file === undefined) === (inline === undefined))
    throw new UsageError('give the users with --list <file> or --users <id,id,…> (one of the two)');
  let input = inline ?? '';
  if (file !== undefined) {
    try {
      input = fs.readFileSync(file === '-' ? 0 : file, 'utf8');
    } catch (error) {
      throw new UsageError(`--list: cannot read ${file}: ${(error as Error).message}`);
    }
  }
  const list = parseBanList(input);
  if (!list.rows.length)
    throw new UsageError(`the list names no user${list.problems.length ? ' it can use (see above)' : ''}`);
  return list;
}

function writePlan(ctx: Context, file: string, plan: BanPlanFile): ExitCode {
  for (const p of plan.problems) ctx.out.note(`line ${p.line}: ${p.reason}: ${p.text}`);
  try {
    fs.writeFileSync(file, banPlanText(plan), { flag: 'wx' });
  } catch (error) {
    const why =
      (error as NodeJS.ErrnoException).code === 'EEXIST' ? 'it exists (pick another name)' : (error as Error).message;
    throw new UsageError(`--plan: cannot write ${file}: ${why}`);
  }
  const counts = countChanges(plan);
  for (const [change, n] of Object.entries(counts)) ctx.out.say(`  ${n} ${CHANGE_WORDS[change as BanChange]}`);
  const writes = plan.actions.filter(isWrite).length;
  ctx.out.say(
    `Planned ${count(plan.actions.length, 'action')} at ${count(plan.targets.length, 'target')} (${count(writes, 'write')}); ` +
      `${count(plan.problems.length, 'line')} of the list not used. Nothing was written.`,
  );
  ctx.out.say(`Apply it with: universe-explorer bans apply ${file}`);
  const code = plan.problems.length ? EXIT.partly : EXIT.done;
  return ctx.out.finish({ plan: file, actions: plan.actions.length, writes, counts, problems: plan.problems }, code);
}

const LIST: Options = {
  list: {
    type: 'string',
    value: '<file>',
    help: 'the users: one id per line, or CSV with userId, duration, … (- reads stdin)',
  },
  users: { type: 'string', value: '<id,…>', help: 'the users, instead of --list' },
  plan: { type: 'string', value: '<file>', help: 'where the plan goes (a new file)' },
};

export const bansBanMany: Command = {
  name: 'bans ban-many',
  summary: 'plan banning many users from a universe, its places and other universes (nothing is written)',
  usage: [
    '--universe <id> (--list <file> | --users <ids>) --plan <file> [--places <ids>] [--also-universes <ids>] [options]',
  ],
  about:
    "Reads each target's bans and writes a plan: per user and target, a new ban, a longer or shorter one, or skipped " +
    '(already banned the same way). A line of the list may set its own duration and reasons (CSV columns userId, ' +
    'duration, displayReason, privateReason, excludeAltAccounts, header optional); the options give the rest. ' +
    'Lines that cannot be used are listed by number. Apply the plan with bans apply.',
  options: [
    ['Connection', CONNECTION],
    [
      'Ban',
      {
        ...LIST,
        places: { type: 'string', value: '<id,…>', help: 'places of the universe to ban from too' },
        'also-universes': { type: 'string', value: '<id,…>', help: 'other universes of the same key to ban from too' },
        duration: { type: 'string', value: '<d>', help: 'how long, e.g. 12h, 7d, 1h30m (default permanent)' },
        reason: { type: 'string', value: '<text>', help: 'the private reason, for moderators' },
        'display-reason': { type: 'string', value: '<text>', help: 'the reason shown to the user' },
        'exclude-alt-accounts': { type: 'boolean', help: "do not ban the users' alternate accounts" },
      },
    ],
    ['Output', OUTPUT],
  ],
  json: '  {"command":"bans ban-many","exitCode":0,"plan":"<file>","actions":4000,"writes":3990,"counts":{"new":3990,"same":10},"problems":[{"line":7,"text":"…","reason":"…"}]}',
  exits: '3: the plan was written, but lines of the list could not be used (listed)',
  examples: [
    'universe-explorer bans ban-many --universe 123456 --places 1234561,1234562 --list raid.csv --duration 7d --reason "raid 11/26" --plan raid-bans.json',
  ],
  async run(ctx) {
    const file = required(ctx.values, 'plan', 'the plan file to write, e.g. --plan bans.json');
    const list = readList(ctx.values);
    const typed = text(ctx.values, 'duration');
    const seconds = typed === undefined ? null : durationSeconds(typed);
    const { client, universe } = await connect(ctx);
    const u = Number(universe);
    const targets: BanTarget[] = [
      { universeId: u },
      ...ids(ctx.values, 'places').map((placeId) => ({ universeId: u, placeId })),
      ...ids(ctx.values, 'also-universes').map((universeId) => ({ universeId })),
    ];
    const defaults = {
      durationSeconds: seconds,
      displayReason: text(ctx.values, 'display-reason') ?? '',
      privateReason: text(ctx.values, 'reason') ?? '',
      excludeAltAccounts: flag(ctx.values, 'exclude-alt-accounts'),
    };
    ctx.out.progress(`reading the bans of ${count(targets.length, 'target')}…`);
    let plan: BanPlan;
    try {
      plan = await planBans(client, { kind: 'ban', rows: list.rows, targets, defaults, signal: ctx.signal });
    } catch (error) {
      throw failure(`cannot plan the bans in ${targets.map(describeTarget).join(', ')}`, error);
    }
    return writePlan(ctx, file, { format: BAN_PLAN_FORMAT, ...plan, problems: list.problems });
  },
};

export const bansUnbanEverywhere: Command = {
  name: 'bans unban-everywhere',
  summary: "plan lifting users' bans in every universe and place where they hold (nothing is written)",
  usage: ['--universe <id> (--list <file> | --users <ids>) --plan <file> [--also-universes <ids>] [options]'],
  about:
    "Finds each user's ban in the universes named and at each place where their restriction log shows one (the " +
    'service cannot list places), and writes a plan that lifts each. Apply it with bans apply.',
  options: [
    ['Connection', CONNECTION],
    [
      'Unban',
      {
        ...LIST,
        'also-universes': { type: 'string', value: '<id,…>', help: 'other universes of the same key to look in' },
      },
    ],
    ['Output', OUTPUT],
  ],
  json: '  {"command":"bans unban-everywhere","exitCode":0,"plan":"<file>","actions":3,"writes":3,"counts":{"lift":3},"problems":[]}',
  exits: '3: the plan was written, but lines of the list could not be used (listed)',
  async run(ctx) {
    const file = required(ctx.values, 'plan', 'the plan file to write, e.g. --plan unbans.json');
    const list = readList(ctx.values);
    const { client, universe } = await connect(ctx);
    const universeIds = [Number(universe), ...ids(ctx.values, 'also-universes')];
    ctx.out.progress(`looking for the bans of ${count(list.rows.length, 'user')}…`);
    let plan: Awaited<ReturnType<typeof planUnbanEverywhere>>;
    try {
      plan = await planUnbanEverywhere(client, {
        universeIds,
        userIds: list.rows.map((r) => r.userId),
        signal: ctx.signal,
      });
    } catch (error) {
      throw failure(`cannot look for the bans in universe ${universeIds.join(', ')}`, error);
    }
    if (plan.clear.length) ctx.out.say(`Banned nowhere: ${plan.clear.join(', ')}.`);
    return writePlan(ctx, file, { format: BAN_PLAN_FORMAT, ...plan, problems: list.problems });
  },
};

function readPlanFile(file: string): BanPlanFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the plan ${file}: ${(error as Error).message}`);
  }
  try {
    return readBanPlanText(text);
  } catch (error) {
    throw new UsageError(`cannot read the plan ${file}: ${(error as Error).message}`);
  }
}

export const bansApply: Command = {
  name: 'bans apply',
  summary: 'run a plan of bans ban-many or bans unban-everywhere',
  usage: ['<plan> [options]'],
  positionals: 1,
  about:
    "Writes each planned change, paced at the service's limits (10 updates a second per universe, 2 a minute per " +
    'user). Each write is noted in <plan>.journal first: after a stop (Ctrl+C, a crash), apply the same plan again to ' +
    'go on; what was done is not sent again.',
  options: [
    ['Connection (the universes are read from the plan)', CONNECTION],
    ['Output', OUTPUT],
  ],
  json: '  {"command":"bans apply","exitCode":0,"written":3990,"earlier":0,"skipped":10,"failures":[{"user":2001,"where":"universe 123456","reason":"…"}]}',
  exits: '3: some writes failed (listed); apply the plan again to retry them',
  async run(ctx) {
    const file = ctx.positionals[0];
    if (!file) throw new UsageError('name the plan to apply, e.g. universe-explorer bans apply bans.json');
    const plan = readPlanFile(file);
    const client = await clientOf(ctx);
    const writes = plan.actions.filter(isWrite).length;
    const result = await applyBans(client, plan, {
      journalFile: `${file}.journal`,
      signal: ctx.signal,
      onProgress: (p) => ctx.out.progress(`${p.done + p.failed} of ${p.toWrite} written…`),
    }).catch((error: unknown) => {
      if (ctx.signal.aborted) ctx.out.note(`Stopped; apply ${file} again to go on where it stopped.`);
      throw failure(`cannot apply ${file}`, error);
    });
    for (const f of result.failures) ctx.out.note(`user ${f.userId} in ${f.where}: ${f.reason}`);
    ctx.out.say(
      `Wrote ${count(result.written, 'change')}` +
        `${result.earlier ? ` (${result.earlier} done by an earlier run)` : ''}; ${result.skipped} skipped by the plan; ` +
        `${count(result.failures.length, 'failure')} of ${writes}.`,
    );
    const failures = result.failures.map((f) => ({ user: f.userId, where: f.where, reason: f.reason }));
    const code = result.failures.length ? EXIT.partly : EXIT.done;
    return ctx.out.finish(
      { written: result.written, earlier: result.earlier, skipped: result.skipped, failures },
      code,
    );
  },
};
