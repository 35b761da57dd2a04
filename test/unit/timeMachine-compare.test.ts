// The time machine against the emulator: a history written over simulated days (writes, deletions, a re-creation,
// user ids changing), then entries and comparisons at several times. Expectations come from the writes recorded
// while building the history, never from the code under test.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  compareWithTime,
  entryAt,
  momentBefore,
  versionAt,
  writeComparison,
  type CompareSelection,
  type KeyComparison,
  type OpenApiClient,
} from '../../src/api';
import { API_KEY, makeClient } from './support/client';
import { TestEmulator } from './support/emulator';

const U = 4242;
const STORE = 'Players';
const START = Date.parse('2024-01-15T10:00:00.000Z');
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(ms);
/** Before anything was written; after day 0's writes; after day 2's; after day 4's. */
const T0 = at(START - HOUR);
const T1 = at(START + 12 * HOUR);
const T2 = at(START + 2 * DAY + 12 * HOUR);
const T3 = at(START + 4 * DAY + 12 * HOUR);

let emulator: TestEmulator;
let client: OpenApiClient;
let now: Date;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-time-machine-'));
/** Every version written, per "scope/key", oldest first: [version id, deleted]. */
const written = new Map<string, [string, boolean][]>();
const versions = (key: string, scope = 'global') => written.get(`${scope}/${key}`)!.map(([v]) => v);

async function set(key: string, raw: string, userIds?: number[], scope = 'global'): Promise<void> {
  const v = await client.datastores.setEntry({
    universeId: U,
    datastoreName: STORE,
    scope,
    entryKey: key,
    raw,
    userIds,
  });
  written.set(`${scope}/${key}`, [...(written.get(`${scope}/${key}`) ?? []), [v.version, false]]);
}

async function remove(key: string): Promise<void> {
  await client.datastores.deleteEntry({ universeId: U, datastoreName: STORE, entryKey: key });
  const page = await client.datastores.listEntryVersions({
    universeId: U,
    datastoreName: STORE,
    entryKey: key,
    sortOrder: 'Descending',
    limit: 1,
  });
  assert.equal(page.items[0].deleted, true);
  written.get(`global/${key}`)!.push([page.items[0].version, true]);
}

before(async () => {
  emulator = await TestEmulator.start({ apiKeys: [{ key: API_KEY }], clock: new Date(START).toISOString() });
  client = makeClient(emulator.url).client;
  // Day 0
  await set('a', '{"v":1}', [1]);
  await set('b', '"b1"');
  await set('d', '"d1"');
  await set('e', '"e1"', [2]);
  await set('f', '"f1"', [2]);
  await set('big', '{"n":12345678901234567890, "x":1.50}');
  await set('ключ "q"', '"unicode"');
  await set('a', '7', [], 's2');
  await emulator.advanceClock(DAY); // day 1
  await set('a', '{"v":2}', [1]);
  await remove('d');
  await emulator.advanceClock(DAY); // day 2
  await remove('b');
  await set('c', '"c1"', [3]);
  await emulator.advanceClock(DAY); // day 3
  await set('a', '{"v":3}', [1]);
  await set('f', '"f2"', [4]);
  await emulator.advanceClock(DAY); // day 4
  await set('b', '"b2"', [2]);
  now = new Date(await emulator.advanceClock(DAY)); // day 5
});

after(async () => {
  await client.close();
  await emulator.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const selection = (more: Partial<CompareSelection> = {}): CompareSelection => ({
  universeId: U,
  datastoreName: STORE,
  ...more,
});

async function compare(time: Date, more: Partial<CompareSelection> = {}) {
  const results: KeyComparison[] = [];
  const it = compareWithTime(client, selection(more), time, { now });
  for (let r = await it.next(); ; r = await it.next()) {
    if (r.done) return { results, summary: r.value };
    results.push(r.value);
  }
}

/** "key status then-version now-version" per result, the versions by their index in what was written. */
const describe_ = (results: KeyComparison[]) =>
  results.map((r) => {
    const ids = versions(r.key, r.scope);
    const index = (v?: { version: string }) => (v ? String(ids.indexOf(v.version)) : '-');
    return `${r.scope === 'global' ? '' : `${r.scope}/`}${r.key} ${r.status} ${index(r.then)} ${index(r.now)}`;
  });

const entry = (key: string, time: Date) => entryAt(client, { universeId: U, datastoreName: STORE, key }, time);

describe('entryAt', () => {
  it('gives the exact value, user ids and version in effect at each time', async () => {
    assert.equal(await entry('b', T0), undefined, 'before the key existed');
    const b1 = await entry('b', T1);
    assert.equal(b1?.raw.toString(), '"b1"');
    assert.equal(b1?.at.version, versions('b')[0]);
    assert.equal(await entry('b', T2), undefined, 'between its deletion and its re-creation');
    const b2 = await entry('b', now);
    assert.equal(b2?.raw.toString(), '"b2"');
    assert.deepEqual(b2?.userIds, [2]);
    assert.equal(b2?.version, versions('b')[2]);

    const a = await entry('a', T2);
    assert.deepEqual([a?.value, a?.userIds, a?.version], [{ v: 2 }, [1], versions('a')[1]]);
    assert.equal((await entry('big', T1))?.raw.toString(), '{"n":12345678901234567890, "x":1.50}');
    assert.equal(await entry('d', T2), undefined, 'deleted then');
    assert.equal(await entry('never', T2), undefined, 'never written');
  });

  it('gives the version just before a version when asked for that moment', async () => {
    const third = await client.datastores.listEntryVersions({ universeId: U, datastoreName: STORE, entryKey: 'a' });
    const v3 = third.items.find((v) => v.version === versions('a')[2])!;
    assert.equal((await entry('a', momentBefore(v3)))?.raw.toString(), '{"v":2}');
    assert.equal((await entry('a', new Date(Date.parse(v3.createdTime))))?.raw.toString(), '{"v":3}');
  });

  it('versionAt gives a deletion as a deleted version', async () => {
    const v = await versionAt(client, { universeId: U, datastoreName: STORE, key: 'b' }, T2);
    assert.deepEqual([v?.version, v?.deleted], [versions('b')[1], true]);
  });
});

describe('compareWithTime', () => {
  it('before anything was written: everything is created, a key deleted since is left out', async () => {
    const { results, summary } = await compare(T0);
    assert.deepEqual(describe_(results), [
      'a created - 2',
      'b created - 2',
      'big created - 0',
      'c created - 0',
      'e created - 0',
      'f created - 1',
      'ключ "q" created - 0',
    ]);
    assert.equal(summary.absent, 1);
    assert.equal(summary.created, 7);
  });

  it('after day 0: changed, re-created, created and deleted since', async () => {
    const { results, summary } = await compare(T1);
    assert.deepEqual(describe_(results), [
      'a changed 0 2',
      'b changed 0 2',
      'big unchanged 0 0',
      'c created - 0',
      'd deleted 0 1',
      'e unchanged 0 0',
      'f changed 0 1',
      'ключ "q" unchanged 0 0',
    ]);
    assert.deepEqual(
      { ...summary, ms: 0 },
      { unchanged: 3, changed: 3, created: 1, deleted: 1, absent: 0, otherUsers: 0, ms: 0 },
    );
  });

  it('between the deletion and re-creation of a key, it is created since; a key deleted then and now is left out', async () => {
    const { results, summary } = await compare(T2);
    assert.deepEqual(describe_(results), [
      'a changed 1 2',
      'b created 1 2',
      'big unchanged 0 0',
      'c unchanged 0 0',
      'e unchanged 0 0',
      'f changed 0 1',
      'ключ "q" unchanged 0 0',
    ]);
    assert.equal(summary.absent, 1);
  });

  it('after the last writes, everything is unchanged; all scopes include the other scope', async () => {
    const { results } = await compare(T3, { allScopes: true });
    assert.deepEqual(describe_(results), [
      'a unchanged 2 2',
      'b unchanged 2 2',
      'big unchanged 0 0',
      'c unchanged 0 0',
      'e unchanged 0 0',
      'f unchanged 1 1',
      'ключ "q" unchanged 0 0',
      's2/a unchanged 0 0',
    ]);
    assert.deepEqual(describe_((await compare(T1, { scope: 's2' })).results), ['s2/a unchanged 0 0']);
  });

  it('selects one player by user ids now or then', async () => {
    const keys = async (userId: number, time: Date) => (await compare(time, { userId })).results.map((r) => r.key);
    assert.deepEqual(await keys(2, T1), ['b', 'e', 'f'], 'b by its ids now, f by its ids then');
    assert.deepEqual(await keys(4, T1), ['f']);
    assert.deepEqual(await keys(1, T1), ['a']);
    assert.deepEqual(await keys(3, T1), ['c']);
    assert.deepEqual(await keys(3, T0), ['c']);
    assert.deepEqual(await keys(2, T3), ['b', 'e']);
    assert.deepEqual(await keys(99, T1), []);
    const { summary } = await compare(T1, { userId: 2 });
    assert.equal(summary.otherUsers, 5);
  });

  it('selects by key prefix, and a list of keys in its own order', async () => {
    assert.deepEqual(describe_((await compare(T1, { prefix: 'b' })).results), ['b changed 0 2', 'big unchanged 0 0']);
    const listed = await compare(T1, { keys: ['f', 'd', 'never', { scope: 's2', key: 'a' }, 'a'] });
    assert.deepEqual(describe_(listed.results), [
      'f changed 0 1',
      'd deleted 0 1',
      's2/a unchanged 0 0',
      'a changed 0 2',
    ]);
    assert.equal(listed.summary.absent, 1);
    assert.deepEqual(describe_((await compare(T1, { keys: ['a', 'b', 'e'], prefix: 'b' })).results), ['b changed 0 2']);
  });

  it('reads no value for an unchanged key, and lists versions once or twice per key', async () => {
    const count = async (time: Date, keys: string[], userId?: number) => {
      const before = await emulator.requests();
      await compare(time, { keys, userId });
      const made = (await emulator.requests()).slice(before.length);
      return {
        lists: made.filter((r) => r.path.endsWith('/versions')).length,
        reads: made.filter((r) => r.path.endsWith('/versions/version')).length,
        other: made.filter((r) => !r.path.includes('/versions')).length,
      };
    };
    assert.deepEqual(await count(T3, ['e']), { lists: 1, reads: 0, other: 0 });
    assert.deepEqual(await count(T2, ['f']), { lists: 1, reads: 0, other: 0 }, 'changed once since');
    assert.deepEqual(await count(T1, ['a']), { lists: 2, reads: 0, other: 0 }, 'changed twice since');
    assert.deepEqual(await count(T3, ['e'], 2), { lists: 1, reads: 1, other: 0 });
    assert.deepEqual(await count(T1, ['f'], 2), { lists: 1, reads: 2, other: 0 }, 'user only then');
    assert.deepEqual(await count(T1, ['f'], 4), { lists: 1, reads: 1, other: 0 }, 'user now: then not read');
  });

  it('refuses a time older than the service keeps, before any request', async () => {
    const before = (await emulator.requests()).length;
    const old = new Date(now.getTime() - 30 * DAY - 1000);
    await assert.rejects(compare(old), /too long ago.*30 days/);
    assert.equal((await emulator.requests()).length, before);
  });

  it('stops on abort, and when the reader stops', async () => {
    const many = Array.from({ length: 200 }, (_, i) => `k${i}`);
    const controller = new AbortController();
    let seen = 0;
    const start = (await emulator.requests()).length;
    await assert.rejects(
      (async () => {
        for await (const r of compareWithTime(client, selection({ keys: ['a', ...many] }), T1, {
          signal: controller.signal,
          concurrency: 2,
        })) {
          seen++;
          assert.equal(r.key, 'a');
          controller.abort();
        }
      })(),
      { name: 'AbortError' },
    );
    assert.equal(seen, 1);
    const made = (await emulator.requests()).length - start;
    assert.ok(made < 40, `${made} requests after the abort`);

    const pre = new AbortController();
    pre.abort();
    const untouched = (await emulator.requests()).length;
    await assert.rejects(compareWithTime(client, selection(), T1, { signal: pre.signal }).next(), {
      name: 'AbortError',
    });
    assert.equal((await emulator.requests()).length, untouched, 'no request with a signal aborted before');

    const mark = (await emulator.requests()).length;
    for await (const r of compareWithTime(client, selection({ keys: ['a', ...many] }), T1, { concurrency: 2 })) {
      assert.equal(r.key, 'a');
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
    const after = (await emulator.requests()).length - mark;
    assert.ok(after < 40, `${after} requests after the reader stopped`);
  });

  it('reports progress and ends with the counts', async () => {
    const reports: number[] = [];
    const it = compareWithTime(client, selection(), T1, { onProgress: (p) => reports.push(p.changed) });
    let r = await it.next();
    while (!r.done) r = await it.next();
    assert.equal(r.value.changed, 3);
    assert.equal(reports.at(-1), 3);
  });
});

describe('writeComparison', () => {
  it('writes one exact line per key, escaping keys, with the versions as listed', async () => {
    const file = path.join(dir, 'compare.ndjson');
    const counts = await writeComparison(file, compareWithTime(client, selection(), T1));
    assert.deepEqual(counts, { unchanged: 3, changed: 3, created: 1, deleted: 1 });
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(text.endsWith('\n'));
    const lines = text
      .slice(0, -1)
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((l) => `${l.key} ${l.status}`),
      [
        'a changed',
        'b changed',
        'big unchanged',
        'c created',
        'd deleted',
        'e unchanged',
        'f changed',
        'ключ "q" unchanged',
      ],
    );
    const listed = await client.datastores.listEntryVersions({ universeId: U, datastoreName: STORE, entryKey: 'd' });
    const d = lines[4];
    assert.deepEqual(d.then, { ...listed.items[0], objectCreatedTime: listed.items[0].objectCreatedTime });
    assert.equal(d.now.version, versions('d')[1]);
    assert.equal(d.now.deleted, true);
    assert.equal(lines[3].then, undefined);
    assert.equal(lines[0].scope, 'global');
  });
});
