// The query index against the real emulator over loopback: built live and from an export file it holds each entry
// as the store does, its searches find exactly the expected keys, and it follows other writers and the editor.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { exportDataStore, notFoundAs } from '../../src/api';
import type { UniverseIndex } from '../../src/query';
import { sharedEmulator } from './support/emulator';
import { keys, LEGACY, legacyAnswers, newIndex, seed, tempFolder, U } from './support/queryIndex';

const shared = sharedEmulator();

/** Each indexed row of `store`: scope/key → the columns as query() gives them. */
async function rowsOf(index: UniverseIndex, store: string): Promise<Map<string, Record<string, unknown>>> {
  const result = await index.query(`SELECT * FROM entries WHERE store = '${store}' ORDER BY scope, key`, {
    limit: 100_000,
  });
  const names = result.columns.map((c) => c.name);
  return new Map(
    result.rows.map((row) => {
      const record = Object.fromEntries(names.map((n, i) => [n, row[i]]));
      return [`${String(record.scope)}/${String(record.key)}`, record];
    }),
  );
}

/** Checks the index's rows of `store` against every entry the service lists in it, read one by one. */
async function agreesWithStore(index: UniverseIndex, store: string, opts: { times: boolean }): Promise<number> {
  const rows = await rowsOf(index, store);
  let compared = 0;
  const listed = shared.client.datastores.listEntries({ universeId: U, datastoreName: store, allScopes: true });
  for await (const { scope, key } of listed) {
    const entry = await shared.client.datastores
      .getEntry({ universeId: U, datastoreName: store, scope, entryKey: key })
      .catch(notFoundAs(undefined));
    const row = rows.get(`${scope}/${key}`);
    if (!entry) {
      // v1 lists a deleted key too (docs/SERVICE.md, "Versions and deletion"): it has no row.
      assert.equal(row, undefined, `${scope}/${key} is deleted`);
      continue;
    }
    assert.ok(row, `${scope}/${key} is indexed`);
    const text = entry.raw.toString('utf8');
    assert.equal(row.value, entry.json ? text : JSON.stringify(text), `${scope}/${key}: value`);
    assert.equal(row.not_json, !entry.json);
    assert.equal(row.version, entry.version);
    assert.deepEqual(JSON.parse(row.attributes as string), entry.attributes);
    assert.deepEqual(row.user_ids, entry.userIds);
    if (opts.times) {
      assert.equal(Date.parse(row.created_time as string), Date.parse(entry.createdTime!));
      assert.equal(Date.parse(row.updated_time as string), Date.parse(entry.versionCreatedTime!));
    } else assert.deepEqual([row.created_time, row.updated_time], [null, null]);
    rows.delete(`${scope}/${key}`);
    compared++;
  }
  assert.deepEqual([...rows.keys()], [], 'no row the store does not hold');
  return compared;
}

describe('building the index', () => {
  it('built live, it holds every entry of each store as the service does, and says what it holds', async () => {
    await seed(shared.client);
    await legacyAnswers(shared.emulator);
    const index = newIndex();
    const players = await index.build(shared.client, { store: 'Players' });
    const guilds = await index.build(shared.client, { store: 'Guilds' });
    assert.deepEqual([players.entries, guilds.entries], [9, 1]);
    assert.equal(players.export?.failed, 0);
    assert.equal(await agreesWithStore(index, 'Players', { times: true }), 9);
    assert.equal(await agreesWithStore(index, 'Guilds', { times: true }), 1);

    const legacy = (await rowsOf(index, 'Players')).get(`global/${LEGACY.key}`)!;
    assert.deepEqual([legacy.value, legacy.not_json], [JSON.stringify(LEGACY.text), true]);
    const info = await index.info();
    assert.deepEqual(
      info.map((p) => [p.store, p.scope, p.entries, p.source, p.failed]),
      [
        ['Guilds', undefined, 1, 'service', 0],
        ['Players', undefined, 9, 'service', 0],
      ],
    );
    assert.ok(Date.parse(info[1].asOf) <= Date.parse(info[1].builtAt));
    const table = await index.query('SELECT store, scope, entries FROM index_info ORDER BY store');
    assert.deepEqual(table.rows, [
      ['Guilds', null, 1],
      ['Players', null, 9],
    ]);
  });

  it('built from an export file, it holds each entry the file holds as the service does', async () => {
    await seed(shared.client);
    const file = path.join(tempFolder('export'), 'players [1].ndjson'); // DuckDB would read [1] as a pattern
    // An export as Export… writes it: no times, and the plain-text value is a failure, not a line.
    await legacyAnswers(shared.emulator);
    const exported = await exportDataStore(shared.client, {
      universeId: U,
      datastoreName: 'Players',
      allScopes: true,
      file,
    });
    assert.equal(exported.failed, 1);
    await shared.emulator.clearFaults();
    await shared.client.datastores.deleteEntry({ universeId: U, datastoreName: 'Players', entryKey: LEGACY.key });
    const index = newIndex();
    const built = await index.buildFromFile(file);
    assert.deepEqual([built.store, built.scope, built.entries], ['Players', undefined, 8]);
    assert.equal(await agreesWithStore(index, 'Players', { times: false }), 8);
    const [part] = await index.info();
    assert.deepEqual([part.source, part.entries], [file, 8]);
  });

  it('one scope built on its own replaces that scope only', async () => {
    await seed(shared.client);
    const index = newIndex();
    await index.build(shared.client, { store: 'Players' });
    await shared.client.datastores.setEntry({
      universeId: U,
      datastoreName: 'Players',
      scope: 'season2',
      entryKey: 'late',
      value: { coins: 1 },
    });
    const season = await index.build(shared.client, { store: 'Players', scope: 'season2' });
    assert.equal(season.entries, 2);
    const info = await index.info();
    assert.deepEqual(
      info.map((p) => [p.store, p.scope, p.entries]),
      [
        ['Players', undefined, 8],
        ['Players', 'season2', 2],
      ],
      'the all-scopes row counts the scopes that have no row of their own',
    );
    const counts = await index.query('SELECT scope, count(*) FROM entries GROUP BY scope ORDER BY scope');
    assert.deepEqual(counts.rows, [
      ['global', 8],
      ['season2', 2],
    ]);
  });

  it('a file of another universe, or without an export header, is refused', async () => {
    await seed(shared.client);
    const folder = tempFolder('other');
    const file = path.join(folder, 'other.ndjson');
    await exportDataStore(shared.client, { universeId: U, datastoreName: 'Guilds', file });
    const other = newIndex({ universeId: U + 1, universeKey: `test/${U + 1}` });
    await assert.rejects(
      other.buildFromFile(file),
      /holds an export of universe 6060, data store "Guilds".*not of universe 6061/,
    );
    const bare = path.join(folder, 'bare.ndjson');
    fs.writeFileSync(bare, '{"scope":"global","key":"k","value":1}\n');
    await assert.rejects(newIndex().buildFromFile(bare), /does not start with an export header/);
  });
});

describe('searching the index', () => {
  /** One index of the seed data, built live, for the searches below. */
  async function seededIndex(): Promise<UniverseIndex> {
    await seed(shared.client);
    await legacyAnswers(shared.emulator);
    const index = newIndex();
    await index.build(shared.client, { store: 'Players' });
    await index.build(shared.client, { store: 'Guilds' });
    return index;
  }

  it('by value, by user id and by text, each finds exactly the expected keys', async () => {
    const index = await seededIndex();
    const q = async (sql: string) => keys(await index.query(sql));
    assert.deepEqual(await q("SELECT key FROM entries WHERE CAST(value->>'coins' AS BIGINT) > 100 ORDER BY key"), [
      'Player_2001',
      'Player_20010',
      'big',
      'guild_1',
    ]);
    assert.deepEqual(await q('SELECT key FROM entries WHERE list_contains(user_ids, 2001) ORDER BY key'), [
      'Player_2001',
      'guild_1',
      'legacy',
    ]);
    assert.deepEqual(
      await q("SELECT key FROM entries WHERE value->'inventory'->'bag'->>'item' = 'deep treasure'"),
      ['Player_2001'],
      'nested JSON',
    );
    assert.deepEqual(await q("SELECT value->>'n' FROM entries WHERE key = 'big'"), ['12345678901234567890']);
    assert.deepEqual(await q("SELECT key FROM entries WHERE key LIKE 'ключ%'"), ['ключ 😀']);
    assert.deepEqual(await q("SELECT value FROM entries WHERE key = 'ключ 😀'"), ['"значение ✓ Гном"']);
    assert.deepEqual(await q('SELECT key FROM entries WHERE not_json'), ['legacy']);
  });

  it('findValue finds text in any case and numbers as whole tokens, and gives its SQL', async () => {
    const index = await seededIndex();
    const found = async (text: string) => keys(await index.findValue(text), 2);
    assert.deepEqual(await found('ГНОМ'), ['ключ 😀'], 'unicode, in any case');
    assert.deepEqual(await found('Treasure'), ['Player_2001'], 'deep in nested JSON');
    assert.deepEqual(await found('say "hi" \\ back'), ['quote'], 'quotes and backslashes as JSON escapes them');
    assert.deepEqual(await found('plain text'), ['legacy'], 'a value that is not JSON, as its text');
    assert.deepEqual(await found('12345678901234567890'), ['big'], 'a big integer, every digit');
    assert.deepEqual(
      await found('2001'),
      ['guild_1', 'Player_12001', 'legacy'],
      'in a list and in text, not in 12001 or 20010 (Player_2001 has it in its key only)',
    );
    assert.deepEqual(await found('20010'), ['Player_20010']);
    assert.deepEqual(await found('7.0'), ['list'], '7.0 finds 7');
    const { sql, rows } = await index.findValue('zoë');
    assert.match(sql, /^-- Values whose JSON text holds "zoë"/);
    assert.equal(rows.length, 1);
    assert.deepEqual(keys(await index.query(sql.replace('zoë', 'ZOË')), 2), ['Player_2001'], 'the SQL runs as edited');
  });

  it('playerEntries: user ids, or the id as a whole number in the key (not 12001 or 20010 for 2001)', async () => {
    const index = await seededIndex();
    const { sql, rows } = await index.playerEntries(2001);
    assert.deepEqual(
      rows.map((r) => `${String(r[0])}/${String(r[1])}/${String(r[2])}`),
      ['Guilds/global/guild_1', 'Players/global/Player_2001', 'Players/global/legacy', 'Players/season2/save_2001_old'],
    );
    assert.match(sql, /list_contains\(user_ids, 2001\)/);
    assert.deepEqual(keys(await index.playerEntries('12001'), 2), ['Player_12001']);
    assert.deepEqual(keys(await index.playerEntries(20010), 2), ['Player_20010']);
    await assert.rejects(index.playerEntries('20 01'), /is no user id/);
  });
});

describe('keeping the index current', () => {
  it('a refresh after another writer replaces the store’s rows with what the service holds now', async () => {
    await seed(shared.client);
    const index = newIndex();
    const first = await index.build(shared.client, { store: 'Players' });
    // Another writer: one value changed, one key deleted, one key added.
    await shared.client.datastores.setEntry({
      universeId: U,
      datastoreName: 'Players',
      entryKey: 'Player_2001',
      value: { coins: 999 },
      userIds: [2001],
    });
    await shared.client.datastores.deleteEntry({ universeId: U, datastoreName: 'Players', entryKey: 'Player_20010' });
    await shared.client.datastores.setEntry({
      universeId: U,
      datastoreName: 'Players',
      entryKey: 'Player_3003',
      value: 1,
    });
    const stale = await index.query("SELECT value->>'coins' FROM entries WHERE key = 'Player_2001'");
    assert.deepEqual(stale.rows, [['150']], 'until refreshed, the index holds what it read');

    const again = await index.refresh(shared.client, { store: 'Players' });
    assert.ok(Date.parse(again.asOf) >= Date.parse(first.asOf));
    assert.equal(await agreesWithStore(index, 'Players', { times: true }), 9);
    const now = await index.query("SELECT value->>'coins' FROM entries WHERE key = 'Player_2001'");
    assert.deepEqual(now.rows, [['999']]);
  });

  it('updateEntry keeps one row current after a save or a delete, in indexed stores only', async () => {
    await seed(shared.client);
    const index = newIndex();
    await index.build(shared.client, { store: 'Guilds' });
    const address = { universeId: U, datastoreName: 'Guilds', entryKey: 'guild_1' };
    await shared.client.datastores.setEntry({ ...address, raw: '{"members":[2001],"coins":5}', userIds: [2001] });
    assert.equal(
      await index.updateEntry('Guilds', 'global', 'guild_1', await shared.client.datastores.getEntry(address)),
      true,
    );
    await shared.client.datastores.setEntry({ ...address, entryKey: 'guild_2', raw: '{"coins":6}' });
    const created = await shared.client.datastores.getEntry({ ...address, entryKey: 'guild_2' });
    assert.equal(await index.updateEntry('Guilds', 'global', 'guild_2', created), true);
    assert.equal(await agreesWithStore(index, 'Guilds', { times: true }), 2);
    assert.deepEqual(
      (await index.info()).map((p) => p.entries),
      [2],
    );

    await shared.client.datastores.deleteEntry({ ...address, entryKey: 'guild_2' });
    assert.equal(await index.updateEntry('Guilds', 'global', 'guild_2', 'deleted'), true);
    assert.equal(await agreesWithStore(index, 'Guilds', { times: true }), 1);
    const text = { raw: 'not json', version: 'v', attributes: {}, userIds: [] };
    assert.equal(await index.updateEntry('Players', 'global', 'x', text), false, 'Players is not indexed');
    assert.deepEqual(keys(await index.query("SELECT key FROM entries WHERE store = 'Players'")), []);
  });

  it('updateEntries applies many updates in one call, to indexed stores only, and keeps a creation time not given', async () => {
    await seed(shared.client);
    const index = newIndex();
    await index.build(shared.client, { store: 'Guilds' });
    const [before] = (await index.query("SELECT created_time FROM entries WHERE key = 'guild_1'")).rows;
    const updates = Array.from({ length: 500 }, (_, i) => ({
      store: 'Guilds',
      scope: 'global',
      key: `new_${i}`,
      entry: { raw: `{"n":${i}}`, version: `v${i}`, attributes: {}, userIds: [i + 1] },
    }));
    const applied = await index.updateEntries([
      ...updates,
      {
        store: 'Guilds',
        scope: 'global',
        key: 'guild_1',
        entry: { raw: '{"coins":1}', version: 'v', attributes: {}, userIds: [] },
      },
      { store: 'Guilds', scope: 'global', key: 'new_7', entry: 'deleted' },
      { store: 'Players', scope: 'global', key: 'p', entry: { raw: '1', version: 'v', attributes: {}, userIds: [] } },
    ]);
    assert.equal(applied, 502, 'every update to Guilds; none to Players, which is not indexed');
    const count = await index.query("SELECT count(*), count(DISTINCT key) FROM entries WHERE key LIKE 'new_%'");
    assert.deepEqual(count.rows, [[499, 499]]);
    const guild = await index.query("SELECT value, created_time FROM entries WHERE key = 'guild_1'");
    assert.deepEqual(guild.rows, [['{"coins":1}', before[0]]], 'the value changed, the creation time stayed');
    assert.deepEqual(keys(await index.query("SELECT key FROM entries WHERE store = 'Players'")), []);
    const [part] = await index.info();
    assert.equal(
      part.entries,
      Number((await index.query("SELECT count(*) FROM entries WHERE store = 'Guilds'")).rows[0][0]),
    );
  });

  it('an update that arrives while its store is being built is not undone by the build', async () => {
    await seed(shared.client);
    const index = newIndex();
    await index.build(shared.client, { store: 'Guilds' });
    const address = { universeId: U, datastoreName: 'Guilds', entryKey: 'guild_1' };
    await shared.client.datastores.setEntry({ ...address, entryKey: 'guild_2', value: 2 });
    // The build has read guild_1 and waits for guild_2 when the editor saves guild_1 and tells the index.
    await shared.emulator.fault({ method: 'GET', path: '/entries/entry', query: 'entryKey=guild_2', delayMs: 400 });
    const building = index.build(shared.client, { store: 'Guilds' });
    await new Promise((r) => setTimeout(r, 150));
    await shared.client.datastores.setEntry({ ...address, raw: '{"coins":77}' });
    await index.updateEntry('Guilds', 'global', 'guild_1', await shared.client.datastores.getEntry(address));
    const built = await building;
    assert.equal(built.entries, 2);
    assert.deepEqual((await index.query("SELECT value FROM entries WHERE key = 'guild_1'")).rows, [['{"coins":77}']]);
  });
});
