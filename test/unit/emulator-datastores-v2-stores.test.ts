// Cloud v2 data stores as a whole (reference open-api-datastores-v2.md 1.1, 2.3, 3.7, 3.8): List Data Stores,
// Delete / Undelete / purge on the emulator's clock as both APIs see them, Snapshot once per UTC day and what it
// keeps, and all of it across a restart of a data folder.
import * as assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { TestEmulator } from './support/emulator';
import { call, DS, dsError, ENTRY, entry, tempDir, U, type Call, type Reply } from './fixtures/emulator/harness';

const START = '2024-01-15T10:00:00.000Z';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let emulator: TestEmulator;
before(async () => {
  emulator = await TestEmulator.start({ clock: START });
});
after(() => emulator.close());
beforeEach(() => emulator.reset());

const V2 = (u = U): string => `/cloud/v2/universes/${u}/data-stores`;
const ENTRIES = (store: string, u = U): string => `${V2(u)}/${store}/scopes/global/entries`;
const v2 = (method: string, path: string, body?: unknown, init: Call = {}, url = emulator.url): Promise<Reply> =>
  call(url, method, path, { ...init, body: body === undefined ? undefined : JSON.stringify(body) });
const put = (store: string, key: string, value: unknown, url?: string, u?: number): Promise<Reply> =>
  v2('PATCH', `${ENTRIES(store, u)}/${key}`, { value }, { query: { allowMissing: true } }, url);
const stores = async (query: Call['query'] = {}, url?: string): Promise<Reply> =>
  v2('GET', V2(), undefined, { query }, url);
const names = (r: Reply): string[] => {
  assert.equal(r.status, 200, r.text);
  return r.json.dataStores.map((s: { id: string }) => s.id);
};
const v2Error = (r: Reply, status: number, message?: string): void => {
  assert.equal(r.status, status, r.text);
  if (message !== undefined) assert.equal(r.json.message, message);
};

describe('list data stores', () => {
  it('lists DataStore items in UTF-8 byte order, 10 a page by default and at most 100, with a filter', async () => {
    const all = Array.from({ length: 120 }, (_, i) => `S${String(i).padStart(3, '0')}`);
    for (const name of all) await put(name, 'k', 1);
    const first = await stores();
    assert.deepEqual(names(first), all.slice(0, 10));
    assert.deepEqual(first.json.dataStores[0], {
      path: `universes/${U}/data-stores/S000`,
      id: 'S000',
      createTime: first.json.dataStores[0].createTime,
      state: 'ACTIVE',
    });
    assert.match(first.json.dataStores[0].createTime, /^2024-01-15T10:\d\d:\d\d\.\d{3}Z$/);
    const big = await stores({ maxPageSize: 500 });
    assert.deepEqual(names(big), all.slice(0, 100));
    const rest = await stores({ maxPageSize: 500, pageToken: big.json.nextPageToken });
    assert.deepEqual(names(rest), all.slice(100));
    assert.equal(rest.json.nextPageToken, undefined);
    assert.deepEqual(names(await stores({ filter: 'id.startsWith("S11")' })), all.slice(110));
    assert.equal((await stores({ filter: 'name.startsWith("S")' })).status, 400);
    assert.equal((await stores({ pageToken: big.json.nextPageToken })).status, 400, 'bound to the page size');
  });

  it('without showDeleted, examines at most 512 stores a page: a page may be empty and carry a token', async () => {
    for (let i = 0; i < 520; i++) {
      await put(`D${String(i).padStart(3, '0')}`, 'k', 1);
      await v2('DELETE', `${V2()}/D${String(i).padStart(3, '0')}`);
    }
    await put('Live', 'k', 1);
    const first = await stores({ maxPageSize: 100 });
    assert.deepEqual(names(first), []);
    assert.deepEqual(names(await stores({ maxPageSize: 100, pageToken: first.json.nextPageToken })), ['Live']);
    assert.equal(names(await stores({ maxPageSize: 100, showDeleted: true })).length, 100);
  });
});

describe('delete, undelete and purge', () => {
  it('delete marks the store DELETED with expireTime 30 days on; deleting again changes nothing', async () => {
    await put('Gone', 'k', 1);
    const now = Date.parse(await emulatorNow());
    const d = await v2('DELETE', `${V2()}/Gone`);
    assert.equal(d.status, 200, d.text);
    assert.equal(d.json.state, 'DELETED');
    const expiresIn = Date.parse(d.json.expireTime) - now;
    assert.ok(expiresIn >= 30 * DAY && expiresIn < 30 * DAY + 5000, String(expiresIn));
    await emulator.advanceClock(HOUR);
    assert.deepEqual((await v2('DELETE', `${V2()}/Gone`)).json, d.json);
    assert.deepEqual(names(await stores()), []);
    const shown = await stores({ showDeleted: true });
    assert.deepEqual(shown.json.dataStores, [d.json]);
    v2Error(await v2('DELETE', `${V2()}/Never`), 404);
    v2Error(await v2('POST', `${V2()}/Never:undelete`, {}), 404);
  });

  it('a deleted store fails every entry call of v2 and of v1, and v1 no longer lists it', async () => {
    await put('Gone', 'k', 1);
    const version = (await v2('GET', `${ENTRIES('Gone')}/k`)).json.revisionId;
    await v2('DELETE', `${V2()}/Gone`);
    const deleted = 'The data store is deleted.';
    v2Error(await v2('GET', `${ENTRIES('Gone')}/k`), 404, deleted);
    v2Error(await v2('GET', ENTRIES('Gone')), 404, deleted);
    v2Error(await v2('POST', ENTRIES('Gone'), { value: 1 }, { query: { id: 'new' } }), 404, deleted);
    v2Error(await put('Gone', 'k', 2), 404, deleted);
    v2Error(await v2('POST', `${ENTRIES('Gone')}/k:increment`, {}), 404, deleted);
    v2Error(await v2('DELETE', `${ENTRIES('Gone')}/k`), 404, deleted);
    v2Error(await v2('GET', `${ENTRIES('Gone')}/k:listRevisions`), 404, deleted);
    v2Error(await v2('GET', `${V2()}/Gone/entries`), 404, deleted);
    const q = entry('Gone', 'k');
    for (const [method, path, init] of [
      ['GET', ENTRY, { query: q }],
      ['POST', ENTRY, { query: q, body: '2' }],
      ['POST', `${ENTRY}/increment`, { query: q }],
      ['DELETE', ENTRY, { query: q }],
      ['GET', `${ENTRY}/versions`, { query: q }],
      ['GET', `${ENTRY}/versions/version`, { query: { ...q, versionId: version } }],
      ['GET', `${DS()}/datastore/entries`, { query: { datastoreName: 'Gone' } }],
    ] as [string, string, Call][]) {
      const r = await call(emulator.url, method, path, init);
      dsError(r, 404, 'DatastoreNotFound');
      assert.equal(r.json.message, deleted);
    }
    await put('Kept', 'k', 1);
    const v1Stores = await call(emulator.url, 'GET', DS(), { query: { limit: 10 } });
    assert.deepEqual(
      v1Stores.json.datastores.map((s: { name: string }) => s.name),
      ['Kept'],
    );
  });

  it('undelete brings the store back with its entries and versions; on an active store it changes nothing', async () => {
    await put('S', 'k', 1);
    await put('S', 'k', 2);
    await v2('DELETE', `${V2()}/S`);
    const back = await v2('POST', `${V2()}/S:undelete`, {});
    assert.equal(back.status, 200, back.text);
    assert.equal(back.json.state, 'ACTIVE');
    assert.equal(back.json.expireTime, undefined);
    assert.equal((await v2('GET', `${ENTRIES('S')}/k`)).json.value, 2);
    assert.equal((await v2('GET', `${ENTRIES('S')}/k:listRevisions`)).json.dataStoreEntries.length, 2);
    assert.equal((await call(emulator.url, 'GET', ENTRY, { query: entry('S', 'k') })).text, '2');
    assert.deepEqual((await call(emulator.url, 'POST', `${V2()}/S:undelete`)).json, back.json, 'an empty body is {}');
    v2Error(await call(emulator.url, 'POST', `${V2()}/S:undelete`, { body: '[]' }), 400);
  });

  it('purges the store and its entries 30 days after the delete; the name is then free', async () => {
    await put('S', 'k', 'old');
    const created = (await stores()).json.dataStores[0].createTime;
    await v2('DELETE', `${V2()}/S`);
    await emulator.advanceClock(30 * DAY - MINUTE);
    assert.deepEqual(names(await stores({ showDeleted: true })), ['S']);
    await emulator.advanceClock(2 * MINUTE);
    assert.deepEqual(names(await stores({ showDeleted: true })), []);
    v2Error(await v2('POST', `${V2()}/S:undelete`, {}), 404);
    v2Error(await v2('GET', `${ENTRIES('S')}/k`), 404, 'Entry not found.');
    await put('S', 'other', 'new');
    const again = (await stores()).json.dataStores[0];
    assert.notEqual(again.createTime, created);
    assert.deepEqual(
      (await v2('GET', ENTRIES('S'))).json.dataStoreEntries.map((e: { id: string }) => e.id),
      ['other'],
    );
    assert.equal((await call(emulator.url, 'GET', ENTRY, { query: entry('S', 'k') })).status, 404);
  });
});

async function emulatorNow(): Promise<string> {
  return (await call(emulator.url, 'GET', '/_emulator/clock', { key: null })).json.now;
}

const snapshot = (u = U, url = emulator.url): Promise<Reply> => v2('POST', `${V2(u)}:snapshot`, {}, {}, url);
const revisions = async (store: string, key: string, u = U, url = emulator.url): Promise<unknown[]> =>
  (await v2('GET', `${ENTRIES(store, u)}/${key}:listRevisions`, undefined, {}, url)).json.dataStoreEntries.map(
    (r: { revisionId: string }) => r.revisionId,
  );

describe('snapshot', () => {
  it('is taken at most once per UTC day per universe', async () => {
    const first = await snapshot();
    assert.equal(first.status, 200, first.text);
    assert.equal(first.json.newSnapshotTaken, true);
    assert.match(first.json.latestSnapshotTime, /^2024-01-15T10:00/);
    await emulator.advanceClock(13 * HOUR); // 23:00 the same day
    assert.deepEqual((await snapshot()).json, {
      newSnapshotTaken: false,
      latestSnapshotTime: first.json.latestSnapshotTime,
    });
    assert.equal((await snapshot(U + 1)).json.newSnapshotTaken, true, 'another universe');
    await emulator.advanceClock(HOUR); // 00:00 the next day
    const next = (await snapshot()).json;
    assert.equal(next.newSnapshotTaken, true);
    assert.match(next.latestSnapshotTime, /^2024-01-16T00:00/);
  });

  it('keeps what was current at the snapshot through the hourly thinning, for 30 days after it was superseded', async () => {
    for (const u of [U, U + 1]) await put('S', 'k', 1, undefined, u); // 10:00
    await emulator.advanceClock(5 * MINUTE);
    await snapshot(U); // 10:05, in U only
    for (const value of [2, 3]) {
      await emulator.advanceClock(5 * MINUTE); // 10:10, 10:15
      for (const u of [U, U + 1]) await put('S', 'k', value, undefined, u);
    }
    const [v1, , v3] = ((await revisions('S', 'k')) as string[]).reverse();
    await emulator.advanceClock(2 * HOUR); // 12:15: hour 10 is thinned
    assert.deepEqual(await revisions('S', 'k'), [v3, v1], 'the version current at the snapshot is kept');
    assert.equal((await revisions('S', 'k', U + 1)).length, 1, 'without a snapshot only the last of the hour');
    assert.equal((await v2('GET', `${ENTRIES('S')}/k@${v1}`)).json.value, 1);
    await emulator.advanceClock(30 * DAY - 2 * HOUR - 7 * MINUTE); // v1 was superseded at 10:10
    assert.deepEqual(await revisions('S', 'k'), [v3, v1]);
    await emulator.advanceClock(3 * MINUTE);
    assert.deepEqual(await revisions('S', 'k'), [v3]);
  });
});

describe('across a restart', () => {
  it('keeps a deleted store deleted, the snapshot time, and what the snapshot holds', async () => {
    const dir = tempDir();
    const run = async <T>(body: (e: TestEmulator) => Promise<T>): Promise<T> => {
      const e = await TestEmulator.start({ dataDir: dir, clock: START });
      try {
        return await body(e);
      } finally {
        await e.close();
      }
    };
    const before = await run(async (e) => {
      await put('Gone', 'k', 1, e.url);
      await put('Kept', 'k', 1, e.url);
      await snapshot(U, e.url);
      await put('Kept', 'k', 2, e.url);
      await put('Kept', 'k', 3, e.url);
      const deleted = (await v2('DELETE', `${V2()}/Gone`, undefined, {}, e.url)).json;
      return { deleted, snap: (await snapshot(U, e.url)).json, revisions: await revisions('Kept', 'k', U, e.url) };
    });
    assert.equal(before.snap.newSnapshotTaken, false);
    // Twice: the first start compacts the journal, the second reads the compacted one.
    for (let i = 0; i < 2; i++) {
      await run(async (e) => {
        assert.deepEqual((await stores({ showDeleted: true }, e.url)).json.dataStores.at(0), before.deleted);
        v2Error(await v2('GET', `${ENTRIES('Gone')}/k`, undefined, {}, e.url), 404, 'The data store is deleted.');
        assert.deepEqual((await snapshot(U, e.url)).json, before.snap);
        await e.advanceClock(3 * HOUR); // the thinning of hour 10 is due
        assert.deepEqual(await revisions('Kept', 'k', U, e.url), [before.revisions[0], before.revisions[2]]);
      });
    }
    await run(async (e) => {
      assert.equal((await v2('POST', `${V2()}/Gone:undelete`, {}, {}, e.url)).status, 200);
      assert.equal((await v2('GET', `${ENTRIES('Gone')}/k`, undefined, {}, e.url)).json.value, 1);
    });
    await run(async (e) => {
      assert.equal((await v2('GET', `${ENTRIES('Gone')}/k`, undefined, {}, e.url)).json.value, 1);
      await v2('DELETE', `${V2()}/Gone`, undefined, {}, e.url);
      await e.advanceClock(31 * DAY);
    });
    await run(async (e) => {
      assert.deepEqual(names(await stores({ showDeleted: true }, e.url)), ['Kept'], 'the purge is kept too');
    });
  });
});
