// v1 and cloud v2 over one stored model (reference open-api-datastores-v2.md 3.11 and 6): what one writes the other
// reads, a v1 version id is the v2 revision id (and etag), deletes are seen both ways.
import * as assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { TestEmulator } from './support/emulator';
import { call, DS, dsError, ENTRY, entry, U, type Call, type Reply } from './fixtures/emulator/harness';

let emulator: TestEmulator;
before(async () => {
  emulator = await TestEmulator.start({ clock: '2024-01-15T10:00:00.000Z' });
});
after(() => emulator.close());
beforeEach(() => emulator.reset());

const V2 = `/cloud/v2/universes/${U}/data-stores`;
const ENTRIES = (scope = 'global'): string => `${V2}/Cross/scopes/${scope}/entries`;
const v2 = (method: string, path: string, body?: unknown, init: Call = {}): Promise<Reply> =>
  call(emulator.url, method, path, { ...init, body: body === undefined ? undefined : JSON.stringify(body) });
const v1Set = (key: string, value: string, headers: Record<string, string> = {}, query: Call['query'] = {}) =>
  call(emulator.url, 'POST', ENTRY, { query: entry('Cross', key, query), body: value, headers });
const v1Get = (key: string): Promise<Reply> => call(emulator.url, 'GET', ENTRY, { query: entry('Cross', key) });
const v1Versions = async (key: string): Promise<{ version: string; deleted: boolean }[]> =>
  (await call(emulator.url, 'GET', `${ENTRY}/versions`, { query: entry('Cross', key) })).json.versions;

describe('v1 and v2 read each other', () => {
  it('a v1 write reads through v2: value, users, attributes, times, and the version as revisionId and etag', async () => {
    const set = await v1Set('k', '{ "coins": 5 }', {
      'platform-entry-userids': '[7, 8]',
      'platform-entry-attributes': '{"team":"\\u00e9"}',
    });
    assert.equal(set.status, 200, set.text);
    const got = await v2('GET', `${ENTRIES()}/k`);
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.json.value, { coins: 5 });
    assert.deepEqual(got.json.users, ['users/7', 'users/8']);
    assert.deepEqual(got.json.attributes, { team: 'é' });
    assert.equal(got.json.revisionId, set.json.version);
    assert.equal(got.json.etag, set.json.version);
    assert.equal(Date.parse(got.json.createTime), Date.parse(set.json.objectCreatedTime));
    assert.equal(Date.parse(got.json.revisionCreateTime), Date.parse(set.json.createdTime));
  });

  it('a v2 write reads through v1 as compact JSON text with the entry headers', async () => {
    const made = (
      await v2(
        'POST',
        ENTRIES(),
        { value: { b: [1, 2], a: 'x' }, users: ['users/3'], attributes: { k: 1 } },
        {
          query: { id: 'k' },
        },
      )
    ).json;
    const got = await v1Get('k');
    assert.equal(got.status, 200, got.text);
    assert.equal(got.text, '{"b":[1,2],"a":"x"}');
    assert.equal(got.headers.get('platform-entry-version'), made.revisionId);
    assert.equal(got.headers.get('platform-entry-userids'), '[3]');
    assert.equal(got.headers.get('platform-entry-attributes'), '{"k":1}');
    // A v2 write without users or attributes clears what v1 wrote, and the reverse.
    await v2('PATCH', `${ENTRIES()}/k`, { value: 1 });
    assert.equal((await v1Get('k')).headers.get('platform-entry-attributes'), null);
    assert.equal((await v1Get('k')).headers.get('platform-entry-userids'), '[]');
    await v1Set('j', '1', { 'platform-entry-userids': '[1]' });
    await v1Set('j', '2');
    assert.deepEqual((await v2('GET', `${ENTRIES()}/j`)).json.users, []);
  });

  it('version lists agree: the same ids, v1 oldest first and v2 newest first, each readable through the other', async () => {
    const a = (await v1Set('k', '"one"')).json.version;
    const b = (await v2('PATCH', `${ENTRIES()}/k`, { value: 'two' })).json.revisionId;
    const c = (await call(emulator.url, 'POST', `${ENTRY}/increment`, { query: entry('Cross', 'n') })).headers.get(
      'platform-entry-version',
    );
    assert.ok(c);
    assert.deepEqual(
      (await v1Versions('k')).map((v) => v.version),
      [a, b],
    );
    const revisions = (await v2('GET', `${ENTRIES()}/k:listRevisions`)).json.dataStoreEntries;
    assert.deepEqual(
      revisions.map((r: { revisionId: string }) => r.revisionId),
      [b, a],
    );
    assert.equal((await v2('GET', `${ENTRIES()}/k@${a}`)).json.value, 'one');
    const version = await call(emulator.url, 'GET', `${ENTRY}/versions/version`, {
      query: entry('Cross', 'k', { versionId: b }),
    });
    assert.equal(version.text, '"two"');
  });

  it('conditional writes take the other version’s ids: matchVersion a v2 etag, etag a v1 version', async () => {
    const etag = (await v2('POST', ENTRIES(), { value: 1 }, { query: { id: 'k' } })).json.etag;
    const set = await v1Set('k', '2', {}, { matchVersion: etag });
    assert.equal(set.status, 200, set.text);
    assert.equal((await v1Set('k', '3', {}, { matchVersion: etag })).status, 412);
    assert.equal((await v2('PATCH', `${ENTRIES()}/k`, { value: 4, etag: set.json.version })).status, 200);
    assert.equal((await v2('PATCH', `${ENTRIES()}/k`, { value: 5, etag: set.json.version })).status, 409);
  });

  it('increments carry over: v1 and v2 add to the same number', async () => {
    await call(emulator.url, 'POST', `${ENTRY}/increment`, { query: entry('Cross', 'n', { incrementBy: 40 }) });
    assert.equal((await v2('POST', `${ENTRIES()}/n:increment`, { amount: 1 })).json.value, 41);
    const back = await call(emulator.url, 'POST', `${ENTRY}/increment`, {
      query: entry('Cross', 'n', { incrementBy: 1 }),
    });
    assert.equal(back.text, '42');
  });

  it('numbers beyond 2^53 written by v1 read clamped through v2, and unchanged through v1', async () => {
    await v1Set('big', '[12345678901234567890, -1e300, 1.5]');
    assert.deepEqual((await v2('GET', `${ENTRIES()}/big`)).json.value, [2 ** 53, -(2 ** 53), 1.5]);
    assert.equal((await v1Get('big')).text, '[12345678901234567890, -1e300, 1.5]');
  });
});

describe('deletes seen both ways', () => {
  it('a v1 delete is a DELETED revision in v2; v2 lists the key only with showDeleted, v1 always', async () => {
    await v1Set('k', '1');
    await v1Set('other', '1');
    assert.equal((await call(emulator.url, 'DELETE', ENTRY, { query: entry('Cross', 'k') })).status, 204);
    assert.equal((await v2('GET', `${ENTRIES()}/k`)).status, 404);
    const revisions = (await v2('GET', `${ENTRIES()}/k:listRevisions`)).json.dataStoreEntries;
    assert.equal(revisions[0].state, 'DELETED');
    assert.equal(revisions[0].revisionId, (await v1Versions('k'))[1].version);
    const listed = async (query: Call['query']) =>
      (await v2('GET', ENTRIES(), undefined, { query })).json.dataStoreEntries.map((e: { id: string }) => e.id);
    assert.deepEqual(await listed({}), ['other']);
    assert.deepEqual(await listed({ showDeleted: true }), ['k', 'other']);
    const v1Keys = await call(emulator.url, 'GET', `${DS()}/datastore/entries`, { query: { datastoreName: 'Cross' } });
    assert.deepEqual(
      v1Keys.json.keys.map((k: { key: string }) => k.key),
      ['k', 'other'],
    );
  });

  it('a v2 delete is a tombstone version in v1; a v1 write or a v2 update brings the key back', async () => {
    await v2('POST', ENTRIES(), { value: 1 }, { query: { id: 'k' } });
    assert.equal((await v2('DELETE', `${ENTRIES()}/k`)).status, 200);
    dsError(await v1Get('k'), 404, 'EntryNotFound');
    assert.deepEqual(
      (await v1Versions('k')).map((v) => v.deleted),
      [false, true],
    );
    await v1Set('k', '2');
    assert.equal((await v2('GET', `${ENTRIES()}/k`)).json.value, 2);
    await call(emulator.url, 'DELETE', ENTRY, { query: entry('Cross', 'k') });
    await v2('PATCH', `${ENTRIES()}/k`, { value: 3 });
    assert.equal((await v1Get('k')).text, '3');
  });
});

describe('scopes and data stores', () => {
  it('v1 allScopes and the v2 wildcard list the same keys; v1 scopes are v2 scope segments', async () => {
    await v1Set('a', '1');
    await call(emulator.url, 'POST', ENTRY, { query: entry('Cross', 'b', { scope: 'special' }), body: '2' });
    assert.equal((await v2('GET', `${ENTRIES('special')}/b`)).json.value, 2);
    const v1Keys = await call(emulator.url, 'GET', `${DS()}/datastore/entries`, {
      query: { datastoreName: 'Cross', allScopes: true },
    });
    const wildcard = (await v2('GET', ENTRIES('-'))).json.dataStoreEntries;
    assert.deepEqual(
      wildcard.map((e: { path: string; id: string }) => ({ scope: e.path.split('/')[5], key: e.id })),
      v1Keys.json.keys,
    );
  });

  it('both list the data stores either one created, with the same creation time', async () => {
    await v1Set('k', '1');
    await call(emulator.url, 'POST', `${V2}/ByV2/scopes/global/entries`, {
      query: { id: 'k' },
      body: JSON.stringify({ value: 1 }),
    });
    const v1Stores = (await call(emulator.url, 'GET', DS(), { query: { limit: 10 } })).json.datastores;
    const v2Stores = (await v2('GET', V2)).json.dataStores;
    assert.deepEqual(
      v1Stores.map((s: { name: string }) => s.name),
      ['ByV2', 'Cross'],
    );
    assert.deepEqual(
      v2Stores.map((s: { id: string; createTime: string; state: string }) => [s.id, s.createTime, s.state]),
      v1Stores.map((s: { name: string; createdTime: string }) => [s.name, s.createdTime, 'ACTIVE']),
    );
  });
});
