// Export and import against the real emulator over loopback: exact round trips, resuming a stopped export,
// and an export under a tiny rate limit.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ServerResponse } from 'node:http';
import { after, describe, it } from 'node:test';
import {
  AuthError,
  exportDataStore,
  failuresFileFor,
  importDataStore,
  planImport,
  type ExportCounts,
  type OpenApiClient,
} from '../../src/api';
import { makeClient, rejection } from './support/client';
import { limitedAfter, sharedEmulator } from './support/emulator';
import { sendJson, startFixture } from './support/fixture';

const U = 7070;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-bulk-export-'));
const shared = sharedEmulator();
after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const file = (name: string) => path.join(dir, name);
/** The entry lines of an export file (its header line left out). */
const lines = (f: string) =>
  fs
    .readFileSync(f, 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('{"export":'));
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

/** Writes 20 small entries into `store`, one at a time. */
const seedSlow = (store: string) => async (client: OpenApiClient) => {
  for (let i = 0; i < 20; i++)
    await client.datastores.setEntry({ universeId: U, datastoreName: store, entryKey: `s${i}`, value: i });
};

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

  it('asked for times and values that are not JSON as text, each line says them; the import refuses those lines', async () => {
    await seed('Source');
    // Another writer stored text that is not JSON under "n" (the emulator refuses such a write; a fault stands in).
    const legacy = { 'platform-entry-version': 'v-text', 'platform-entry-userids': '[7]' };
    await shared.emulator.fault({
      path: '/entry',
      query: 'entryKey=n&',
      status: 200,
      headers: legacy,
      body: 'not "json"\n',
    });
    const out = file('details.ndjson');
    const result = await exportDataStore(shared.client, {
      universeId: U,
      datastoreName: 'Source',
      allScopes: true,
      file: out,
      times: true,
      notJsonAsText: true,
    });
    assert.deepEqual([result.exported, result.failed], [SAMPLE.length, 0]);
    const parsed = lines(out).map((l) => JSON.parse(l) as Record<string, unknown>);
    const text = parsed.find((l) => l.key === 'n')!;
    assert.deepEqual([text.value, text.notJson, text.userIds], ['not "json"\n', true, [7]]);
    const big = parsed.find((l) => l.key === 'big')!;
    const current = await shared.client.datastores.getEntry({
      universeId: U,
      datastoreName: 'Source',
      entryKey: 'big',
    });
    assert.deepEqual([big.createdTime, big.updatedTime], [current.createdTime, current.versionCreatedTime]);
    assert.ok(parsed.filter((l) => l.key !== 'n').every((l) => l.notJson === undefined && l.createdTime));

    const plan = await planImport(shared.client, { universeId: U, datastoreName: 'Copy' }, out, 'overwrite');
    assert.deepEqual(
      plan.actions.filter((a) => a.action === 'invalid').map((a) => [a.key, a.reason]),
      [['n', 'the value was not JSON and the line holds its text, which is not the value']],
      'the line holding text is not imported as a string',
    );
  });

  it('lists the keys ahead of the reads, so how many there are is known long before they are read', async () => {
    await seedMany('Ahead', 300);
    // Reads take a while; lists do not: the listing (a request per 50 keys) gets ahead of the reads (one per key).
    await shared.emulator.fault({ method: 'GET', path: '/entries/entry', delayMs: 10, times: 300 });
    const reports: ExportCounts[] = [];
    const result = await exportDataStore(
      shared.client,
      { universeId: U, datastoreName: 'Ahead', file: file('ahead.ndjson'), pageSize: 50 },
      { concurrency: 4, onProgress: (p) => reports.push({ ...p }) },
    );
    assert.deepEqual([result.exported, result.listed, result.listedAll], [300, 300, true]);
    const early = reports.find((p) => p.listedAll);
    assert.ok(early, 'a report said the listing was complete');
    assert.equal(early.listed, 300);
    assert.ok(early.exported < 150, `the listing was complete with ${early.exported} of 300 read`);
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
    const limited = await limitedAfter(fs.mkdtempSync(path.join(dir, 'data-')), 0.02, seedSlow('Slow'));
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

describe('export through cloud v2', () => {
  /** Each line in one spelling: v2 carries values inside JSON, so their text comes back compact (and -0 as 0). */
  const parsed = (f: string) => lines(f).map((l) => JSON.stringify(JSON.parse(l)));
  const listRequests = async (from: number) =>
    (await shared.emulator.requests()).slice(from).filter((r) => r.method === 'GET' && r.path.endsWith('/entries'));

  it('writes the same entries as through v1, with 256 keys a page instead of 100, and reads a key with "/" through v1', async () => {
    await seed('Both');
    await seedMany('Both', 600);
    await shared.client.datastores.setEntry({ universeId: U, datastoreName: 'Both', entryKey: 'a/b', value: 'slash' });
    const args = { universeId: U, datastoreName: 'Both', allScopes: true, resume: false };

    let seen = (await shared.emulator.requests()).length;
    const v1 = await exportDataStore(shared.client, { ...args, file: file('v1.ndjson') });
    const v1Lists = await listRequests(seen);
    seen = (await shared.emulator.requests()).length;
    const v2 = await exportDataStore(shared.client, { ...args, file: file('v2.ndjson'), api: 'v2' });
    const v2Lists = await listRequests(seen);

    assert.equal(v1.exported, SAMPLE.length + 601);
    assert.equal(v2.exported, v1.exported);
    assert.deepEqual(parsed(file('v2.ndjson')), parsed(file('v1.ndjson')));
    // v2 clamps numbers to ±2^53: that entry was read again through v1, so its big integer is exact.
    assert.match(fs.readFileSync(file('v2.ndjson'), 'utf8'), /"id":12345678901234567890/);
    assert.ok(v1Lists.every((r) => r.path.startsWith('/datastores/v1/')));
    assert.ok(v2Lists.every((r) => r.path.startsWith('/cloud/v2/')));
    assert.deepEqual([v1Lists.length, v2Lists.length], [Math.ceil(607 / 100), Math.ceil(607 / 256)]);
  });

  it('an answer that cannot be read is listed with a reason that names no request path', async () => {
    await seedMany('Cut', 3);
    await shared.emulator.fault({ method: 'GET', path: 'k0001@latest', status: 200, body: '{"path":"x","value":' });
    const out = file('cut-v2.ndjson');
    const result = await exportDataStore(shared.client, {
      universeId: U,
      datastoreName: 'Cut',
      file: out,
      resume: false,
      api: 'v2',
    });
    assert.deepEqual([result.exported, result.failed], [2, 1]);
    const [failure] = fs
      .readFileSync(result.failuresFile!, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { key: string; error: string });
    assert.equal(failure.key, 'k0001');
    assert.equal(failure.error, "The service's answer could not be read ((body): not valid JSON)");
  });

  it('under the v2 limits, lists and reads, each paced by its own budget, meet no 429', async () => {
    // 6 reads and 6 lists a 1-second window: 20 entries need four windows of reads.
    const limited = await limitedAfter(fs.mkdtempSync(path.join(dir, 'data-v2-')), 0.02, seedSlow('SlowV2'));
    const limitedClient = makeClient(limited.url).client;
    try {
      const out = file('slow-v2.ndjson');
      const result = await exportDataStore(limitedClient, {
        universeId: U,
        datastoreName: 'SlowV2',
        file: out,
        pageSize: 5,
        api: 'v2',
      });
      assert.equal(result.exported, 20);
      const seen = await limited.requests();
      assert.equal(seen.filter((r) => r.status === 429).length, 0, "it waited for each budget's window instead");
      assert.equal(seen.filter((r) => r.status === 200).length, 24);
      assert.ok(seen.every((r) => r.path.startsWith('/cloud/v2/')));
    } finally {
      await limitedClient.close();
      await limited.close();
    }
  });
});

describe('the export header', () => {
  it('the first line says what the file holds; continuing it for another universe, store or scope is refused', async () => {
    await seedMany('A', 3);
    const out = file('header.ndjson');
    await exportDataStore(shared.client, { universeId: U, datastoreName: 'A', file: out, resume: false });
    const text = fs.readFileSync(out, 'utf8');
    assert.deepEqual(JSON.parse(text.split('\n')[0]), {
      export: { universeId: U, datastoreName: 'A', scope: 'global' },
    });
    assert.equal(lines(out).length, 3);
    for (const other of [{ datastoreName: 'B' }, { universeId: U + 1 }, { scope: 'other' }, { allScopes: true }]) {
      const err = await rejection(() =>
        exportDataStore(shared.client, { universeId: U, datastoreName: 'A', file: out, ...other }),
      );
      assert.match(
        err.message,
        new RegExp(`holds an export of universe ${U}, data store "A", scope "global", not of `),
      );
      assert.ok(
        err.message.includes(Object.values(other)[0] === true ? 'all scopes' : String(Object.values(other)[0])),
      );
    }
    assert.equal(fs.readFileSync(out, 'utf8'), text, 'the file is left alone');
    const again = await exportDataStore(shared.client, { universeId: U, datastoreName: 'A', file: out });
    assert.deepEqual([again.resumed, again.exported], [3, 0], 'the same export continues');
  });

  it('an export of all scopes says so, and only an export of all scopes continues it', async () => {
    await seed('Source');
    const out = file('all-scopes.ndjson');
    await exportDataStore(shared.client, { universeId: U, datastoreName: 'Source', allScopes: true, file: out });
    assert.deepEqual(JSON.parse(fs.readFileSync(out, 'utf8').split('\n')[0]), {
      export: { universeId: U, datastoreName: 'Source', allScopes: true },
    });
    const err = await rejection(() =>
      exportDataStore(shared.client, { universeId: U, datastoreName: 'Source', file: out }),
    );
    assert.match(err.message, /all scopes, not of .*scope "global"/);
  });

  it('a file without a header (the older format) is not continued; starting over replaces it', async () => {
    await seedMany('Old', 2);
    const out = file('old-format.ndjson');
    const old = '{"scope":"global","key":"k0000","value":1,"attributes":{},"userIds":[]}\n';
    fs.writeFileSync(out, old);
    const err = await rejection(() =>
      exportDataStore(shared.client, { universeId: U, datastoreName: 'Old', file: out }),
    );
    assert.match(err.message, /has no export header .*start over/);
    assert.equal(fs.readFileSync(out, 'utf8'), old);
    const fresh = await exportDataStore(shared.client, {
      universeId: U,
      datastoreName: 'Old',
      file: out,
      resume: false,
    });
    assert.equal(fresh.exported, 2);
    assert.match(fs.readFileSync(out, 'utf8'), /^\{"export":/);
  });
});

describe('entries that cannot be read', () => {
  const keys = ['a', 'text', '\ud800lone', 'big', 'broken', 'badids', 'gone', 'b'];
  const answer = (key: string, res: ServerResponse): void => {
    const headers = { 'platform-entry-version': `v-${key}` };
    if (key === 'text') return void res.writeHead(200, headers).end('plain text, not JSON');
    if (key === 'big') return sendJson(res, 200, 'x'.repeat(5 * 1024 * 1024), headers);
    if (key === 'broken') return sendJson(res, 500, { message: 'this one entry is broken' });
    if (key === 'badids') return sendJson(res, 200, 1, { ...headers, 'platform-entry-userids': '[1e400]' });
    if (key === 'gone') return sendJson(res, 404, { message: 'Entry not found in the datastore.' });
    sendJson(res, 200, { key }, headers);
  };

  it('are listed in <file>.failures.ndjson with scope, key and reason, and the export goes on', async () => {
    const fixture = await startFixture((req, res) => {
      const url = new URL(req.url, 'http://x');
      if (url.pathname.endsWith('/entries')) return sendJson(res, 200, { keys: keys.map((key) => ({ key })) });
      answer(url.searchParams.get('entryKey')!, res);
    });
    const { client } = makeClient(fixture.url);
    const out = file('failures.ndjson');
    fs.writeFileSync(failuresFileFor(out), '{"scope":"global","key":"old","error":"from an earlier run"}\n');
    try {
      const result = await exportDataStore(client, { universeId: U, datastoreName: 'Mixed', file: out, resume: false });
      assert.deepEqual([result.exported, result.skipped, result.failed], [2, 1, 5]);
      assert.equal(result.failuresFile, failuresFileFor(out));
      assert.deepEqual(keysOf(out), ['global/a', 'global/b']);
      const failures = fs
        .readFileSync(result.failuresFile!, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { scope: string; key: string; error: string });
      assert.deepEqual(
        failures.map((f) => [f.scope, f.key]),
        ['text', '\ud800lone', 'big', 'broken', 'badids'].map((k) => ['global', k]),
        "one line each, in listing order; the earlier run's lines are gone",
      );
      const reasons = failures.map((f) => f.error);
      assert.match(reasons[0], /not JSON/);
      assert.match(reasons[1], /not valid Unicode/i);
      assert.match(reasons[2], /larger than 4.5 MiB/);
      assert.match(reasons[3], /this one entry is broken/);
      assert.match(reasons[4], /header platform-entry-userids/);
    } finally {
      await client.close();
      await fixture.close();
    }
  });

  it('a failure every entry would meet (the key refused) stops the export instead', async () => {
    const fixture = await startFixture((req, res) =>
      new URL(req.url, 'http://x').pathname.endsWith('/entries')
        ? sendJson(res, 200, { keys: keys.map((key) => ({ key })) })
        : sendJson(res, 401, { errors: [{ code: 0, message: 'Invalid API Key' }] }),
    );
    const { client } = makeClient(fixture.url);
    const out = file('refused.ndjson');
    try {
      const err = await rejection(() =>
        exportDataStore(client, { universeId: U, datastoreName: 'Mixed', file: out, resume: false }),
      );
      assert.ok(err instanceof AuthError, String(err));
      assert.equal(fs.existsSync(failuresFileFor(out)), false);
    } finally {
      await client.close();
      await fixture.close();
    }
  });
});
