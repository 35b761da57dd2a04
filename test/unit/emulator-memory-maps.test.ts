// Memory-store sorted maps in the emulator (reference open-api-ordered-memory.md, section 3, 7 and the decisions of
// section 9), over plain HTTP on the emulator's clock: items and their shape, TTL expiry, etags, map order, the
// filter grammar and paging. The quota is in emulator-memory-quota.test.ts.
import * as assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/server';
import {
  advance,
  clockNow,
  MAP,
  ok,
  reset,
  send,
  startClocked,
  U,
  v2Error,
  type Reply,
} from './fixtures/emulator/memory';

let emu: RunningEmulator;
before(async () => {
  emu = await startClocked({
    apiKeys: [
      { key: 'sandbox' },
      { key: 'old-reader', scopes: ['universe.memory-store.sorted-map:read'] },
      { key: 'reader', scopes: ['memory-store.sorted-map:read'] },
    ],
  });
});
after(() => emu.close());
beforeEach(() => reset(emu.url));

const one = (id: string, map?: string): string => `${MAP(map)}/${encodeURIComponent(id)}`;
const create = (id: string, body: unknown, map?: string): Promise<Reply> =>
  send(emu.url, 'POST', MAP(map), body, { query: { id } });
const get = (id: string, map?: string, key?: string): Promise<Reply> =>
  send(emu.url, 'GET', one(id, map), undefined, { key });
const update = (id: string, body: unknown, query: Record<string, string> = {}): Promise<Reply> =>
  send(emu.url, 'PATCH', one(id), body, { query });
const remove = (id: string, query: Record<string, string> = {}): Promise<Reply> =>
  send(emu.url, 'DELETE', one(id), undefined, { query });
const list = (query: Record<string, string | number> = {}, map?: string): Promise<Reply> =>
  send(emu.url, 'GET', MAP(map), undefined, { query });
const ids = (r: Reply): string[] => (ok(r).items ?? []).map((i: { id: string }) => i.id);

describe('sorted map items', () => {
  it('create answers the item; get names it with memory-stores; a live id again is 409 ALREADY_EXISTS', async () => {
    const before = await clockNow(emu.url);
    const c = ok(await create('a::b', { value: { isReal: true }, ttl: '30s', numericSortKey: 1 }));
    const after = await clockNow(emu.url);
    assert.deepEqual(Object.keys(c), ['path', 'value', 'etag', 'expireTime', 'id', 'numericSortKey']);
    assert.equal(c.path, `cloud/v2/universes/${U}/memory-store/sorted-maps/Lobby/items/a%3A%3Ab`);
    assert.equal(c.id, 'a::b');
    assert.deepEqual(c.value, { isReal: true });
    assert.equal(c.numericSortKey, 1);
    assert.match(c.etag, /^\d+$/);
    const expires = Date.parse(c.expireTime);
    assert.ok(expires >= before + 30_000 && expires <= after + 30_000, c.expireTime);
    const g = ok(await get('a::b'));
    assert.equal(g.path, `cloud/v2/universes/${U}/memory-stores/sorted-maps/Lobby/items/a%3A%3Ab`);
    assert.deepEqual({ ...g, path: c.path }, c);
    const again = await create('a::b', { value: 2 });
    v2Error(again, 409, 'ALREADY_EXISTS', 'Item already exists.');
    assert.deepEqual(ok(await get('a::b')).value, { isReal: true });
  });

  it('takes PascalCase fields and a string sort key; null values; no sort key leaves both fields out', async () => {
    const s = ok(await create('s', { Value: 'v', Ttl: '10s', StringSortKey: 'abc' }));
    assert.equal(s.stringSortKey, 'abc');
    assert.equal(s.value, 'v');
    const n = ok(await create('n', { value: null }));
    assert.equal(n.value, null);
    assert.equal('numericSortKey' in n || 'stringSortKey' in n, false);
  });

  it('refuses bad input with 400: no value, both sort keys, long ids and sort keys, big values, bad ttl', async () => {
    v2Error(await create('x', { ttl: '5s' }), 400, 'INVALID_ARGUMENT');
    v2Error(await create('x', { value: 1, numericSortKey: 1, stringSortKey: 'a' }), 400, 'INVALID_ARGUMENT');
    v2Error(await create('x', { value: 1, numericSortKey: '1' }), 400, 'INVALID_ARGUMENT');
    ok(await create('k'.repeat(128), { value: 1, stringSortKey: 's'.repeat(128) }));
    v2Error(await create('k'.repeat(129), { value: 1 }), 400, 'INVALID_ARGUMENT');
    v2Error(await create('x', { value: 1, stringSortKey: 's'.repeat(129) }), 400, 'INVALID_ARGUMENT');
    ok(await create('fits', { value: 'v'.repeat(32 * 1024 - 2) }));
    v2Error(await create('big', { value: 'v'.repeat(32 * 1024 - 1) }), 400, 'INVALID_ARGUMENT');
    for (const ttl of ['PT5S', '0s', '5', '-1s', '3888001s', 5])
      v2Error(await create('x', { value: 1, ttl }), 400, 'INVALID_ARGUMENT');
    v2Error(await get('x'), 404, 'NOT_FOUND');
    ok(await create('longest', { value: 1, ttl: '3888000s' }));
    ok(await create('fraction', { value: 1, ttl: '1.5s' }));
    v2Error(await send(emu.url, 'POST', MAP(), { value: 1 }), 400, 'INVALID_ARGUMENT');
  });

  it('expires at its ttl on the clock: gone from get, list and update; the id is free again', async () => {
    ok(await create('short', { value: 1, ttl: '10s', numericSortKey: 1 }));
    ok(await create('long', { value: 2, ttl: '100s', numericSortKey: 2 }));
    await advance(emu.url, 9_000);
    ok(await get('short'));
    assert.deepEqual(ids(await list({ maxPageSize: 10 })), ['short', 'long']);
    await advance(emu.url, 1_500);
    v2Error(await get('short'), 404, 'NOT_FOUND');
    assert.deepEqual(ids(await list({ maxPageSize: 10 })), ['long']);
    v2Error(await update('short', { value: 3 }), 404, 'NOT_FOUND');
    ok(await create('short', { value: 4 }));
  });

  it('a ttl left out is 45 days; an update sets a fresh expiry and replaces the sort key', async () => {
    const t0 = await clockNow(emu.url);
    const c = ok(await create('k', { value: 1, numericSortKey: 5, ttl: '10s' }));
    const u = ok(await update('k', { value: 2 }));
    const t1 = await clockNow(emu.url);
    const days45 = 3_888_000_000;
    assert.ok(Date.parse(u.expireTime) >= t0 + days45 && Date.parse(u.expireTime) <= t1 + days45, u.expireTime);
    assert.equal('numericSortKey' in u, false);
    assert.notEqual(u.etag, c.etag);
    await advance(emu.url, 20_000);
    assert.equal(ok(await get('k')).value, 2);
    ok(await update('k', { value: 3, ttl: '5s' }));
    await advance(emu.url, 5_001);
    v2Error(await get('k'), 404, 'NOT_FOUND');
  });

  it('update of a missing item is 404 unless allowMissing; the path id wins over a body id', async () => {
    v2Error(await update('m', { value: 1 }), 404, 'NOT_FOUND');
    const u = ok(await update('m', { value: 1, id: 'other' }, { allowMissing: 'true' }));
    assert.equal(u.id, 'm');
    ok(await update('m2', { value: 1 }, { allow_missing: 'true' }));
    v2Error(await get('other'), 404, 'NOT_FOUND');
  });

  it('etags: a per-map counter new on each write; a stale or dangling etag is 409 ABORTED', async () => {
    const a = ok(await create('a', { value: 1 }));
    const b = ok(await create('b', { value: 1 }));
    assert.equal(Number(b.etag), Number(a.etag) + 1);
    const other = ok(await create('a', { value: 1 }, 'OtherMap'));
    assert.equal(other.etag, '1');
    const a2 = ok(await update('a', { value: 2, etag: a.etag }));
    assert.equal(Number(a2.etag), Number(b.etag) + 1);
    v2Error(await update('a', { value: 3, etag: a.etag }), 409, 'ABORTED');
    v2Error(await update('a', { value: 3 }, { etag: a.etag }), 409, 'ABORTED');
    v2Error(await remove('a', { etag: a.etag }), 409, 'ABORTED');
    assert.equal(ok(await get('a')).value, 2);
    const d = await remove('a', { etag: a2.etag });
    assert.equal(d.status, 200);
    assert.equal(d.text, '');
    v2Error(await get('a'), 404, 'NOT_FOUND');
    assert.equal((await remove('a')).status, 200);
    v2Error(await remove('a', { etag: a2.etag }), 409, 'ABORTED');
  });

  it('reads with either name of the read permission; a reader may not write', async () => {
    ok(await create('a', { value: 1 }));
    ok(await get('a', undefined, 'old-reader'));
    ok(await get('a', undefined, 'reader'));
    v2Error(
      await send(emu.url, 'POST', MAP(), { value: 1 }, { query: { id: 'b' }, key: 'reader' }),
      403,
      'PERMISSION_DENIED',
    );
  });
});

describe('listing a sorted map', () => {
  // The reference's example, in map order.
  const ORDER = ['player1', 'player2', 'player4', 'player5', 'player3', 'player6', 'player0', 'player7'];
  const seed = async (): Promise<void> => {
    const keys: [string, number | string | undefined][] = [
      ['player0', undefined],
      ['player1', -1],
      ['player2', 0],
      ['player3', 3.14],
      ['player4', 1],
      ['player5', 1],
      ['player6', 'someString'],
      ['player7', undefined],
    ];
    for (const [id, key] of keys) {
      const sortKey = typeof key === 'number' ? { numericSortKey: key } : key ? { stringSortKey: key } : {};
      ok(await create(id, { value: id, ...sortKey }));
    }
  };

  it('lists numbers, then strings, then none, ties by id; descending is the exact reverse', async () => {
    await seed();
    assert.deepEqual(ids(await list({ maxPageSize: 100 })), ORDER);
    assert.deepEqual(ids(await list({ maxPageSize: 100, orderBy: 'id desc' })), [...ORDER].reverse());
    assert.deepEqual(ids(await list({ maxPageSize: 100, orderBy: 'desc' })), [...ORDER].reverse());
    assert.deepEqual(ids(await list({ maxPageSize: 100, order_by: 'SortKey Asc' })), ORDER);
    assert.deepEqual(ids(await list({ maxPageSize: 100, orderBy: 'id' })), ORDER);
    v2Error(await list({ orderBy: 'value desc' }), 400, 'INVALID_ARGUMENT');
  });

  it('pages one item at a time by default; tokens walk the whole order and are bound to the parameters', async () => {
    await seed();
    const first = ok(await list());
    assert.equal(first.items.length, 1);
    assert.equal(first.items[0].id, 'player1');
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = ok(await list({ maxPageSize: 3, orderBy: 'desc', ...(token && { pageToken: token }) }));
      seen.push(...page.items.map((i: { id: string }) => i.id));
      token = page.nextPageToken;
      assert.ok(page.items.length === 3 || token === undefined);
    } while (token);
    assert.deepEqual(seen, [...ORDER].reverse());
    v2Error(await list({ pageToken: first.nextPageToken, maxPageSize: 2 }), 400, 'INVALID_ARGUMENT');
    v2Error(await list({ pageToken: first.nextPageToken, orderBy: 'desc' }), 400, 'INVALID_ARGUMENT');
    v2Error(await list({ maxPageSize: -1 }), 400, 'INVALID_ARGUMENT');
    assert.equal(ok(await list({ maxPageSize: 0 })).items.length, 1);
    assert.equal(ok(await list({ maxPageSize: 500 })).items.length, 8);
  });

  it('a token holds a place: items written or removed meanwhile are seen where they fall', async () => {
    await seed();
    const first = ok(await list({ maxPageSize: 3 }));
    assert.deepEqual(
      first.items.map((i: { id: string }) => i.id),
      ['player1', 'player2', 'player4'],
    );
    ok(await create('early', { value: 0, numericSortKey: -100 }));
    ok(await create('middle', { value: 0, numericSortKey: 2 }));
    assert.equal((await remove('player4')).status, 200);
    assert.equal((await remove('player5')).status, 200);
    const next = ok(await list({ maxPageSize: 3, pageToken: first.nextPageToken }));
    assert.deepEqual(
      next.items.map((i: { id: string }) => i.id),
      ['middle', 'player3', 'player6'],
    );
  });

  it('an empty or unknown map answers no items and no token', async () => {
    assert.deepEqual(ok(await list({ maxPageSize: 10 }, 'Nothing')), {});
  });

  it('filters: exclusive bounds; sortKey alone in map order, id alone on ids, both as one bound', async () => {
    await seed();
    const filtered = async (filter: string, orderBy = ''): Promise<string[]> =>
      ids(await list({ maxPageSize: 100, filter, orderBy }));
    assert.deepEqual(await filtered('sortKey > 0 && sortKey < 3.14'), ['player4', 'player5']);
    assert.deepEqual(await filtered('sortKey < 1'), ['player1', 'player2']);
    assert.deepEqual(await filtered('sortKey > "a"'), ['player6', 'player0', 'player7']);
    assert.deepEqual(await filtered('sortKey > 3.14'), ['player6', 'player0', 'player7']);
    assert.deepEqual(await filtered('sortKey < "zzz"'), ORDER.slice(0, 6));
    assert.deepEqual(await filtered('id > "player5"'), ['player6', 'player7']);
    assert.deepEqual(await filtered('id > "player1" && id < "player4"'), ['player2', 'player3']);
    assert.deepEqual(await filtered('sortKey > 1 && id > "player4"'), [
      'player5',
      'player3',
      'player6',
      'player0',
      'player7',
    ]);
    assert.deepEqual(await filtered('sortKey<1&&sortKey>-1'), ['player2']);
    assert.deepEqual(await filtered('sortKey > 0 && sortKey < 3.14', 'desc'), ['player5', 'player4']);
    for (const filter of [
      'sortKey >= 1',
      'value > 1',
      'id > 5',
      'sortKey > 1 &&',
      'sortKey > 1 && sortKey > 2',
      'sortKey > abc',
      'id > "a" || id < "b"',
    ])
      v2Error(await list({ filter }), 400, 'INVALID_ARGUMENT');
  });

  it('a filtered page token goes on within the filter', async () => {
    await seed();
    const first = ok(await list({ maxPageSize: 2, filter: 'sortKey > -1' }));
    assert.deepEqual(
      first.items.map((i: { id: string }) => i.id),
      ['player2', 'player4'],
    );
    const second = ok(await list({ maxPageSize: 2, filter: 'sortKey > -1', pageToken: first.nextPageToken }));
    assert.deepEqual(
      second.items.map((i: { id: string }) => i.id),
      ['player5', 'player3'],
    );
    v2Error(
      await list({ maxPageSize: 2, filter: 'sortKey > 0', pageToken: first.nextPageToken }),
      400,
      'INVALID_ARGUMENT',
    );
  });
});
