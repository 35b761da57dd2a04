// Cloud v2 ordered data stores in the emulator (reference open-api-ordered-memory.md, section 2 and the decisions of
// section 9), over plain HTTP: every operation, values, the filter grammar, ordering, paging, scopes, permissions.
// A restart keeping entries is in emulator-memory-quota.test.ts.
import * as assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/server';
import { gatewayError } from './fixtures/emulator/harness';
import { ok, ORDERED, reset, send, startClocked, U, v2Error, type Reply } from './fixtures/emulator/memory';

const READ = 'universe.ordered-data-store.scope.entry:read';
const WRITE = 'universe.ordered-data-store.scope.entry:write';
let emu: RunningEmulator;
before(async () => {
  emu = await startClocked({
    apiKeys: [{ key: 'sandbox' }, { key: 'reader', scopes: [READ] }, { key: 'writer', scopes: [WRITE] }],
  });
});
after(() => emu.close());
beforeEach(() => reset(emu.url));

const one = (id: string, scope?: string): string => `${ORDERED('Scores', scope)}/${encodeURIComponent(id)}`;
const create = (id: string, value: unknown, scope?: string, key?: string): Promise<Reply> =>
  send(emu.url, 'POST', ORDERED('Scores', scope), { value }, { query: { id }, key });
const get = (id: string, scope?: string): Promise<Reply> => send(emu.url, 'GET', one(id, scope));
const update = (id: string, value: unknown, query: Record<string, string> = {}): Promise<Reply> =>
  send(emu.url, 'PATCH', one(id), { value }, { query });
const increment = (id: string, body: unknown = {}): Promise<Reply> =>
  send(emu.url, 'POST', `${one(id)}:increment`, body);
const list = (query: Record<string, string | number> = {}): Promise<Reply> =>
  send(emu.url, 'GET', ORDERED(), undefined, { query });
const ids = (r: Reply): string[] => ok(r).orderedDataStoreEntries.map((e: { id: string }) => e.id);

describe('ordered data store entries', () => {
  it('create answers {path, value, id}; get gives the same; a second create is 400 "Entry already exists."', async () => {
    const c = ok(await create('45348281', 78));
    assert.deepEqual(c, {
      path: `universes/${U}/ordered-data-stores/Scores/scopes/global/entries/45348281`,
      value: 78,
      id: '45348281',
    });
    assert.deepEqual(ok(await get('45348281')), c);
    v2Error(await create('45348281', 5), 400, 'INVALID_ARGUMENT', 'Entry already exists.');
    assert.equal(ok(await get('45348281')).value, 78);
  });

  it('get, delete and update without allowMissing of a missing entry are 404 NOT_FOUND', async () => {
    v2Error(await get('nobody'), 404, 'NOT_FOUND');
    v2Error(await send(emu.url, 'DELETE', one('nobody')), 404, 'NOT_FOUND');
    v2Error(await update('nobody', 3), 404, 'NOT_FOUND');
    v2Error(await get('nobody'), 404, 'NOT_FOUND');
  });

  it('delete answers {} and the entry is gone at once; update with allowMissing (either spelling) creates', async () => {
    ok(await create('a', 1));
    assert.deepEqual(ok(await send(emu.url, 'DELETE', one('a'))), {});
    v2Error(await get('a'), 404, 'NOT_FOUND');
    assert.equal(ok(await update('a', 7, { allowMissing: 'true' })).value, 7);
    assert.equal(ok(await update('b', 8, { allow_missing: 'true' })).value, 8);
    assert.equal(ok(await update('a', 9)).value, 9);
    assert.equal(ok(await get('a')).value, 9);
  });

  it('values are integers: fractions round half away from zero, beyond 2^53 is 400, non-numbers 400', async () => {
    assert.equal(ok(await create('half', 1.5)).value, 2);
    assert.equal(ok(await create('minus-half', -1.5)).value, -2);
    assert.equal(ok(await create('down', 2.4)).value, 2);
    assert.equal(ok(await create('negative', -3)).value, -3);
    assert.equal(ok(await create('top', 2 ** 53)).value, 2 ** 53);
    v2Error(await create('over', 9007199254740994), 400, 'INVALID_ARGUMENT');
    v2Error(await create('text', '5'), 400, 'INVALID_ARGUMENT');
    v2Error(await send(emu.url, 'POST', ORDERED(), {}, { query: { id: 'none' } }), 400, 'INVALID_ARGUMENT');
    v2Error(await get('over'), 404, 'NOT_FOUND');
  });

  it('increment adds whole amounts (1 without one), creates a missing entry, refuses fractions', async () => {
    assert.equal(ok(await increment('k', { amount: 5 })).value, 5);
    assert.equal(ok(await increment('k')).value, 6);
    assert.equal(ok(await increment('k', { amount: -10 })).value, -4);
    v2Error(await increment('k', { amount: 1.5 }), 400, 'INVALID_ARGUMENT');
    v2Error(await increment('k', { amount: 'x' }), 400, 'INVALID_ARGUMENT');
    assert.equal(ok(await get('k')).value, -4);
  });

  it('an increment past 2^53 answers the value clamped but stores the exact sum', async () => {
    ok(await create('big', 2 ** 53 - 1));
    assert.equal(ok(await increment('big', { amount: 10 })).value, 2 ** 53);
    assert.equal(ok(await get('big')).value, 2 ** 53);
    assert.equal(ok(await increment('big', { amount: -10 })).value, 2 ** 53 - 1);
  });

  it('an id with ":" increments at its last ":"; ids are 1 to 50 bytes', async () => {
    ok(await create('a:b', 1));
    assert.equal(ok(await send(emu.url, 'POST', `${ORDERED()}/a:b:increment`, { amount: 2 })).value, 3);
    assert.equal(ok(await get('a:b')).value, 3);
    ok(await create('x'.repeat(50), 1));
    v2Error(await create('x'.repeat(51), 1), 400, 'INVALID_ARGUMENT');
    v2Error(await create('é'.repeat(26), 1), 400, 'INVALID_ARGUMENT');
    v2Error(await send(emu.url, 'POST', ORDERED(), { value: 1 }), 400, 'INVALID_ARGUMENT');
  });

  it('scopes hold their own entries', async () => {
    ok(await create('p', 1, 'global'));
    ok(await create('p', 2, 'season2'));
    assert.equal(ok(await get('p', 'global')).value, 1);
    assert.equal(ok(await get('p', 'season2')).value, 2);
    v2Error(await get('p', 'other'), 404, 'NOT_FOUND');
  });

  it('a reading key lists and gets but may not write; a writing key may not read', async () => {
    ok(await create('p', 1));
    ok(await send(emu.url, 'GET', one('p'), undefined, { key: 'reader' }));
    ok(await send(emu.url, 'GET', ORDERED(), undefined, { key: 'reader' }));
    v2Error(await create('q', 1, undefined, 'reader'), 403, 'PERMISSION_DENIED');
    v2Error(await send(emu.url, 'POST', `${one('p')}:increment`, {}, { key: 'reader' }), 403, 'PERMISSION_DENIED');
    v2Error(await send(emu.url, 'DELETE', one('p'), undefined, { key: 'reader' }), 403, 'PERMISSION_DENIED');
    ok(await create('q', 1, undefined, 'writer'));
    v2Error(await send(emu.url, 'GET', one('p'), undefined, { key: 'writer' }), 403, 'PERMISSION_DENIED');
    gatewayError(await send(emu.url, 'GET', one('p'), undefined, { key: 'unknown' }), 401);
  });
});

describe('listing ordered entries', () => {
  const seed = async (): Promise<void> => {
    for (const [id, v] of [
      ['c', 20],
      ['a', 10],
      ['e', 30],
      ['b', 20],
      ['d', -5],
      ['f', 15],
    ] as const)
      ok(await create(id, v));
  };

  it('lists by value ascending, equal values by id; "value desc" is the exact reverse', async () => {
    await seed();
    assert.deepEqual(ids(await list()), ['d', 'a', 'f', 'b', 'c', 'e']);
    assert.deepEqual(ids(await list({ orderBy: 'value' })), ['d', 'a', 'f', 'b', 'c', 'e']);
    assert.deepEqual(ids(await list({ orderBy: 'value desc' })), ['e', 'c', 'b', 'f', 'a', 'd']);
    assert.deepEqual(ids(await list({ order_by: 'VALUE DESC' })), ['e', 'c', 'b', 'f', 'a', 'd']);
    assert.deepEqual(ids(await list({ orderBy: 'desc' })), ['e', 'c', 'b', 'f', 'a', 'd']);
    const entry = ok(await list({ maxPageSize: 1 })).orderedDataStoreEntries[0];
    assert.deepEqual(entry, {
      path: `universes/${U}/ordered-data-stores/Scores/scopes/global/entries/d`,
      value: -5,
      id: 'd',
    });
    v2Error(await list({ orderBy: 'id desc' }), 400, 'INVALID_ARGUMENT');
  });

  it('filters with inclusive bounds in either order, and refuses anything off the grammar', async () => {
    await seed();
    assert.deepEqual(ids(await list({ filter: 'entry >= 15 && entry <= 20' })), ['f', 'b', 'c']);
    assert.deepEqual(ids(await list({ filter: 'entry <= 20 && entry >= 15' })), ['f', 'b', 'c']);
    assert.deepEqual(ids(await list({ filter: 'entry >= 20', orderBy: 'value desc' })), ['e', 'c', 'b']);
    assert.deepEqual(ids(await list({ filter: 'entry <= -5' })), ['d']);
    for (const filter of [
      'entry>=15',
      'entry >=  15',
      ' entry >= 15',
      'entry > 15',
      'entry >= 1.5',
      'value >= 15',
      'entry >= 15 && entry >= 16',
      'entry >= 15 &&  entry <= 20',
      'entry >= 20 && entry <= 15',
    ])
      v2Error(await list({ filter }), 400, 'INVALID_ARGUMENT');
  });

  it('pages with maxPageSize and a token bound to the other parameters; the last page has none', async () => {
    await seed();
    const first = ok(await list({ maxPageSize: 4, orderBy: 'value desc' }));
    assert.deepEqual(
      first.orderedDataStoreEntries.map((e: { id: string }) => e.id),
      ['e', 'c', 'b', 'f'],
    );
    const second = ok(await list({ maxPageSize: 4, orderBy: 'value desc', pageToken: first.nextPageToken }));
    assert.deepEqual(
      second.orderedDataStoreEntries.map((e: { id: string }) => e.id),
      ['a', 'd'],
    );
    assert.equal(second.nextPageToken, undefined);
    v2Error(await list({ maxPageSize: 4, pageToken: first.nextPageToken }), 400, 'INVALID_ARGUMENT');
    v2Error(await list({ maxPageSize: 4, orderBy: 'value desc', pageToken: 'forged.token' }), 400, 'INVALID_ARGUMENT');
    // The token holds a place, so entries written meanwhile are seen where they fall.
    ok(await create('g', 16));
    const again = ok(await list({ maxPageSize: 4, orderBy: 'value desc', page_token: first.nextPageToken }));
    assert.deepEqual(
      again.orderedDataStoreEntries.map((e: { id: string }) => e.id),
      ['a', 'd'],
    );
  });

  it('maxPageSize defaults to 10 (also for 0), is clamped to 100, and negative is 400', async () => {
    for (let i = 0; i < 105; i++) ok(await create(`p${String(i).padStart(3, '0')}`, i));
    assert.equal(ids(await list()).length, 10);
    assert.equal(ids(await list({ maxPageSize: 0 })).length, 10);
    const big = ok(await list({ max_page_size: 1000 }));
    assert.equal(big.orderedDataStoreEntries.length, 100);
    assert.ok(big.nextPageToken);
    const rest = ok(await list({ max_page_size: 1000, pageToken: big.nextPageToken }));
    assert.deepEqual(
      rest.orderedDataStoreEntries.map((e: { id: string }) => e.id),
      ['p100', 'p101', 'p102', 'p103', 'p104'],
    );
    v2Error(await list({ maxPageSize: -1 }), 400, 'INVALID_ARGUMENT');
  });

  it('an empty or unknown store lists no entries and no token', async () => {
    const r = ok(await list());
    assert.deepEqual(r, { orderedDataStoreEntries: [] });
  });
});
