// `universe-explorer mcp` through the SDK's own client over stdio, against the emulator over loopback HTTP: the read
// tools of ordered data stores and memory store sorted maps, on data seeded through the typed client.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { API_KEY } from './support/client';
import { buildCli, CLI_KEY } from './support/cli';
import { sharedEmulator } from './support/emulator';
import { startMcp, type McpRun } from './support/mcp';

const U = '7373';
const shared = sharedEmulator({ apiKeys: [{ key: CLI_KEY }, { key: API_KEY }] });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-mcp-liveops-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
before(() => buildCli());

const serve = (): Promise<McpRun> =>
  startMcp(['--base-url', shared.emulator.url, '--plans-dir', path.join(dir, 'plans'), '--index-dir', dir]);

const score = (store: string, key: string, value: number, scope?: string) =>
  shared.client.orderedDataStores.createEntry({ universeId: U, datastoreName: store, scope, entryKey: key, value });

const put = (map: string, key: string, value: unknown, sortKey?: number | string) =>
  shared.client.sortedMaps.createItem({ universeId: U, mapName: map, key, value, sortKey, ttlSeconds: 3600 });

describe('universe-explorer mcp: ordered data store and sorted map tools', () => {
  it('lists the four read tools with their schemas, read-only, and says why there is no queue tool', async () => {
    const mcp = await serve();
    try {
      const { tools } = await mcp.client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      const required = {
        list_ordered_entries: ['universe', 'store'],
        get_ordered_entry: ['universe', 'store', 'key'],
        list_sorted_map_items: ['universe', 'map'],
        get_sorted_map_item: ['universe', 'map', 'key'],
      };
      for (const [name, fields] of Object.entries(required)) {
        const t = byName.get(name);
        assert.ok(t, name);
        assert.equal(t.inputSchema.type, 'object', name);
        assert.deepEqual(t.inputSchema.required, fields, name);
        assert.equal(t.annotations?.readOnlyHint, true, name);
      }
      assert.ok(![...byName.keys()].some((n) => n.includes('queue')));
      const list = byName.get('list_ordered_entries')!;
      assert.deepEqual((list.inputSchema.properties?.order as { enum: string[] }).enum, ['asc', 'desc']);
      assert.match(JSON.stringify(list.inputSchema.properties?.limit), /default 50, at most 1000/);
      assert.match(byName.get('list_sorted_map_items')!.description!, /reading a queue hides its items from game/);
    } finally {
      await mcp.close();
    }
  });

  it('reads an ordered store by value both ways, within a range, a page at a time, and one entry', async () => {
    for (const [key, value] of [
      ['ann', 30],
      ['bob', 10],
      ['cy', 20],
      ['dee', 40],
    ] as const)
      await score('Wins', key, value);
    await score('Wins', 'other', 99, 'season2');
    const mcp = await serve();
    try {
      const rows = async (args: Record<string, unknown>) => {
        const r = (await mcp.call('list_ordered_entries', { universe: U, store: 'Wins', ...args })).json();
        return r.entries as { key: string; value: number }[];
      };
      assert.deepEqual(await rows({}), [
        { key: 'dee', value: 40 },
        { key: 'ann', value: 30 },
        { key: 'cy', value: 20 },
        { key: 'bob', value: 10 },
      ]);
      assert.deepEqual(
        (await rows({ order: 'asc', min: 15, max: 30 })).map((e) => e.key),
        ['cy', 'ann'],
      );
      assert.deepEqual(await rows({ scope: 'season2' }), [{ key: 'other', value: 99 }]);

      const first = (await mcp.call('list_ordered_entries', { universe: U, store: 'Wins', limit: 3 })).json();
      assert.deepEqual(
        (first.entries as { key: string }[]).map((e) => e.key),
        ['dee', 'ann', 'cy'],
      );
      assert.equal(typeof first.cursor, 'string');
      const rest = (
        await mcp.call('list_ordered_entries', { universe: U, store: 'Wins', limit: 3, cursor: first.cursor })
      ).json();
      assert.deepEqual(rest.entries, [{ key: 'bob', value: 10 }]);
      assert.equal(rest.cursor, undefined);

      const one = (await mcp.call('get_ordered_entry', { universe: U, store: 'Wins', key: 'cy' })).json();
      assert.deepEqual(one, { universe: U, store: 'Wins', scope: 'global', key: 'cy', exists: true, value: 20 });
      const none = (await mcp.call('get_ordered_entry', { universe: U, store: 'Wins', key: 'zed' })).json();
      assert.equal(none.exists, false);
    } finally {
      await mcp.close();
    }
  });

  it('reads a sorted map in map order with sort keys and expiry, a long value cut, and one item', async () => {
    await put('Lobby', 'none', { n: 0 });
    await put('Lobby', 'text', { n: 1 }, 'm');
    await put('Lobby', 'two', { n: 2 }, 2);
    await put('Lobby', 'one', { n: 3 }, 1);
    await put('Big', 'blob', { text: 'x'.repeat(30_000) });
    const mcp = await serve();
    try {
      const r = (await mcp.call('list_sorted_map_items', { universe: U, map: 'Lobby' })).json();
      const items = r.items as { key: string; value: unknown; sortKey?: unknown; expireTime: string }[];
      assert.deepEqual(
        items.map((i) => [i.key, i.value, i.sortKey]),
        [
          ['one', { n: 3 }, 1],
          ['two', { n: 2 }, 2],
          ['text', { n: 1 }, 'm'],
          ['none', { n: 0 }, undefined],
        ],
      );
      for (const i of items) assert.ok(!Number.isNaN(Date.parse(i.expireTime)), i.key);
      const page = (await mcp.call('list_sorted_map_items', { universe: U, map: 'Lobby', limit: 2 })).json();
      assert.equal((page.items as unknown[]).length, 2);
      assert.equal(typeof page.cursor, 'string');

      const big = (await mcp.call('list_sorted_map_items', { universe: U, map: 'Big' })).json();
      const [blob] = big.items as { value?: unknown; valueText: string; valueCut: boolean }[];
      assert.deepEqual([blob.value, blob.valueCut, blob.valueText.length], [undefined, true, 20_001]);

      const item = (await mcp.call('get_sorted_map_item', { universe: U, map: 'Lobby', key: 'text' })).json();
      assert.deepEqual([item.exists, item.value, item.sortKey], [true, { n: 1 }, 'm']);
      assert.equal(typeof item.expireTime, 'string');
      const gone = (await mcp.call('get_sorted_map_item', { universe: U, map: 'Lobby', key: 'nobody' })).json();
      assert.equal(gone.exists, false);
    } finally {
      await mcp.close();
    }
  });

  it('refuses bad input with a message naming it, and hides the API key in values', async () => {
    await put('Leaks', 'k', { note: `key ${CLI_KEY} pasted here` });
    const mcp = await serve();
    try {
      const range = await mcp.call('list_ordered_entries', { universe: U, store: 'Wins', min: 50, max: 10 });
      assert.equal(range.isError, true);
      assert.match(range.text, /^cannot list the ordered data store Wins .*: The highest value \(10\) is below/);
      const longKey = await mcp.call('get_ordered_entry', { universe: U, store: 'Wins', key: 'k'.repeat(51) });
      assert.equal(longKey.isError, true);
      assert.match(longKey.text, /must be 1 to 50 bytes of UTF-8, got 51/);
      const badOrder = await mcp.call('list_ordered_entries', { universe: U, store: 'Wins', order: 'up' });
      assert.equal(badOrder.isError, true);
      assert.match(badOrder.text, /order/);
      const badLimit = await mcp.call('list_sorted_map_items', { universe: U, map: 'Lobby', limit: 5000 });
      assert.equal(badLimit.isError, true);
      assert.match(badLimit.text, /limit/);
      const badUniverse = await mcp.call('get_sorted_map_item', { universe: 'abc', map: 'Lobby', key: 'k' });
      assert.equal(badUniverse.isError, true);

      const leak = (await mcp.call('get_sorted_map_item', { universe: U, map: 'Leaks', key: 'k' })).json();
      assert.deepEqual(leak.value, { note: 'key *** pasted here' });
      const listed = (await mcp.call('list_sorted_map_items', { universe: U, map: 'Leaks' })).json();
      assert.deepEqual((listed.items as { value: unknown }[])[0].value, { note: 'key *** pasted here' });
    } finally {
      await mcp.close();
    }
  });
});
