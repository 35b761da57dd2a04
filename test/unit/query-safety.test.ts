// The query index's edges against the real emulator: only reading statements run, errors say where, a build or a
// query stops when asked (and a stopped build goes on later), rows are JSON-safe, Parquet out reads back, and the
// database is let go for another process.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { QueryError } from '../../src/query';
import { IndexDatabase } from '../../src/query/database';
import { rejection } from './support/client';
import { sharedEmulator } from './support/emulator';
import { keys, newIndex, seed, tempFolder, U } from './support/queryIndex';

const shared = sharedEmulator();
const ROOT = path.resolve(__dirname, '../..');

describe('what a query may be', () => {
  it('a statement that is not a read is refused, saying why, and changes nothing', async () => {
    await seed(shared.client);
    const index = newIndex();
    await index.build(shared.client, { store: 'Guilds' });
    const refused: [string, RegExp][] = [
      ['DELETE FROM entries', /not DELETE: the index is a copy of the service/],
      ['UPDATE entries SET key = 1', /not UPDATE/],
      ['INSERT INTO entries SELECT * FROM entries', /not INSERT/],
      ['WITH x AS (SELECT * FROM entries) INSERT INTO entries SELECT * FROM x', /not INSERT/],
      ['DROP TABLE entries', /not DROP/],
      ['CREATE TABLE t AS SELECT 1', /not CREATE/],
      ["COPY entries TO '/tmp/ue-query-out.csv'", /not COPY/],
      ["ATTACH '/tmp/ue-query-other.duckdb'", /not ATTACH/],
      ["SET memory_limit = '1TB'", /not SET/],
      ['PRAGMA threads = 1', /not SET/],
      ['CHECKPOINT', /not /],
      ['EXPLAIN ANALYZE DELETE FROM entries', /not DELETE.*EXPLAIN ANALYZE runs the statement/],
      ['SELECT 1; DELETE FROM entries', /One statement at a time: this text holds 2/],
      ['  -- nothing\n', /There is no statement to run/],
    ];
    for (const [sql, reason] of refused) {
      const err = await rejection(() => index.query(sql));
      assert.ok(err instanceof QueryError && err.refused, `${sql}: ${String(err)}`);
      assert.match(err.message, reason, sql);
      assert.match(err.message, /SELECT, WITH, DESCRIBE, SHOW, EXPLAIN, PRAGMA table_info|statement/);
    }
    assert.deepEqual(keys(await index.query('SELECT key FROM entries')), ['guild_1'], 'nothing changed');
    for (const sql of [
      'WITH g AS (SELECT * FROM entries) SELECT count(*) FROM g',
      'DESCRIBE entries',
      'SHOW TABLES',
      'PRAGMA table_info(entries)',
      'EXPLAIN SELECT * FROM entries',
      'EXPLAIN ANALYZE SELECT * FROM entries',
      'SUMMARIZE entries',
      'FROM entries',
    ]) {
      assert.ok((await index.query(sql)).rows.length > 0, sql);
    }
  });

  it("a failed query is a QueryError with DuckDB's message, naming the place", async () => {
    const index = newIndex();
    const syntax = await rejection(() => index.query('SELECT * FRM entries'));
    assert.ok(syntax instanceof QueryError && !syntax.refused);
    assert.match(
      syntax.message,
      /^Parser Error: syntax error at or near "entries"\n\nLINE 1: SELECT \* FRM entries\n {21}\^$/,
    );
    const column = await rejection(() => index.query('SELECT coins FROM entries'));
    assert.match(column.message, /^Binder Error: Referenced column "coins" not found[\s\S]*LINE 1: SELECT coins FROM/);
    const cast = await rejection(() => index.query("SELECT CAST('x' AS INTEGER)"));
    assert.match(cast.message, /Conversion Error/);
  });

  it('rows are JSON-safe: whole numbers beyond 2^53 as text, times in ISO 8601, at most `limit` of them', async () => {
    const index = newIndex();
    const r = await index.query(
      "SELECT 9007199254740993::BIGINT AS big, 42::BIGINT AS small, 12345678901234567890::HUGEINT AS huge, TIMESTAMP '2024-01-02 03:04:05.123456' AS t, " +
        "TIMESTAMPTZ '2024-01-02 03:04:05+02' AS tz, DATE '2024-01-02' AS d, [1, 2]::BIGINT[] AS ids, 1.5 AS n, 'é' AS s, NULL AS nothing",
    );
    assert.deepEqual(r.rows, [
      [
        '9007199254740993',
        42,
        '12345678901234567890',
        '2024-01-02T03:04:05.123456Z',
        '2024-01-02T01:04:05.000Z',
        '2024-01-02',
        [1, 2],
        '1.5',
        'é',
        null,
      ],
    ]);
    assert.deepEqual(
      r.columns.map((c) => c.type),
      [
        'BIGINT',
        'BIGINT',
        'HUGEINT',
        'TIMESTAMP',
        'TIMESTAMP WITH TIME ZONE',
        'DATE',
        'BIGINT[]',
        'DECIMAL(2,1)',
        'VARCHAR',
        'INTEGER',
      ],
    );
    JSON.stringify(r);
    const many = await index.query('SELECT * FROM range(10000)', { limit: 2500 });
    assert.deepEqual([many.rows.length, many.truncated, many.rows[2499]], [2500, true, [2499]]);
    const all = await index.query('SELECT * FROM range(3)', { limit: 3 });
    assert.deepEqual([all.rows.length, all.truncated], [3, false]);
  });
});

describe('stopping', () => {
  it('a build stopped midway leaves the index as it was, and the next build goes on from where it stopped', async () => {
    const n = 300;
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        shared.client.datastores.setEntry({
          universeId: U,
          datastoreName: 'Many',
          entryKey: `k${String(i).padStart(4, '0')}`,
          value: { i },
        }),
      ),
    );
    const index = newIndex();
    await shared.emulator.fault({ method: 'GET', path: '/entries/entry', delayMs: 10, times: 1000 });
    const controller = new AbortController();
    let loading = false;
    const err = await rejection(() =>
      index.build(
        shared.client,
        { store: 'Many' },
        {
          signal: controller.signal,
          onProgress: (p) => {
            if (p.phase === 'reading' && p.exported >= 60) controller.abort();
            if (p.phase === 'loading') loading = true;
          },
        },
      ),
    );
    assert.equal(err.name, 'AbortError');
    assert.equal(loading, false);
    assert.deepEqual(await index.info(), [], 'nothing was loaded');
    await shared.emulator.clearFaults();

    const built = await index.build(shared.client, { store: 'Many' });
    assert.ok(built.export!.resumed >= 60 && built.export!.resumed < n, `resumed ${built.export!.resumed}`);
    assert.equal(built.export!.resumed + built.export!.exported, n);
    assert.equal(built.entries, n);
    const distinct = await index.query('SELECT count(DISTINCT key), count(*) FROM entries');
    assert.deepEqual(distinct.rows, [[n, n]]);
    assert.deepEqual(fs.readdirSync(path.join(index.folder, 'builds')), [], 'the build file is gone once loaded');
  });

  it('a query stops when its signal aborts', async () => {
    const index = newIndex();
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 200);
    const err = await rejection(() =>
      index.query('SELECT count(*) FROM range(100000000000) t(i) WHERE hash(i) % 7 = 3', {
        signal: controller.signal,
      }),
    );
    assert.equal(err.name, 'AbortError');
    assert.ok(Date.now() - started < 10_000);
    assert.deepEqual((await index.query('SELECT 1')).rows, [[1]], 'the index goes on working');
  });
});

describe('Parquet and the database file', () => {
  it('exportParquet writes every entry, and the file reads back with its values exact', async () => {
    await seed(shared.client);
    const index = newIndex();
    await index.build(shared.client, { store: 'Players' });
    await index.build(shared.client, { store: 'Guilds' });
    const out = tempFolder('parquet');
    const { file, rows } = await index.exportParquet(out);
    assert.equal(file, path.join(out, 'entries.parquet'));
    assert.equal(rows, 10);
    const back = await index.query(
      `SELECT store, key, value->>'n', user_ids FROM read_parquet('${file}') WHERE key IN ('big', 'ключ 😀') ORDER BY key`,
    );
    assert.deepEqual(back.rows, [
      ['Players', 'big', '12345678901234567890', [3]],
      ['Players', 'ключ 😀', null, []],
    ]);
    const same = await index.query(
      `SELECT count(*) FROM (SELECT * FROM entries EXCEPT SELECT * FROM read_parquet('${file}'))`,
    );
    assert.deepEqual(same.rows, [[0]]);
  });

  it('lives in <dir>/<universe key, file-safe>/index.duckdb; one build of a store runs at a time', async () => {
    await seed(shared.client);
    const index = newIndex();
    assert.equal(
      path.relative(path.dirname(path.dirname(index.file)), index.file),
      path.join(`test%2F${U}`, 'index.duckdb'),
    );
    const first = index.build(shared.client, { store: 'Players' });
    await assert.rejects(
      index.build(shared.client, { store: 'Players', scope: 'season2' }),
      /"Players" is being indexed already/,
    );
    assert.equal((await first).entries, 9);
  });

  it('the database is held while in use and let go when idle, so another process can open it', async () => {
    const index = newIndex({ idleCloseMs: 300 });
    await index.query('SELECT 1');
    const other = (): string =>
      execFileSync(
        process.execPath,
        [
          '-e',
          `require('@duckdb/node-api').DuckDBInstance.create(${JSON.stringify(index.file)})` +
            `.then(() => console.log('opened'), (e) => console.log(e.message))`,
        ],
        { cwd: ROOT, encoding: 'utf8' },
      ).trim();
    assert.match(other(), /Could not set lock/);
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(other(), 'opened');
    assert.deepEqual((await index.query('SELECT 2')).rows, [[2]], 'it opens again on the next call');
  });

  it('an index another process holds is waited for a while (a window being reloaded lets go a moment later)', async (t) => {
    const file = path.join(tempFolder('held'), 'index.duckdb');
    /** Another process holding the file until its stdin ends. */
    const holder = async () => {
      const child = spawn(
        process.execPath,
        [
          '-e',
          `require('@duckdb/node-api').DuckDBInstance.create(${JSON.stringify(file)}).then(async (db) => {` +
            `await db.connect(); console.log('held'); process.stdin.on('end', () => process.exit(0)).resume(); })`,
        ],
        { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
      );
      t.after(() => child.kill());
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      return { release: () => child.stdin.end(), exited };
    };

    const first = await holder();
    let waits = 0;
    const waiting = new IndexDatabase({
      file,
      name: 'test/1',
      lockWaitMs: 60_000,
      onLockWait: () => {
        if (++waits === 1) first.release();
      },
    });
    assert.deepEqual(await waiting.use((engine) => engine.read('SELECT 7', { limit: 1 })).then((r) => r.rows), [[7]]);
    assert.ok(waits >= 1, 'the first open met the other process');
    await waiting.close();

    const second = await holder();
    const impatient = new IndexDatabase({ file, name: 'test/1', lockWaitMs: 300 });
    await assert.rejects(
      impatient.use(async () => undefined),
      /The query index of test\/1 is open in another window or process, which lets it go after a while unused/,
    );
    second.release();
    await second.exited;
  });
});
