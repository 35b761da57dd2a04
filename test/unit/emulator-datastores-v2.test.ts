// Cloud v2 data store entries (reference open-api-datastores-v2.md): each operation over raw HTTP, its answers,
// errors and the decisions of the reference's section 5. Paths, suffixes and listings are in
// emulator-datastores-v2-paths.test.ts; v1 and v2 together in emulator-datastores-v2-cross.test.ts.
import * as assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { TestEmulator } from './support/emulator';
import { call, gatewayError, U, type Call, type Reply } from './fixtures/emulator/harness';

const S = 'universe-datastores.';
let emulator: TestEmulator;
before(async () => {
  emulator = await TestEmulator.start({
    clock: '2024-01-15T10:00:00.000Z',
    apiKeys: [
      { key: 'sandbox' },
      { key: 'reader', scopes: [`${S}objects:read`] },
      { key: 'creator', scopes: [`${S}objects:create`, `${S}objects:read`] },
      { key: 'updater', scopes: [`${S}objects:update`] },
    ],
  });
});
after(() => emulator.close());
beforeEach(() => emulator.reset());

const ENTRIES = (store = 'Inv', scope = 'global'): string =>
  `/cloud/v2/universes/${U}/data-stores/${encodeURIComponent(store)}/scopes/${encodeURIComponent(scope)}/entries`;
const ONE = (key: string, store?: string): string => `${ENTRIES(store)}/${encodeURIComponent(key)}`;
const send = (method: string, path: string, body?: unknown, init: Call = {}): Promise<Reply> =>
  call(emulator.url, method, path, {
    ...init,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...init.headers },
  });
const create = (key: string, body: unknown, init?: Call): Promise<Reply> =>
  send('POST', ENTRIES(), body, { ...init, query: { id: key, ...init?.query } });
const get = (key: string, init?: Call): Promise<Reply> => send('GET', ONE(key), undefined, init);
const patch = (key: string, body: unknown, query: Call['query'] = {}): Promise<Reply> =>
  send('PATCH', ONE(key), body, { query });
const increment = (key: string, body: unknown = {}, init?: Call): Promise<Reply> =>
  send('POST', `${ONE(key)}:increment`, body, init);

/** A cloud v2 data store error: {code, message} and no `details` (U15). */
function v2Error(r: Reply, status: number, code: string, message?: string): void {
  assert.equal(r.status, status, r.text);
  assert.deepEqual(Object.keys(r.json), ['code', 'message'], r.text);
  assert.equal(r.json.code, code, r.text);
  if (message !== undefined) assert.equal(r.json.message, message);
}

const REVISION = /^[0-9A-F]{16}\.[0-9A-F]{10}\.[0-9A-F]{16}\.01$/;
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3}|\.\d{6}|\.\d{9})?Z$/;

describe('create and get', () => {
  it('create answers a full DataStoreEntry, and get gives the same', async () => {
    const c = await create('player-1', { value: { coins: 5 }, users: ['users/7'], attributes: { team: 'red' } });
    assert.equal(c.status, 200, c.text);
    assert.deepEqual(Object.keys(c.json), [
      'path',
      'createTime',
      'revisionId',
      'revisionCreateTime',
      'state',
      'etag',
      'value',
      'id',
      'users',
      'attributes',
    ]);
    assert.equal(c.json.path, `universes/${U}/data-stores/Inv/scopes/global/entries/player-1`);
    assert.equal(c.json.id, 'player-1');
    assert.match(c.json.revisionId, REVISION);
    assert.equal(c.json.etag, c.json.revisionId);
    assert.equal(c.json.state, 'ACTIVE');
    assert.match(c.json.createTime, RFC3339);
    assert.equal(c.json.createTime, c.json.revisionCreateTime);
    assert.deepEqual(c.json.value, { coins: 5 });
    assert.deepEqual(c.json.users, ['users/7']);
    assert.deepEqual(c.json.attributes, { team: 'red' });
    const g = await get('player-1');
    assert.equal(g.status, 200);
    assert.deepEqual(g.json, c.json);
  });

  it('answers users [] and attributes {} when there are none (U14), and keeps every JSON type', async () => {
    for (const [i, value] of [null, 0, -1.5, 'text', true, [1, 'a'], { nested: { deep: [null] } }].entries()) {
      const c = await create(`k${i}`, { value });
      assert.equal(c.status, 200, c.text);
      assert.deepEqual(c.json.users, []);
      assert.deepEqual(c.json.attributes, {});
      assert.deepEqual((await get(`k${i}`)).json.value, value);
    }
  });

  it('create on an existing key is 400 "Entry already exists." (U4); on a deleted key it revives it (U5)', async () => {
    const first = (await create('k', { value: 1 })).json;
    v2Error(await create('k', { value: 2 }), 400, 'INVALID_ARGUMENT', 'Entry already exists.');
    assert.equal((await send('DELETE', ONE('k'))).status, 200);
    await emulator.advanceClock(60_000);
    const again = await create('k', { value: 3 });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.json.createTime, first.createTime, 'the key keeps its createTime');
    assert.notEqual(again.json.revisionCreateTime, first.revisionCreateTime);
  });

  it('refuses bad create requests with 400 INVALID_ARGUMENT', async () => {
    const bad: [Call['query'], unknown][] = [
      [{}, { value: 1 }], // no id
      [{ id: '' }, { value: 1 }],
      [{ id: 'x'.repeat(51) }, { value: 1 }],
      [{ id: 'é'.repeat(26) }, { value: 1 }], // 52 bytes
      [{ id: 'k' }, {}], // no value
      [{ id: 'k' }, { value: 1, users: ['7'] }], // a bare user id
      [{ id: 'k' }, { value: 1, users: ['users/1', 'users/2', 'users/3', 'users/4', 'users/5'] }],
      [{ id: 'k' }, { value: 1, users: 'users/1' }],
      [{ id: 'k' }, { value: 1, attributes: { a: 'x'.repeat(300) } }],
      [{ id: 'k' }, { value: 1, attributes: ['a'] }],
      [{ id: 'k' }, [1]],
      [{ id: 'k' }, 'not json'],
      [{ id: 'k' }, { value: 'x'.repeat(4 * 1024 * 1024) }],
    ];
    for (const [query, body] of bad) v2Error(await send('POST', ENTRIES(), body, { query }), 400, 'INVALID_ARGUMENT');
    assert.equal((await create('x'.repeat(50), { value: 1 })).status, 200);
    assert.equal((await create('k', { value: 'x'.repeat(4 * 1024 * 1024 - 2) })).status, 200, 'exactly 4 MiB');
  });

  it('get of a missing key, or in a missing data store, is 404 NOT_FOUND', async () => {
    v2Error(await get('nothing'), 404, 'NOT_FOUND');
    v2Error(await send('GET', ONE('k', 'NoStore')), 404, 'NOT_FOUND');
  });
});

describe('update', () => {
  it('replaces the whole entry: users and attributes left out are cleared', async () => {
    await create('k', { value: 1, users: ['users/1'], attributes: { a: 1 } });
    const u = await patch('k', { value: 2 });
    assert.equal(u.status, 200, u.text);
    assert.deepEqual([u.json.value, u.json.users, u.json.attributes], [2, [], {}]);
    assert.deepEqual((await get('k')).json.attributes, {});
    const kept = await patch('k', { value: 3, users: ['users/1'], attributes: { a: 1 } });
    assert.deepEqual([kept.json.users, kept.json.attributes], [['users/1'], { a: 1 }]);
  });

  it('a missing key is 404 unless allowMissing=true (either spelling, U22)', async () => {
    v2Error(await patch('k', { value: 1 }), 404, 'NOT_FOUND');
    v2Error(await patch('k', { value: 1 }, { allowMissing: 'maybe' }), 400, 'INVALID_ARGUMENT');
    assert.equal((await patch('k', { value: 1 }, { allowMissing: true })).status, 200);
    assert.equal((await patch('k2', { value: 1 }, { allow_missing: true })).status, 200);
    v2Error(await patch('k3', {}, { allowMissing: true }), 400, 'INVALID_ARGUMENT', 'value is required.');
  });

  it('restores a deleted key without allowMissing (U6), keeping its createTime', async () => {
    const first = (await create('k', { value: 1 })).json;
    await send('DELETE', ONE('k'));
    const back = await patch('k', { value: 2 });
    assert.equal(back.status, 200, back.text);
    assert.equal(back.json.createTime, first.createTime);
    assert.equal((await get('k')).json.value, 2);
  });

  it('honours the body etag: a stale one or one for a missing key is 409 ABORTED (U1, U3)', async () => {
    const v1 = (await create('k', { value: 1 })).json.etag;
    const v2 = (await patch('k', { value: 2, etag: v1 })).json.etag;
    assert.notEqual(v2, v1);
    v2Error(await patch('k', { value: 3, etag: v1 }), 409, 'ABORTED', 'The entry has been modified.');
    assert.equal((await get('k')).json.value, 2);
    v2Error(await patch('new', { value: 1, etag: v1 }, { allowMissing: true }), 409, 'ABORTED');
    v2Error(await patch('new', { value: 1, etag: v1 }), 409, 'ABORTED');
    v2Error(await patch('k', { value: 1, etag: 5 }), 400, 'INVALID_ARGUMENT');
  });

  it('ignores output-only fields in the body, and takes a revision suffix in the id literally', async () => {
    const c = (await create('k', { value: 1 })).json;
    const u = await patch('k', { ...c, value: 2, createTime: '2000-01-01T00:00:00Z', id: 'other' });
    assert.equal(u.status, 200, u.text);
    assert.equal(u.json.id, 'k');
    assert.equal(u.json.createTime, c.createTime);
    const literal = await patch(`k@${c.revisionId}`, { value: 9 }, { allowMissing: true });
    assert.equal(literal.status, 200, literal.text);
    assert.equal(literal.json.id, `k@${c.revisionId}`);
    assert.equal((await get('k')).json.value, 2, 'the key itself is untouched');
  });
});

describe('delete', () => {
  it('answers {}, leaves a DELETED revision, and a second delete is 404 (U13)', async () => {
    await create('k', { value: 1 });
    const d = await send('DELETE', ONE('k'));
    assert.equal(d.status, 200);
    assert.deepEqual(d.json, {});
    v2Error(await get('k'), 404, 'NOT_FOUND');
    v2Error(await send('DELETE', ONE('k')), 404, 'NOT_FOUND');
    v2Error(await send('DELETE', ONE('never')), 404, 'NOT_FOUND');
    const revisions = (await send('GET', `${ONE('k')}:listRevisions`)).json.dataStoreEntries;
    assert.deepEqual(
      revisions.map((r: { state: string }) => r.state),
      ['DELETED', 'ACTIVE'],
    );
  });

  it('takes an etag as ?etag= or If-Match (U2): a stale one is 409', async () => {
    const old = (await create('k', { value: 1 })).json.etag;
    const now = (await patch('k', { value: 2 })).json.etag;
    v2Error(await send('DELETE', ONE('k'), undefined, { query: { etag: old } }), 409, 'ABORTED');
    v2Error(await send('DELETE', ONE('k'), undefined, { headers: { 'if-match': `"${old}"` } }), 409, 'ABORTED');
    v2Error(await send('DELETE', ONE('gone'), undefined, { query: { etag: old } }), 409, 'ABORTED');
    assert.equal((await send('DELETE', ONE('k'), undefined, { headers: { 'if-match': `"${now}"` } })).status, 200);
    await create('k2', { value: 1 });
    const e2 = (await get('k2')).json.etag;
    assert.equal((await send('DELETE', ONE('k2'), undefined, { query: { etag: e2 } })).status, 200);
  });
});

describe('increment', () => {
  it('creates a missing key with the amount, adds 1 without one, and answers the full entry', async () => {
    const first = await increment('n', { amount: 5, users: ['users/3'], attributes: { a: 1 } });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual([first.json.value, first.json.users, first.json.attributes], [5, ['users/3'], { a: 1 }]);
    const second = await increment('n');
    assert.deepEqual([second.json.value, second.json.users, second.json.attributes], [6, [], {}]);
    assert.equal((await increment('n', { amount: -10 })).json.value, -4);
    assert.equal((await send('POST', `${ONE('n')}:increment`, '')).json.value, -3, 'an empty body is {}');
    assert.equal((await get('n')).json.value, -3);
  });

  it('needs whole numbers, and clamps the result to 2^53', async () => {
    await create('s', { value: 'text' });
    await create('f', { value: 1.5 });
    v2Error(await increment('s'), 400, 'INVALID_ARGUMENT');
    v2Error(await increment('f'), 400, 'INVALID_ARGUMENT');
    v2Error(await increment('n', { amount: 0.5 }), 400, 'INVALID_ARGUMENT');
    v2Error(await increment('n', { amount: '1' }), 400, 'INVALID_ARGUMENT');
    await create('big', { value: 2 ** 53 - 1 });
    assert.equal((await increment('big', { amount: 10 })).json.value, 2 ** 53);
    assert.equal((await increment('small', { amount: -(2 ** 60) })).json.value, -(2 ** 53));
  });

  it('works on keys holding ":" (the method follows the last ":")', async () => {
    const path = `${ENTRIES()}/users:45348281`;
    assert.equal((await send('POST', `${path}:increment`, { amount: 2 })).json.id, 'users:45348281');
    assert.equal((await send('GET', path)).json.value, 2);
    assert.equal((await send('PATCH', path, { value: 7 })).json.value, 7);
    assert.equal((await send('GET', `${path}:listRevisions`)).json.dataStoreEntries.length, 2);
    // A key that ends in a method name is read as that method.
    assert.equal((await send('GET', `${path}:increment`)).status, 405);
  });
});

describe('permissions and authentication', () => {
  it('checks the scope of each operation, answering 403 PERMISSION_DENIED', async () => {
    await create('k', { value: 1 });
    const as = (key: string): Call => ({ key });
    v2Error(await send('GET', ENTRIES(), undefined, as('reader')), 403, 'PERMISSION_DENIED');
    assert.equal((await get('k', as('reader'))).status, 200);
    v2Error(await send('PATCH', ONE('k'), { value: 2 }, as('reader')), 403, 'PERMISSION_DENIED');
    v2Error(await send('DELETE', ONE('k'), undefined, as('creator')), 403, 'PERMISSION_DENIED');
    v2Error(await send('GET', `${ONE('k')}:listRevisions`, undefined, as('creator')), 403, 'PERMISSION_DENIED');
    // Update with allowMissing needs objects:update only (and no control:create, U20).
    const upsert = await send('PATCH', ONE('new'), { value: 1 }, { ...as('updater'), query: { allowMissing: true } });
    assert.equal(upsert.status, 200, upsert.text);
    v2Error(
      await send('POST', ENTRIES(), { value: 1 }, { ...as('updater'), query: { id: 'x' } }),
      403,
      'PERMISSION_DENIED',
    );
  });

  it('increment needs objects:create for a new key and objects:update for a live one (U19)', async () => {
    await create('live', { value: 1 });
    v2Error(await increment('live', {}, { key: 'creator' }), 403, 'PERMISSION_DENIED');
    assert.equal((await increment('live', {}, { key: 'updater' })).status, 200);
    assert.equal((await increment('new', {}, { key: 'creator' })).status, 200);
    v2Error(await increment('new2', {}, { key: 'updater' }), 403, 'PERMISSION_DENIED');
  });

  it('answers a missing or unknown API key 401 in the gateway body', async () => {
    gatewayError(await send('GET', ENTRIES(), undefined, { key: null }), 401);
    gatewayError(await send('GET', ENTRIES(), undefined, { key: 'nope' }), 401);
  });
});
