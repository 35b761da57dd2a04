import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/server';
import { demoAssets, demoMemoryStores, demoOrderedStores, demoUniverse } from '../../src/sandbox/demo';
import { call, DS, entry, ENTRY, start } from './fixtures/emulator/harness';

let a: RunningEmulator;
let b: RunningEmulator;
before(async () => {
  [a, b] = await Promise.all([start({ seed: 'demo' }), start({ seed: 'demo' })]);
});
after(() => Promise.all([a.close(), b.close()]));

const keys = async (url: string, datastoreName: string, query: Record<string, string> = {}) =>
  (await call(url, 'GET', `${DS()}/datastore/entries`, { query: { datastoreName, limit: 1000, ...query } })).json.keys;

describe('demo seed', () => {
  it("holds the assets the Local Sandbox's connection is told of (the API cannot list them)", async () => {
    for (const known of demoAssets) {
      const asset = (await call(a.url, 'GET', `/assets/v1/assets/${known.id}`)).json;
      assert.deepEqual(
        [asset.assetId, asset.displayName, asset.assetType],
        [known.id, known.displayName, known.assetType],
      );
    }
  });

  it("holds the ordered data stores the Local Sandbox's demo universe is told of (the API cannot list them)", async () => {
    for (const { store, scope } of demoOrderedStores) {
      const path = `/cloud/v2/universes/${demoUniverse.id}/ordered-data-stores/${store}/scopes/${scope}/entries`;
      assert.ok((await call(a.url, 'GET', path)).json.orderedDataStoreEntries.length > 0, `${store} (${scope})`);
    }
  });

  it('holds the sorted maps and queues the Memory Stores group is told of (the API cannot list them)', async () => {
    const u = `/cloud/v2/universes/${demoUniverse.id}/memory-store`;
    for (const map of demoMemoryStores.sortedMaps) {
      const items = (await call(a.url, 'GET', `${u}/sorted-maps/${map}/items`, { query: { maxPageSize: '100' } })).json
        .items;
      assert.ok(items.length > 0, `sorted map ${map} is empty`);
    }
    for (const queue of demoMemoryStores.queues) {
      const read = await call(b.url, 'GET', `${u}/queues/${queue}/items:read`, { query: { count: '1' } });
      assert.equal(read.status, 200, `queue ${queue} has nothing to read`);
    }
  });

  it('holds data stores in several scopes, with versions, attributes, user ids and numbers', async () => {
    const stores = (await call(a.url, 'GET', DS(), { query: { limit: 100 } })).json.datastores.map(
      (d: { name: string }) => d.name,
    );
    assert.deepEqual(stores, ['Inventory', 'Leaderboard', 'PlayerData', 'Settings']);
    assert.equal((await keys(a.url, 'PlayerData')).length, 300);
    const scopes = new Set(
      (await keys(a.url, 'Inventory', { allScopes: 'true' })).map((k: { scope: string }) => k.scope),
    );
    assert.deepEqual([...scopes], ['global', 'season2']);
    const versions = await call(a.url, 'GET', `${ENTRY}/versions`, { query: entry('Settings', 'FeatureFlags') });
    assert.equal(versions.json.versions.length, 4);
    const settings = await call(a.url, 'GET', ENTRY, { query: entry('Settings', 'GameConfig') });
    assert.ok(settings.headers.get('platform-entry-attributes'));
    assert.equal(settings.headers.get('platform-entry-userids'), '[1001]');
    const score = await call(a.url, 'GET', ENTRY, { query: entry('Leaderboard', 'Player_10001') });
    assert.equal(typeof JSON.parse(score.text), 'number');
  });

  it('holds universe and place bans with their logs', async () => {
    const base = '/cloud/v2/universes/123456';
    assert.ok((await call(a.url, 'GET', `${base}/user-restrictions`)).json.userRestrictions.length >= 3);
    const inherited = await call(a.url, 'GET', `${base}/places/1234562/user-restrictions/2001`);
    assert.equal(inherited.json.gameJoinRestriction.inherited, true);
    const place = (await call(a.url, 'GET', `${base}/places/1234561/user-restrictions`)).json.userRestrictions;
    assert.ok(place.some((r: { gameJoinRestriction: { inherited: boolean } }) => !r.gameJoinRestriction.inherited));
    const logs = (await call(a.url, 'GET', `${base}/user-restrictions:listLogs`, { query: { maxPageSize: 100 } })).json
      .logs;
    assert.ok(logs.length >= 6);
    assert.ok(logs.some((l: { place: string }) => l.place === 'places/1234561'));
    assert.deepEqual(logs[0].moderator, { platformUser: 'users/1001' });
  });

  it('holds assets of creator 1001 with several versions and every moderation state', async () => {
    const states = new Set<string>();
    for (const id of ['10000000001', '10000000002', '10000000003', '10000000004', '10000000005']) {
      const asset = await call(a.url, 'GET', `/assets/v1/assets/${id}`);
      assert.deepEqual(asset.json.creationContext, { creator: { userId: '1001' } });
      states.add(asset.json.moderationResult.moderationState);
    }
    assert.deepEqual([...states].sort(), ['Approved', 'Rejected', 'Reviewing']);
    assert.equal((await call(a.url, 'GET', '/assets/v1/assets/10000000001/versions')).json.assetVersions.length, 3);
  });

  it('is the same every time', async () => {
    for (const path of [
      `${ENTRY}/versions?datastoreName=Settings&entryKey=ShopPrices`,
      `${DS()}?limit=10`,
      '/assets/v1/assets/10000000002',
    ]) {
      assert.equal((await call(a.url, 'GET', path)).text, (await call(b.url, 'GET', path)).text);
    }
  });
});

describe('reset of a seeded emulator', () => {
  it('brings the seed back: the Local Sandbox resets to its demo data, changes gone', async () => {
    const seeded = await start({ seed: 'demo', control: true });
    try {
      const at = entry('Leaderboard', 'Player_10001');
      const demo = (await call(seeded.url, 'GET', ENTRY, { query: at })).text;
      assert.equal((await call(seeded.url, 'POST', ENTRY, { query: at, body: '-1' })).status, 200);
      assert.equal(
        (await call(seeded.url, 'POST', ENTRY, { query: entry('Leaderboard', 'Added'), body: '5' })).status,
        200,
      );
      assert.equal((await call(seeded.url, 'GET', ENTRY, { query: at })).text, '-1');
      assert.equal((await call(seeded.url, 'POST', '/_emulator/reset', { key: null })).status, 200);
      assert.equal((await call(seeded.url, 'GET', ENTRY, { query: at })).text, demo);
      assert.equal((await call(seeded.url, 'GET', ENTRY, { query: entry('Leaderboard', 'Added') })).status, 404);
    } finally {
      await seeded.close();
    }
  });
});
