// Export and import against the real emulator over loopback: exact round trips, resuming a stopped export,
// and an export under a tiny rate limit.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { exportDataStore, importDataStore } from '../../src/api';
import { API_KEY, makeClient, rejection } from './support/client';
import { sharedEmulator, TestEmulator } from './support/emulator';

const U = 7070;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-bulk-export-'));
const shared = sharedEmulator();
after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const file = (name: string) => path.join(dir, name);
const lines = (f: string) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean);
const keysOf = (f: string) => lines(f).map((l) => `${JSON.parse(l).scope}/${JSON.parse(l).key}`);

/** Entries with exact raw values: a big integer, number spellings, whitespace, unicode keys and scopes. */
const SAMPLE = [
  {
    scope: 'global',
    key: 'big',
    raw: '{"id":12345678901234567890,"price":1.50,"e":1E5}',
    attributes: { tag: 'vip', n: 1 },
    userIds: [1, 2],
  },
  { scope: 'global', key: 'ключ', raw: '"значение ✓"', attributes: {}, userIds: [] },
  { scope: 'global', key: '😀 emoji key', raw: '[1, 2,  3]', attributes: { emoji: '😀' }, userIds: [4] },
  { scope: 'season2', key: 'spaced', raw: '{ "a" : [ true , null ] }', attributes: {}, userIds: [9007199254740991] },
  {
    scope: 'season2',
    key: 'quote"and\\slash',
    raw: '"a \\"quoted\\" \\\\ text"',
    attributes: { q: 'x"y' },
    userIds: [],
  },
  { scope: 'ünïcode', key: 'n', raw: '-0.000', attributes: {}, userIds: [] },
];

async function seed(store: string): Promise<void> {
  for (const e of SAMPLE) {
    await shared.client.datastores.setEntry({
      universeId: U,
      datastoreName: store,
      scope: e.scope,
      entryKey: e.key,
      raw: e.raw,
      attributes: Object.keys(e.attributes).length ? e.attributes : undefined,
      userIds: e.userIds.length ? e.userIds : undefined,
    });
  }
}

async function seedMany(store: string, n: number): Promise<void> {
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      shared.client.datastores.setEntry({
        universeId: U,
        datastoreName: store,
        entryKey: `k${String(i).padStart(4, '0')}`,
        value: { i },
      }),
    ),
  );
}

describe('export', () => {
  it('export then import round trips several scopes, attributes, user ids, a big integer and unicode keys exactly', async () => {
    await seed('Source');
    const out = file('roundtrip.ndjson');
    const exported = await exportDataStore(shared.client, {
      universeId: U,
      datastoreName: 'Source',
      allScopes: true,
      file: out,
    });
    assert.deepEqual([exported.exported, exported.resumed, exported.skipped], [SAMPLE.length, 0, 0]);
    assert.equal(lines(out).length, SAMPLE.length);
    assert.match(fs.readFileSync(out, 'utf8'), /"value":\{"id":12345678901234567890,"price":1.50,"e":1E5\}/);

    const imported = await importDataStore(shared.client, {
      universeId: U,
      datastoreName: 'Target',
      file: out,
      mode: 'overwrite',
    });
    assert.deepEqual([imported.written, imported.skipped, imported.failed], [SAMPLE.length, 0, 0]);
    for (const e of SAMPLE) {
      const got = await shared.client.datastores.getEntry({
        universeId: U,
        datastoreName: 'Target',
        scope: e.scope,
        entryKey: e.key,
      });
      assert.equal(got.raw.toString('utf8'), e.raw, `${e.scope}/${e.key}`);
      assert.deepEqual(got.attributes, e.attributes);
      assert.deepEqual(got.userIds, e.userIds);
    }
  });

  it('exports one scope only when asked, each line with its version', async () => {
    await seed('Source');
    const out = file('one-scope.ndjson');
    await exportDataStore(shared.client, {
      universeId: U,
      datastoreName: 'Source',
      scope: 'season2',
      file: out,
      resume: false,
    });
    assert.deepEqual(keysOf(out).sort(), ['season2/quote"and\\slash', 'season2/spaced']);
    const current = await shared.client.datastores.getEntry({
      universeId: U,
      datastoreName: 'Source',
      scope: 'season2',
      entryKey: 'spaced',
    });
    assert.ok(lines(out).some((l) => JSON.parse(l).version === current.version));
  });

  it('a cancelled export resumes without duplicates, dropping a line cut short', async () => {
    await seedMany('Many', 400);
    const out = file('resume.ndjson');
    await shared.emulator.fault({ method: 'GET', path: '/entries/entry', delayMs: 20, times: 1000 }); // slow enough to stop midway
    const controller = new AbortController();
    const err = await rejection(() =>
      exportDataStore(
        shared.client,
        { universeId: U, datastoreName: 'Many', file: out, pageSize: 50 },
        { signal: controller.signal, onProgress: (p) => p.exported >= 60 && controller.abort() },
      ),
    );
    assert.equal(err.name, 'AbortError');
    const first = keysOf(out);
    assert.ok(first.length >= 60 && first.length < 400, `${first.length} lines after the stop`);
    fs.appendFileSync(out, '{"scope":"global","key":"k03'); // a write cut short
    await fetch(`${shared.emulator.url}/_emulator/faults`, { method: 'DELETE' });
    const getsBefore = (await shared.emulator.requests({ method: 'GET', path: '/entries/entry' })).length;

    const resumed = await exportDataStore(shared.client, {
      universeId: U,
      datastoreName: 'Many',
      file: out,
      pageSize: 50,
    });
    assert.equal(resumed.resumed, first.length);
    assert.equal(resumed.exported, 400 - first.length);
    const all = keysOf(out);
    assert.equal(all.length, 400);
    assert.equal(new Set(all).size, 400, 'no duplicates');
    assert.deepEqual(all.slice(0, first.length), first, 'the earlier lines are kept as they were');
    const gets = (await shared.emulator.requests({ method: 'GET', path: '/entries/entry' })).length - getsBefore;
    assert.equal(gets, 400 - first.length, 'entries already in the file are not read again');
  });

  it('writes lines in listing order and leaves out keys deleted before they were read', async () => {
    await seedMany('Ordered', 120);
    await shared.client.datastores.deleteEntry({ universeId: U, datastoreName: 'Ordered', entryKey: 'k0007' });
    const out = file('ordered.ndjson');
    const result = await exportDataStore(
      shared.client,
      { universeId: U, datastoreName: 'Ordered', file: out, pageSize: 25 },
      { concurrency: 8 },
    );
    assert.equal(result.skipped, 1, 'the deleted key is still listed but cannot be read');
    const listed: string[] = [];
    for await (const k of shared.client.datastores.listEntries({ universeId: U, datastoreName: 'Ordered' }))
      listed.push(`${k.scope}/${k.key}`);
    assert.deepEqual(
      keysOf(out),
      listed.filter((k) => k !== 'global/k0007'),
    );
  });

  it('refuses to continue into a file that is not an export', async () => {
    const out = file('notes.txt');
    fs.writeFileSync(out, 'my notes\n');
    const err = await rejection(() =>
      exportDataStore(shared.client, { universeId: U, datastoreName: 'Many', file: out }),
    );
    assert.match(err.message, /line 1 is not an export line/);
    assert.equal(fs.readFileSync(out, 'utf8'), 'my notes\n', 'the file is left alone');
  });
});

describe('export under a tiny rate limit', () => {
  it('finishes with zero failures, pacing itself from the x-ratelimit-* figures instead of meeting 429s', async () => {
    // Seed without limits, then serve the same data with 6 reads per 1-second window: 20 entries and 1 page need four.
    const data = fs.mkdtempSync(path.join(dir, 'data-'));
    const seeder = await TestEmulator.start({ dataDir: data, apiKeys: [{ key: API_KEY }] });
    const seedClient = makeClient(seeder.url).client;
    try {
      for (let i = 0; i < 20; i++)
        await seedClient.datastores.setEntry({ universeId: U, datastoreName: 'Slow', entryKey: `s${i}`, value: i });
    } finally {
      await seedClient.close();
      await seeder.close();
    }

    const limited = await TestEmulator.start({
      dataDir: data,
      apiKeys: [{ key: API_KEY }],
      rateLimits: true,
      rateLimitScale: 0.02,
      rateLimitWindowScale: 1 / 60,
    });
    const limitedClient = makeClient(limited.url).client;
    try {
      const out = file('slow.ndjson');
      const result = await exportDataStore(limitedClient, { universeId: U, datastoreName: 'Slow', file: out });
      assert.equal(result.exported, 20);
      assert.equal(lines(out).length, 20);
      const seen = await limited.requests();
      assert.equal(seen.filter((r) => r.status === 429).length, 0, 'it waited for the window instead');
      assert.equal(seen.filter((r) => r.status === 200).length, 21);
    } finally {
      await limitedClient.close();
      await limited.close();
    }
  });
});
