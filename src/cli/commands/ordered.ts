// universe-explorer ordered list|get|set|increment: an ordered data store's whole-number values, by key or by value.
import { MAX_ORDERED_PAGE, NotFoundError, type OrderedEntry, type OpenApiClient } from '../../api';
import type { Command, Context } from '../command';
import { connect, failure } from '../connect';
import { CONNECTION, flag, OUTPUT, required, text, whole, type Options, type Values } from '../options';
import { EXIT, UsageError } from '../output';
import { count } from './words';

const STORE: Options = {
  store: { type: 'string', value: '<name>', help: 'the ordered data store' },
  scope: { type: 'string', value: '<scope>', help: 'the scope (default global)' },
};
const KEY: Options = { key: { type: 'string', value: '<key>', help: 'the entry key' } };

interface Where {
  store: string;
  scope: string;
}

const whereOf = (values: Values): Where => ({
  store: required(values, 'store', 'the ordered data store, e.g. --store Leaderboard'),
  scope: text(values, 'scope') ?? 'global',
});

const describeWhere = (w: Where): string => `ordered store ${w.store} (scope ${w.scope})`;

/** A whole number option, negative allowed (`--value=-5`), within what JSON carries exactly. */
function integer(values: Values, name: string, example: string): number | undefined {
  const v = text(values, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^-?\d+$/.test(v.trim()) || !Number.isSafeInteger(n)) {
    throw new UsageError(`--${name}: ${JSON.stringify(v)} is not a whole number: give e.g. ${example}`);
  }
  return n;
}

const keyOf = (values: Values): string => required(values, 'key', 'the entry key, e.g. --key Player_2001');

export const orderedList: Command = {
  name: 'ordered list',
  summary: "list an ordered data store's entries by value",
  usage: ['--universe <id> --store <name> [--scope <s>] [--desc] [--min <n>] [--max <n>] [--limit <n>] [options]'],
  about:
    'Lists the entries by value, lowest first (--desc: highest first), only values from --min to --max when given ' +
    '(both inclusive). Reads only. Entries of equal value come in no promised order.',
  options: [
    ['Connection', CONNECTION],
    [
      'Store',
      {
        ...STORE,
        desc: { type: 'boolean', help: 'highest value first' },
        min: { type: 'string', value: '<n>', help: 'only values from n' },
        max: { type: 'string', value: '<n>', help: 'only values up to n' },
        limit: { type: 'string', value: '<n>', help: 'at most n entries (default 100)' },
      },
    ],
    ['Output', OUTPUT],
  ],
  json:
    '  {"command":"ordered list","exitCode":0,"universe":"123456","store":"Leaderboard","scope":"global",\n' +
    '   "entries":[{"key":"Player_2001","value":1200}],"more":false}',
  examples: ['universe-explorer ordered list --universe 123456 --store Leaderboard --desc --limit 10'],
  async run(ctx) {
    const where = whereOf(ctx.values);
    const min = integer(ctx.values, 'min', '--min 0');
    const max = integer(ctx.values, 'max', '--max 1000');
    if (min !== undefined && max !== undefined && min > max) {
      throw new UsageError(`--min ${min} is above --max ${max}: give the lower bound to --min`);
    }
    const limit = whole(ctx.values, 'limit', 1, 1_000_000) ?? MAX_ORDERED_PAGE;
    const { client, universe } = await connect(ctx);
    const entries: OrderedEntry[] = [];
    let more = false;
    try {
      const args = {
        universeId: universe,
        datastoreName: where.store,
        scope: where.scope,
        order: flag(ctx.values, 'desc') ? ('desc' as const) : ('asc' as const),
        min,
        max,
        limit: Math.min(limit + 1, MAX_ORDERED_PAGE),
      };
      for await (const e of client.orderedDataStores.listEntries(args, { signal: ctx.signal })) {
        if (entries.length === limit) {
          more = true;
          break;
        }
        entries.push(e);
      }
    } catch (error) {
      throw failure(`cannot list ${describeWhere(where)} of universe ${universe}`, error);
    }
    const width = Math.max(0, ...entries.map((e) => e.key.length));
    for (const e of entries) ctx.out.say(`${e.key.padEnd(width)}  ${e.value}`);
    ctx.out.say(
      `${count(entries.length, 'entry', 'entries')} in ${describeWhere(where)}${more ? '; more follow: raise --limit' : ''}.`,
    );
    return ctx.out.finish({ universe, ...where, entries, more }, EXIT.done);
  },
};

export const orderedGet: Command = {
  name: 'ordered get',
  summary: "read one ordered data store entry's value",
  usage: ['--universe <id> --store <name> [--scope <s>] --key <key> [options]'],
  about: "Prints the entry's value. A missing key fails (exit 1) and says so.",
  options: [
    ['Connection', CONNECTION],
    ['Entry', { ...STORE, ...KEY }],
    ['Output', OUTPUT],
  ],
  json: '  {"command":"ordered get","exitCode":0,"universe":"123456","store":"…","scope":"global","key":"…","value":1200}',
  async run(ctx) {
    const where = whereOf(ctx.values);
    const key = keyOf(ctx.values);
    const { client, universe } = await connect(ctx);
    let entry: OrderedEntry;
    try {
      const args = { universeId: universe, datastoreName: where.store, scope: where.scope, entryKey: key };
      entry = await client.orderedDataStores.getEntry(args, { signal: ctx.signal });
    } catch (error) {
      if (error instanceof NotFoundError) {
        throw new Error(
          `key ${JSON.stringify(key)} is not in ${describeWhere(where)}: check --key, --store and --scope ` +
            '(names are case-sensitive), or list the keys with ordered list',
          { cause: error },
        );
      }
      throw failure(`cannot read key ${JSON.stringify(key)} of ${describeWhere(where)}`, error);
    }
    ctx.out.say(`${entry.key}: ${entry.value}`);
    return ctx.out.finish({ universe, ...where, key: entry.key, value: entry.value }, EXIT.done);
  },
};

type EntryArgs = { universeId: string; datastoreName: string; scope: string; entryKey: string };

/** One write of an entry, reported as `key: value`; the JSON result of the command. */
async function write(
  ctx: Context,
  verb: string,
  send: (client: OpenApiClient, args: EntryArgs) => Promise<OrderedEntry>,
): Promise<object> {
  const where = whereOf(ctx.values);
  const key = keyOf(ctx.values);
  const { client, universe } = await connect(ctx);
  let entry: OrderedEntry;
  try {
    entry = await send(client, { universeId: universe, datastoreName: where.store, scope: where.scope, entryKey: key });
  } catch (error) {
    throw failure(`cannot ${verb} key ${JSON.stringify(key)} of ${describeWhere(where)}`, error);
  }
  ctx.out.say(`${entry.key}: ${entry.value} in ${describeWhere(where)}.`);
  return { universe, ...where, key: entry.key, value: entry.value };
}

export const orderedSet: Command = {
  name: 'ordered set',
  summary: "set an ordered data store entry's value (created when missing)",
  usage: ['--universe <id> --store <name> [--scope <s>] --key <key> --value <n> [options]'],
  about:
    'Sets the value, creating the key when it is missing. Ordered stores keep no versions: the value replaced is ' +
    'gone. A negative value is given as --value=-5.',
  options: [
    ['Connection', CONNECTION],
    ['Entry', { ...STORE, ...KEY, value: { type: 'string', value: '<n>', help: 'the whole-number value' } }],
    ['Output', OUTPUT],
  ],
  json: '  {"command":"ordered set","exitCode":0,"universe":"123456","store":"…","scope":"global","key":"…","value":1200}',
  async run(ctx) {
    required(ctx.values, 'value', 'the whole-number value, e.g. --value 1200');
    const value = integer(ctx.values, 'value', '--value 1200')!;
    const result = await write(ctx, 'set', (client, args) =>
      client.orderedDataStores.updateEntry({ ...args, value, allowMissing: true }, { signal: ctx.signal }),
    );
    return ctx.out.finish(result, EXIT.done);
  },
};

export const orderedIncrement: Command = {
  name: 'ordered increment',
  summary: 'add to an ordered data store entry’s value (created when missing)',
  usage: ['--universe <id> --store <name> [--scope <s>] --key <key> --by <n> [options]'],
  about:
    'Adds --by to the value (a negative amount is given as --by=-5); a missing key is created holding it. Prints ' +
    'the new value. Not repeated on a lost answer: run ordered get before running it again.',
  options: [
    ['Connection', CONNECTION],
    ['Entry', { ...STORE, ...KEY, by: { type: 'string', value: '<n>', help: 'the whole number to add' } }],
    ['Output', OUTPUT],
  ],
  json:
    '  {"command":"ordered increment","exitCode":0,"universe":"123456","store":"…","scope":"global","key":"…",' +
    '"value":1210}',
  async run(ctx) {
    required(ctx.values, 'by', 'the whole number to add, e.g. --by 10');
    const amount = integer(ctx.values, 'by', '--by 10')!;
    const result = await write(ctx, 'increment', (client, args) =>
      client.orderedDataStores.incrementEntry({ ...args, amount }, { signal: ctx.signal }),
    );
    return ctx.out.finish(result, EXIT.done);
  },
};
