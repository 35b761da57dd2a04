// The tools that read live-ops stores: ordered data stores (whole numbers by key, listed by value) and memory store
// sorted maps. No queue tool: reading a queue hides its items from game servers, so it is no safe read.
import * as z from 'zod/mini';
import { NotFoundError } from '../api';
import { about, cut, limitField, named, scopeField, tool, universeField, type Tool } from './types';

/** JSON text of a sorted map value longer than this is given cut, as text. */
const MAX_VALUE_CHARS = 20_000;

const cursorField = about(z.optional(z.string()), 'where to go on: the cursor a previous call returned');
const orderedStoreField = about(z.string().check(z.minLength(1)), 'the ordered data store name (case-sensitive)');
const orderedKeyField = about(z.string().check(z.minLength(1)), 'the entry key (1 to 50 bytes)');
const mapField = about(z.string().check(z.minLength(1)), 'the memory store sorted map name (case-sensitive)');
const itemKeyField = about(z.string().check(z.minLength(1)), 'the item key');
const wholeField = (what: string) => about(z.optional(z.number().check(z.int())), what);

const QUEUE_NOTE =
  'Memory store queues have no read tool: reading a queue hides its items from game servers for a while, ' +
  'so it is no safe read.';

/** A sorted map value as a result shows it: the JSON value, or its JSON text cut when long. */
function itemValue(value: unknown): Record<string, unknown> {
  const text = JSON.stringify(value) ?? 'null';
  if (text.length <= MAX_VALUE_CHARS) return { value };
  return { valueText: cut(text, MAX_VALUE_CHARS), valueCut: true };
}

const listOrderedEntries = tool({
  name: 'list_ordered_entries',
  title: 'List ordered entries',
  description:
    "Lists an ordered data store's entries (key and whole-number value) in one scope, by value, highest first " +
    'unless order is "asc", optionally only values from min to max; a leaderboard read. A returned cursor means ' +
    'more entries follow. An ordered store nobody wrote to reads as empty: check the name. Reads only.',
  kind: 'read',
  input: z.object({
    universe: universeField,
    store: orderedStoreField,
    scope: scopeField,
    order: about(z.optional(z.enum(['asc', 'desc'])), 'by value: "desc" highest first (default), "asc" lowest first'),
    min: wholeField('only values from this one up (inclusive)'),
    max: wholeField('only values up to this one (inclusive)'),
    limit: limitField(50, 1000),
    cursor: cursorField,
  }),
  async run({ universe, store, scope = 'global', order = 'desc', min, max, limit = 50, cursor }, ctx) {
    const client = await ctx.client(universe);
    return named(`cannot list the ordered data store ${store} (scope ${scope}) of universe ${universe}`, async () => {
      const entries: { key: string; value: number }[] = [];
      let next = cursor;
      do {
        const page = await client.orderedDataStores.listEntries(
          {
            universeId: universe,
            datastoreName: store,
            scope,
            order,
            min,
            max,
            limit: Math.min(100, limit - entries.length),
            cursor: next,
          },
          { signal: ctx.signal },
        );
        entries.push(...page.items);
        next = page.next;
      } while (next && entries.length < limit);
      return { universe, store, scope, order, entries, ...(next ? { cursor: next } : {}) };
    });
  },
});

const getOrderedEntry = tool({
  name: 'get_ordered_entry',
  title: 'Read an ordered entry',
  description:
    "Reads one ordered data store entry's whole-number value (e.g. a player's score). Ordered stores keep no " +
    'versions, attributes or user ids. Reads only.',
  kind: 'read',
  input: z.object({
    universe: universeField,
    store: orderedStoreField,
    scope: scopeField,
    key: orderedKeyField,
  }),
  async run({ universe, store, scope = 'global', key }, ctx) {
    const client = await ctx.client(universe);
    const address = { universe, store, scope, key };
    return named(
      `cannot read ${JSON.stringify(key)} (ordered ${store}, scope ${scope}) of universe ${universe}`,
      async () => {
        try {
          const entry = await client.orderedDataStores.getEntry(
            { universeId: universe, datastoreName: store, scope, entryKey: key },
            { signal: ctx.signal },
          );
          return { ...address, exists: true, value: entry.value };
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
          return { ...address, exists: false, note: 'no entry (never written, or removed; or a misspelt store)' };
        }
      },
    );
  },
});

const listSortedMapItems = tool({
  name: 'list_sorted_map_items',
  title: 'List sorted map items',
  description:
    "Lists a memory store sorted map's items in map order (numeric sort keys first, then text ones, then none; by " +
    'key within each): key, value (over 20,000 characters of JSON: cut, as text), sort key and expiry time. A ' +
    'returned cursor means more items follow. Memory store items expire; a map with none reads as empty. Reads only. ' +
    QUEUE_NOTE,
  kind: 'read',
  input: z.object({
    universe: universeField,
    map: mapField,
    limit: limitField(50, 1000),
    cursor: cursorField,
  }),
  async run({ universe, map, limit = 50, cursor }, ctx) {
    const client = await ctx.client(universe);
    return named(`cannot list the sorted map ${map} of universe ${universe}`, async () => {
      const items: Record<string, unknown>[] = [];
      let next = cursor;
      do {
        const page = await client.sortedMaps.listItems(
          { universeId: universe, mapName: map, limit: Math.min(100, limit - items.length), cursor: next },
          { signal: ctx.signal },
        );
        items.push(
          ...page.items.map((i) => ({
            key: i.key,
            ...itemValue(i.value),
            ...(i.sortKey === undefined ? {} : { sortKey: i.sortKey }),
            expireTime: i.expireTime,
          })),
        );
        next = page.next;
      } while (next && items.length < limit);
      return { universe, map, items, ...(next ? { cursor: next } : {}) };
    });
  },
});

const getSortedMapItem = tool({
  name: 'get_sorted_map_item',
  title: 'Read a sorted map item',
  description:
    'Reads one memory store sorted map item: its value (over 20,000 characters of JSON: cut, as text), sort key ' +
    'and expiry time. A missing or expired item reads as not existing. Reads only. ' +
    QUEUE_NOTE,
  kind: 'read',
  input: z.object({
    universe: universeField,
    map: mapField,
    key: itemKeyField,
  }),
  async run({ universe, map, key }, ctx) {
    const client = await ctx.client(universe);
    const address = { universe, map, key };
    return named(`cannot read ${JSON.stringify(key)} (sorted map ${map}) of universe ${universe}`, async () => {
      try {
        const item = await client.sortedMaps.getItem(
          { universeId: universe, mapName: map, key },
          { signal: ctx.signal },
        );
        return {
          ...address,
          exists: true,
          ...itemValue(item.value),
          ...(item.sortKey === undefined ? {} : { sortKey: item.sortKey }),
          expireTime: item.expireTime,
        };
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        return { ...address, exists: false, note: 'no item (never written, removed, or expired)' };
      }
    });
  },
});

export const LIVE_OPS_TOOLS: Tool[] = [listOrderedEntries, getOrderedEntry, listSortedMapItems, getSortedMapItem];
