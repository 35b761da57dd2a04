// universe-explorer memory map list|get|set|delete, memory queue add|read|discard, memory flush: a universe's memory
// stores (sorted maps and queues shared with the game servers, each item with a time to live).
import { MAX_MEMORY_STORE_SECONDS, MAX_SORTED_MAP_PAGE, NotFoundError, type SortedMapItem } from '../../api';
import type { Command } from '../command';
import { connect, failure, universeOf } from '../connect';
import { CONNECTION, OUTPUT, required, text, whole, type Options, type Values } from '../options';
import { EXIT, UsageError } from '../output';
import { count } from './words';

const MAP: Options = { map: { type: 'string', value: '<name>', help: 'the sorted map' } };
const QUEUE: Options = { queue: { type: 'string', value: '<name>', help: 'the queue' } };
const KEY: Options = { key: { type: 'string', value: '<key>', help: 'the item key' } };
const TTL: Options = {
  ttl: { type: 'string', value: '<time>', help: 'how long the item lives: seconds, or e.g. 90m, 12h, 3d (up to 45d)' },
};

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** `3600`, `90m`, `1h30m` as whole seconds, 1 to 45 days. */
function seconds(values: Values, name: string): number | undefined {
  const typed = text(values, name);
  if (typed === undefined) return undefined;
  const input = typed.replace(/\s+/g, '').toLowerCase();
  let total = Number(input);
  if (!/^\d+$/.test(input)) {
    if (!/^(\d+[smhd])+$/.test(input)) {
      throw new UsageError(`--${name}: ${JSON.stringify(typed)} is not a time: give seconds, or e.g. 90m, 12h, 3d`);
    }
    total = 0;
    for (const [, n, unit] of input.matchAll(/(\d+)([smhd])/g)) total += Number(n) * UNITS[unit];
  }
  if (total < 1 || total > MAX_MEMORY_STORE_SECONDS) throw new UsageError(`--${name}: from 1 second to 45 days`);
  return total;
}

/** A JSON value other than null, as typed. */
function jsonOf(values: Values, name: string, example: string): unknown {
  const typed = required(values, name, `a JSON value, e.g. --${name} '${example}'`);
  let value: unknown;
  try {
    value = JSON.parse(typed);
  } catch {
    throw new UsageError(
      `--${name}: ${JSON.stringify(typed.length > 40 ? `${typed.slice(0, 40)}…` : typed)} is not JSON: ` +
        `quote text ('"hello"') and objects ('${example}')`,
    );
  }
  if (value === null) throw new UsageError(`--${name}: null cannot be stored: give another JSON value`);
  return value;
}

const mapOf = (values: Values): string => required(values, 'map', 'the sorted map, e.g. --map Matchmaking');
const queueOf = (values: Values): string => required(values, 'queue', 'the queue, e.g. --queue Rewards');
const keyOf = (values: Values): string => required(values, 'key', 'the item key, e.g. --key Player_2001');
const show = (value: unknown): string => JSON.stringify(value);

const itemJson = (i: SortedMapItem) => ({
  key: i.key,
  value: i.value,
  ...(i.sortKey !== undefined ? { sortKey: i.sortKey } : {}),
  ...(i.expireTime ? { expireTime: i.expireTime } : {}),
});

const describeItem = (i: SortedMapItem): string =>
  `${i.key}: ${show(i.value)}${i.sortKey !== undefined ? ` (sort key ${show(i.sortKey)})` : ''}` +
  `${i.expireTime ? `, expires ${i.expireTime}` : ''}`;

const ITEM_JSON = '{"key":"…","value":<JSON>,"sortKey":5 (when it has one),"expireTime":"…"}';

export const mapList: Command = {
  name: 'memory map list',
  summary: "list a memory store sorted map's items, in map order",
  usage: ['--universe <id> --map <name> [--limit <n>] [options]'],
  about: 'Lists the items in map order (numeric sort keys, then text ones, then none; by key within each). Reads only.',
  options: [
    ['Connection', CONNECTION],
    ['Map', { ...MAP, limit: { type: 'string', value: '<n>', help: 'at most n items (default 100)' } }],
    ['Output', OUTPUT],
  ],
  json: `  {"command":"memory map list","exitCode":0,"universe":"123456","map":"…","items":[${ITEM_JSON}],"more":false}`,
  async run(ctx) {
    const map = mapOf(ctx.values);
    const limit = whole(ctx.values, 'limit', 1, 1_000_000) ?? MAX_SORTED_MAP_PAGE;
    const { client, universe } = await connect(ctx);
    const items: SortedMapItem[] = [];
    let more = false;
    try {
      const args = { universeId: universe, mapName: map, limit: Math.min(limit + 1, MAX_SORTED_MAP_PAGE) };
      for await (const i of client.sortedMaps.listItems(args, { signal: ctx.signal })) {
        if (items.length === limit) {
          more = true;
          break;
        }
        items.push(i);
      }
    } catch (error) {
      throw failure(`cannot list sorted map ${map} of universe ${universe}`, error);
    }
    for (const i of items) ctx.out.say(describeItem(i));
    ctx.out.say(`${count(items.length, 'item')} in sorted map ${map}${more ? '; more follow: raise --limit' : ''}.`);
    return ctx.out.finish({ universe, map, items: items.map(itemJson), more }, EXIT.done);
  },
};

export const mapGet: Command = {
  name: 'memory map get',
  summary: 'read one sorted map item',
  usage: ['--universe <id> --map <name> --key <key> [options]'],
  about: 'Prints the item: its value, sort key and when it expires. A missing or expired item fails (exit 1).',
  options: [
    ['Connection', CONNECTION],
    ['Item', { ...MAP, ...KEY }],
    ['Output', OUTPUT],
  ],
  json: `  {"command":"memory map get","exitCode":0,"universe":"123456","map":"…","item":${ITEM_JSON}}`,
  async run(ctx) {
    const map = mapOf(ctx.values);
    const key = keyOf(ctx.values);
    const { client, universe } = await connect(ctx);
    let item: SortedMapItem;
    try {
      item = await client.sortedMaps.getItem({ universeId: universe, mapName: map, key }, { signal: ctx.signal });
    } catch (error) {
      if (error instanceof NotFoundError) {
        throw new Error(
          `key ${JSON.stringify(key)} is not in sorted map ${map} (missing or expired): check --key and --map ` +
            '(names are case-sensitive), or list the items with memory map list',
          { cause: error },
        );
      }
      throw failure(`cannot read key ${JSON.stringify(key)} of sorted map ${map}`, error);
    }
    ctx.out.say(describeItem(item));
    return ctx.out.finish({ universe, map, item: itemJson(item) }, EXIT.done);
  },
};

export const mapSet: Command = {
  name: 'memory map set',
  summary: 'write a sorted map item (created when missing)',
  usage: ['--universe <id> --map <name> --key <key> --value <json> [--sort-key <k>] --ttl <time> [options]'],
  about:
    'Writes the item, replacing its value, sort key (none unless --sort-key is given) and time to live. A sort key ' +
    'that reads as a number sorts as a number, any other as text.',
  options: [
    ['Connection', CONNECTION],
    [
      'Item',
      {
        ...MAP,
        ...KEY,
        value: { type: 'string', value: '<json>', help: 'the value, as JSON (text in quotes: \'"hello"\')' },
        'sort-key': { type: 'string', value: '<k>', help: 'the sort key, a number or text' },
        ...TTL,
      },
    ],
    ['Output', OUTPUT],
  ],
  json: `  {"command":"memory map set","exitCode":0,"universe":"123456","map":"…","item":${ITEM_JSON}}`,
  examples: [
    `universe-explorer memory map set --universe 123456 --map Lobby --key host --value '{"id":2001}' --ttl 1h`,
  ],
  async run(ctx) {
    const map = mapOf(ctx.values);
    const key = keyOf(ctx.values);
    const value = jsonOf(ctx.values, 'value', '{"coins":5}');
    const typedSort = text(ctx.values, 'sort-key');
    const sortKey = typedSort !== undefined && /^-?\d+(\.\d+)?$/.test(typedSort) ? Number(typedSort) : typedSort;
    required(ctx.values, 'ttl', 'how long the item lives, e.g. --ttl 1h');
    const ttlSeconds = seconds(ctx.values, 'ttl')!;
    const { client, universe } = await connect(ctx);
    let item: SortedMapItem;
    try {
      const args = { universeId: universe, mapName: map, key, value, sortKey, ttlSeconds, allowMissing: true };
      item = await client.sortedMaps.updateItem(args, { signal: ctx.signal });
    } catch (error) {
      throw failure(`cannot write key ${JSON.stringify(key)} of sorted map ${map}`, error);
    }
    ctx.out.say(`${describeItem(item)} in sorted map ${map}.`);
    return ctx.out.finish({ universe, map, item: itemJson(item) }, EXIT.done);
  },
};

export const mapDelete: Command = {
  name: 'memory map delete',
  summary: 'delete a sorted map item',
  usage: ['--universe <id> --map <name> --key <key> [options]'],
  about: 'Deletes the item at once, with no way back. A missing item counts as deleted.',
  options: [
    ['Connection', CONNECTION],
    ['Item', { ...MAP, ...KEY }],
    ['Output', OUTPUT],
  ],
  json: '  {"command":"memory map delete","exitCode":0,"universe":"123456","map":"…","key":"…"}',
  async run(ctx) {
    const map = mapOf(ctx.values);
    const key = keyOf(ctx.values);
    const { client, universe } = await connect(ctx);
    try {
      await client.sortedMaps.deleteItem({ universeId: universe, mapName: map, key }, { signal: ctx.signal });
    } catch (error) {
      throw failure(`cannot delete key ${JSON.stringify(key)} of sorted map ${map}`, error);
    }
    ctx.out.say(`Deleted ${key} from sorted map ${map}.`);
    return ctx.out.finish({ universe, map, key }, EXIT.done);
  },
};

export const queueAdd: Command = {
  name: 'memory queue add',
  summary: 'add an item to a memory store queue',
  usage: ['--universe <id> --queue <name> --data <json> [--priority <n>] --ttl <time> [options]'],
  about: 'Adds the item after the others of its priority (higher leaves first). Not repeated on a lost answer.',
  options: [
    ['Connection', CONNECTION],
    [
      'Item',
      {
        ...QUEUE,
        data: { type: 'string', value: '<json>', help: 'the item, as JSON' },
        priority: { type: 'string', value: '<n>', help: 'higher leaves first (default 0)' },
        ...TTL,
      },
    ],
    ['Output', OUTPUT],
  ],
  json: '  {"command":"memory queue add","exitCode":0,"universe":"123456","queue":"…","item":{"data":<JSON>,"priority":0}}',
  async run(ctx) {
    const queue = queueOf(ctx.values);
    const data = jsonOf(ctx.values, 'data', '{"reward":5}');
    const typed = text(ctx.values, 'priority');
    if (typed !== undefined && !/^-?\d+(\.\d+)?$/.test(typed)) {
      throw new UsageError(`--priority: ${JSON.stringify(typed)} is not a number: give e.g. --priority 10`);
    }
    required(ctx.values, 'ttl', 'how long the item lives, e.g. --ttl 1h');
    const ttlSeconds = seconds(ctx.values, 'ttl')!;
    const { client, universe } = await connect(ctx);
    let priority: number;
    try {
      const args = {
        universeId: universe,
        queueName: queue,
        data,
        priority: typed === undefined ? undefined : Number(typed),
        ttlSeconds,
      };
      ({ priority } = await client.queues.addItem(args, { signal: ctx.signal }));
    } catch (error) {
      throw failure(`cannot add to queue ${queue}`, error);
    }
    ctx.out.say(`Added ${show(data)} to queue ${queue} (priority ${priority}).`);
    return ctx.out.finish({ universe, queue, item: { data, priority } }, EXIT.done);
  },
};

const HIDES =
  'A read is not a peek (queues have none): the items read are hidden from game servers and every other reader ' +
  'for the hold, then come back unless discarded with the read id.';

export const queueRead: Command = {
  name: 'memory queue read',
  summary: 'read (and hide for a while) items of a memory store queue',
  usage: ['--universe <id> --queue <name> [--count <n>] [--hold <time>] [options]'],
  about: `Reads up to --count items, highest priority first, and prints them with the read id. ${HIDES}`,
  options: [
    ['Connection', CONNECTION],
    [
      'Read',
      {
        ...QUEUE,
        count: { type: 'string', value: '<n>', help: 'at most n items, 1 to 200 (default 1)' },
        hold: { type: 'string', value: '<time>', help: 'how long they stay hidden: seconds or e.g. 5m (default 30)' },
      },
    ],
    ['Output', OUTPUT],
  ],
  json:
    '  {"command":"memory queue read","exitCode":0,"universe":"123456","queue":"…","readId":"…" (none when empty),\n' +
    '   "holdSeconds":30,"items":[{"data":<JSON>,"priority":0}]}',
  async run(ctx) {
    const queue = queueOf(ctx.values);
    const max = whole(ctx.values, 'count', 1, 200) ?? 1;
    const hold = seconds(ctx.values, 'hold') ?? 30;
    const { client, universe } = await connect(ctx);
    let read;
    try {
      const args = { universeId: universe, queueName: queue, count: max, invisibilitySeconds: hold };
      read = await client.queues.readItems(args, { signal: ctx.signal });
    } catch (error) {
      throw failure(`cannot read queue ${queue}`, error);
    }
    const items = read.items.map((i) => ({ data: i.data, priority: i.priority }));
    for (const i of items) ctx.out.say(`${show(i.data)} (priority ${i.priority})`);
    ctx.out.say(`${count(items.length, 'item')} read from queue ${queue}.`);
    if (read.readId) {
      ctx.out.say(`Read id: ${read.readId}`);
      ctx.out.say(
        `These items are now hidden from game servers for ${hold}s (there is no peek). To remove them for good: ` +
          `memory queue discard --queue ${queue} --read-id ${read.readId}; else they come back after ${hold}s.`,
      );
    }
    return ctx.out.finish(
      { universe, queue, ...(read.readId ? { readId: read.readId } : {}), holdSeconds: hold, items },
      EXIT.done,
    );
  },
};

export const queueDiscard: Command = {
  name: 'memory queue discard',
  summary: 'remove for good the items a queue read returned',
  usage: ['--universe <id> --queue <name> --read-id <id> [options]'],
  about:
    'Deletes the items of the read, if their hold is still on; after it, does nothing (they are back in the queue).',
  options: [
    ['Connection', CONNECTION],
    ['Read', { ...QUEUE, 'read-id': { type: 'string', value: '<id>', help: 'the id memory queue read printed' } }],
    ['Output', OUTPUT],
  ],
  json: '  {"command":"memory queue discard","exitCode":0,"universe":"123456","queue":"…","readId":"…"}',
  async run(ctx) {
    const queue = queueOf(ctx.values);
    const readId = required(ctx.values, 'read-id', 'the read id that memory queue read printed');
    const { client, universe } = await connect(ctx);
    try {
      await client.queues.discardItems({ universeId: universe, queueName: queue, readId }, { signal: ctx.signal });
    } catch (error) {
      throw failure(`cannot discard read ${readId} of queue ${queue}`, error);
    }
    ctx.out.say(`Discarded the items of read ${readId} from queue ${queue} (if its hold was still on).`);
    return ctx.out.finish({ universe, queue, readId }, EXIT.done);
  },
};

export const memoryFlush: Command = {
  name: 'memory flush',
  summary: "remove every sorted map and queue of the universe's memory stores (irreversible)",
  usage: ['--universe <id> --yes-flush-universe <id> [options]'],
  about:
    'Removes every sorted map and queue of the universe (the live game servers use them too), with no way back, ' +
    'and waits for the end. --yes-flush-universe must repeat the --universe id.',
  options: [
    ['Connection', CONNECTION],
    [
      'Flush',
      { 'yes-flush-universe': { type: 'string', value: '<id>', help: 'the universe id again, to confirm the flush' } },
    ],
    ['Output', OUTPUT],
  ],
  json: '  {"command":"memory flush","exitCode":0,"universe":"123456","operation":"…","done":true}',
  async run(ctx) {
    const universe = universeOf(ctx.values);
    const confirmed = text(ctx.values, 'yes-flush-universe');
    if (confirmed !== universe) {
      throw new UsageError(
        `flushing removes every sorted map and queue of universe ${universe} for good: nothing was sent; to go on, ` +
          `add --yes-flush-universe ${universe}`,
      );
    }
    const { client } = await connect(ctx);
    let operation: string;
    try {
      const op = await client.memoryStores.flushAndWait(
        { universeId: universe },
        { signal: ctx.signal, onProgress: (_, attempt) => ctx.out.progress(`Flushing… (check ${attempt})`) },
      );
      operation = op.operationId;
    } catch (error) {
      throw failure(`cannot flush the memory stores of universe ${universe}`, error);
    }
    ctx.out.say(`Flushed the memory stores of universe ${universe}.`);
    return ctx.out.finish({ universe, operation, done: true }, EXIT.done);
  },
};
