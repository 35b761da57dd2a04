// `universe-explorer mcp` (dist/cli.js, dist/mcp.js) through the SDK's own client over stdio, against the emulator
// over loopback HTTP: the tools listed with their schemas, and each read tool's answer on seeded data.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { API_KEY, until } from './support/client';
import { buildCli, cli, CLI_KEY } from './support/cli';
import { sharedEmulator } from './support/emulator';
import { startMcp, type McpRun } from './support/mcp';

const U = '6262';
const shared = sharedEmulator({ apiKeys: [{ key: CLI_KEY }, { key: API_KEY }] });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-mcp-read-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
before(() => buildCli());

const set = (store: string, key: string, value: unknown, userIds: number[] = []) =>
  shared.client.datastores.setEntry({ universeId: U, datastoreName: store, entryKey: key, value, userIds });

/** A server on the shared emulator, its plans and indexes in folders of this test. */
const serve = (extra: string[] = []): Promise<McpRun> =>
  startMcp([
    '--base-url',
    shared.emulator.url,
    '--plans-dir',
    path.join(dir, 'plans'),
    '--index-dir',
    path.join(dir, 'index'),
    ...extra,
  ]);

const TOOL_NAMES = [
  'list_stores',
  'list_entries',
  'get_entry',
  'list_versions',
  'get_asset',
  'list_ordered_entries',
  'get_ordered_entry',
  'list_sorted_map_items',
  'get_sorted_map_item',
  'compare_with_time',
  'query_index',
  'show_player',
  'restriction_log',
  'plan_set_entry',
  'plan_delete_entry',
  'plan_restore_to_time',
  'plan_copy_differences',
  'plan_erase_player',
  'plan_ban',
  'plan_unban',
  'plan_ban_many',
  'plan_unban_everywhere',
  'apply_plan',
];

describe('universe-explorer mcp: the tools', () => {
  it('lists every tool with its input schema, hints and what it writes', async () => {
    const mcp = await serve();
    try {
      const { tools } = await mcp.client.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        TOOL_NAMES,
      );
      for (const t of tools) {
        assert.equal(t.inputSchema.type, 'object', t.name);
        assert.ok(t.description && t.description.length > 40, t.name);
        if (t.name.startsWith('plan_')) {
          assert.match(t.description!, /WRITES NOTHING/, t.name);
          assert.equal(t.annotations?.destructiveHint, false, t.name);
        } else if (t.name !== 'apply_plan') assert.equal(t.annotations?.readOnlyHint, true, t.name);
      }
      const getEntry = tools.find((t) => t.name === 'get_entry')!;
      assert.deepEqual(getEntry.inputSchema.required, ['universe', 'store', 'key']);
      assert.match(JSON.stringify(getEntry.inputSchema.properties?.at), /as it was then/);
      const apply = tools.find((t) => t.name === 'apply_plan')!;
      assert.equal(apply.annotations?.destructiveHint, true);
      assert.match(apply.description!, /started without --allow-writes: apply_plan refuses every plan/);
      assert.match(mcp.stderr(), /serving 23 tools on stdio; .*no writes allowed/);
    } finally {
      await mcp.close();
    }
  });

  it('reads stores, keys, an entry now and at a time, its versions; a missing store or key is named', async () => {
    await set('PlayerData', 'Player_2001', { coins: 50 }, [2001]);
    await set('PlayerData', 'Player_2002', { coins: 70 }, [2002]);
    await set('Inventory', 'Player_2001', { items: ['sword'] }, [2001]);
    const t = Date.now();
    await until(() => Date.now() > t + 1);
    await set('PlayerData', 'Player_2001', { coins: 80 }, [2001]);
    const mcp = await serve();
    try {
      const stores = (await mcp.call('list_stores', { universe: U })).json();
      assert.deepEqual(
        (stores.stores as { name: string }[]).map((s) => s.name),
        ['Inventory', 'PlayerData'],
      );
      const keys = (await mcp.call('list_entries', { universe: U, store: 'PlayerData', limit: 1 })).json();
      assert.deepEqual(keys.keys, ['Player_2001']);
      assert.equal(typeof keys.cursor, 'string');
      const rest = await mcp.call('list_entries', { universe: U, store: 'PlayerData', cursor: keys.cursor });
      assert.deepEqual(rest.json().keys, ['Player_2002']);
      assert.equal(rest.json().cursor, undefined);

      const now = (await mcp.call('get_entry', { universe: U, store: 'PlayerData', key: 'Player_2001' })).json();
      assert.deepEqual([now.exists, now.value, now.userIds], [true, { coins: 80 }, [2001]]);
      const then = await mcp.call('get_entry', {
        universe: U,
        store: 'PlayerData',
        key: 'Player_2001',
        at: new Date(t).toISOString(),
      });
      assert.deepEqual(then.json().value, { coins: 50 });
      const missing = (await mcp.call('get_entry', { universe: U, store: 'PlayerData', key: 'nobody' })).json();
      assert.equal(missing.exists, false);

      const versions = (
        await mcp.call('list_versions', { universe: U, store: 'PlayerData', key: 'Player_2001' })
      ).json();
      const listed = versions.versions as { version: string; deleted: boolean }[];
      assert.equal(listed.length, 2);
      assert.equal(listed[0].version, now.version);

      const typo = await mcp.call('list_entries', { universe: U, store: 'Playerdata' });
      assert.equal(typo.isError, true);
      assert.match(typo.text, /universe 6262 has no data store named "Playerdata": check the name/);
      const badTime = await mcp.call('get_entry', { universe: U, store: 'PlayerData', key: 'k', at: 'soon' });
      assert.equal(badTime.isError, true);
      assert.match(badTime.text, /^at: "soon" is not a time/);
      const badInput = await mcp.call('get_entry', { universe: 'abc', store: 'PlayerData', key: 'k' });
      assert.equal(badInput.isError, true);
    } finally {
      await mcp.close();
    }
  });

  it('compares with a time: counts, first keys and the full file', async () => {
    await set('Settings', 'a', 1);
    await set('Settings', 'b', 1);
    const t = Date.now();
    await until(() => Date.now() > t + 1);
    await set('Settings', 'a', 2);
    await set('Settings', 'c', 1);
    const mcp = await serve();
    try {
      const r = (
        await mcp.call('compare_with_time', { universe: U, store: 'Settings', time: new Date(t).toISOString() })
      ).json();
      assert.deepEqual(r.counts, { changed: 1, created: 1, deleted: 0, unchanged: 1 });
      assert.deepEqual(r.keys, [
        { scope: 'global', key: 'a', status: 'changed' },
        { scope: 'global', key: 'c', status: 'created' },
      ]);
      assert.equal(r.more, 0);
      const lines = fs
        .readFileSync(r.file as string, 'utf8')
        .trim()
        .split('\n');
      assert.equal(lines.length, 2);
      assert.ok((r.file as string).startsWith(path.join(dir, 'plans')));
    } finally {
      await mcp.close();
    }
  });

  it('queries the index, shows a player (entries, ban, log) and reads the restriction log; no index is said', async () => {
    await set('PlayerData', 'Player_2001', { coins: 50 }, [2001]);
    await set('PlayerData', 'Player_2002', { coins: 70 }, [2002]);
    await set('Guilds', 'g1', { members: [2001, 2002] }, [2001, 2002]);
    await shared.client.restrictions.update({
      universeId: U,
      userId: 2001,
      gameJoinRestriction: { active: true, duration: 3600, privateReason: 'spam', displayReason: 'Spamming' },
    });
    const mcp = await serve();
    try {
      const none = await mcp.call('query_index', { universe: U, sql: 'SELECT 1' });
      assert.equal(none.isError, true);
      assert.match(none.text, /universe 6262 has no query index in .*: build one with universe-explorer index build/);
      const unindexed = (await mcp.call('show_player', { universe: U, user: '2001' })).json();
      assert.deepEqual(unindexed.entries, []);
      assert.match(unindexed.indexNote as string, /has no query index/);
      assert.equal((unindexed.bans as { active: boolean }[])[0].active, true);
      const indexDir = path.join(dir, 'index');
      const base = ['--base-url', shared.emulator.url, '--universe', U, '--index-dir', indexDir];
      const built = await cli(['index', 'build', ...base, '--store', 'PlayerData', '--store', 'Guilds']);
      assert.equal(built.code, 0, built.stderr);

      const q = await mcp.call('query_index', {
        universe: U,
        sql: "SELECT key, value->>'coins' AS coins FROM entries WHERE store = 'PlayerData' ORDER BY key",
        limit: 1,
      });
      assert.deepEqual(q.json(), {
        universe: U,
        columns: [
          { name: 'key', type: 'VARCHAR' },
          { name: 'coins', type: 'VARCHAR' },
        ],
        rows: [['Player_2001', '50']],
        truncated: true,
      });
      const write = await mcp.call('query_index', { universe: U, sql: 'DELETE FROM entries' });
      assert.equal(write.isError, true);
      assert.match(write.text, /the query was not run: Only statements that read run here/);

      const player = (await mcp.call('show_player', { universe: U, user: '2001' })).json();
      assert.deepEqual(
        (player.entries as { store: string; key: string; tie: string }[]).map((e) => [e.store, e.key, e.tie]),
        [
          ['Guilds', 'g1', 'shared'],
          ['PlayerData', 'Player_2001', 'key'],
        ],
      );
      const [ban] = player.bans as { active: boolean; duration: string; privateReason: string }[];
      assert.deepEqual([ban.active, ban.duration, ban.privateReason], [true, '3600s', 'spam']);
      assert.equal((player.log as unknown[]).length, 1);

      const log = (await mcp.call('restriction_log', { universe: U, user: '2001' })).json();
      const [row] = log.logs as { user: string; active: boolean; displayReason: string }[];
      assert.deepEqual([row.user, row.active, row.displayReason], ['2001', true, 'Spamming']);
    } finally {
      await mcp.close();
    }
  });

  it('reads an asset with its versions; an unknown asset is named', async () => {
    const png = path.join(dir, 'logo.png');
    fs.writeFileSync(png, Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 1)]));
    const op = await shared.client.assets.create({
      request: {
        assetType: 'Decal',
        displayName: 'Logo',
        description: 'made by a test',
        creationContext: { creator: { userId: 1001 } },
      },
      file: { path: png },
    });
    const { assetId } = (await shared.client.assets.waitForOperation(op, { initialDelayMs: 10 })).response!;
    const mcp = await serve();
    try {
      const a = (await mcp.call('get_asset', { asset: assetId })).json();
      assert.deepEqual([a.asset, a.type, a.displayName, a.creator], [assetId, 'Decal', 'Logo', { user: '1001' }]);
      assert.equal((a.versions as unknown[]).length, 1);
      const unknown = await mcp.call('get_asset', { asset: '999999999' });
      assert.equal(unknown.isError, true);
      assert.match(unknown.text, /^cannot read asset 999999999: /);
    } finally {
      await mcp.close();
    }
  });

  it('hides the API key in results: a value holding it is shown with *** instead', async () => {
    await set('Leaks', 'k', { note: `key ${CLI_KEY} pasted here` });
    const mcp = await serve();
    try {
      const r = (await mcp.call('get_entry', { universe: U, store: 'Leaks', key: 'k' })).json();
      assert.deepEqual(r.value, { note: 'key *** pasted here' });
    } finally {
      await mcp.close();
    }
  });

  it('refuses bad universe lists and no API key before serving (exit 2)', async () => {
    const base = ['mcp', '--base-url', shared.emulator.url];
    const bad = await cli([...base, '--allow-writes', '12,abc']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--allow-writes: "abc" is not a universe id: give ids separated by commas/);
    const outside = await cli([...base, '--universe', '1', '--allow-writes', '2']);
    assert.match(outside.stderr, /--allow-writes 2 is not in --universe: add it there, or leave it out/);
    const noKey = await cli(base, { UE_API_KEY: undefined });
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /no API key: set the UE_API_KEY environment variable/);
    assert.equal(noKey.stdout, '');
  });

  it('--universe limits the universes the tools touch', async () => {
    const mcp = await serve(['--universe', '1,2']);
    try {
      const r = await mcp.call('list_stores', { universe: U });
      assert.equal(r.isError, true);
      assert.match(r.text, /universe 6262 is not one this server serves \(1, 2\)/);
    } finally {
      await mcp.close();
    }
  });
});
