// Memory-store queues in the emulator (reference open-api-ordered-memory.md, sections 4 and 7.3, decisions of
// section 9), over plain HTTP on the emulator's clock: add, read and discard, priorities then arrival, invisibility
// windows ending, discard after the window, expiry, the answers of an empty queue, and the wire setting (U1, U2, U13).
import * as assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/server';
import { start } from './fixtures/emulator/harness';
import {
  advance,
  clockNow,
  MAP,
  ok,
  QUEUE,
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
      { key: 'old-writer', scopes: ['universe.memory-store.queue:write'] },
      { key: 'adder', scopes: ['memory-store.queue:add'] },
      { key: 'dequeuer', scopes: ['memory-store.queue:dequeue'] },
    ],
  });
});
after(() => emu.close());
beforeEach(() => reset(emu.url));

const add = (body: unknown, queue?: string, key?: string): Promise<Reply> =>
  send(emu.url, 'POST', QUEUE(queue), body, { key });
const read = (query: Record<string, string | number | boolean> = {}, queue?: string): Promise<Reply> =>
  send(emu.url, 'GET', `${QUEUE(queue)}:read`, undefined, { query });
const discard = (readId: string, queue?: string): Promise<Reply> =>
  send(emu.url, 'POST', `${QUEUE(queue)}:discard`, { readId });
const datas = (r: Reply): unknown[] => ok(r).queueItems.map((i: { data: unknown }) => i.data);
const empty = (r: Reply): void => v2Error(r, 404, 'NOT_FOUND', 'Queue items not found.');

describe('queue items', () => {
  it('add answers {path, data, priority, expireTime} without an id; the path ends in a 32-hex id', async () => {
    const t0 = await clockNow(emu.url);
    const a = ok(await add({ data: { name: 'MyItem' }, priority: 2, ttl: '60s' }));
    const t1 = await clockNow(emu.url);
    assert.deepEqual(Object.keys(a), ['path', 'data', 'priority', 'expireTime']);
    assert.match(a.path, new RegExp(`^cloud/v2/universes/${U}/memory-store/queues/Jobs/items/[0-9a-f]{32}$`));
    assert.deepEqual(a.data, { name: 'MyItem' });
    assert.equal(a.priority, 2);
    const expires = Date.parse(a.expireTime);
    assert.ok(expires >= t0 + 60_000 && expires <= t1 + 60_000, a.expireTime);
    const d = ok(await add({ data: 'x' }));
    assert.equal(d.priority, 0);
    assert.ok(Date.parse(d.expireTime) >= t0 + 3_888_000_000);
  });

  it('refuses absent or null data, bad priority and bad ttl; nested nulls are kept', async () => {
    v2Error(await add({ priority: 1 }), 400, 'INVALID_ARGUMENT');
    v2Error(await add({ data: null }), 400, 'INVALID_ARGUMENT');
    v2Error(await add({ data: 1, priority: 'high' }), 400, 'INVALID_ARGUMENT');
    for (const ttl of ['PT5S', '0s', '3888001s']) v2Error(await add({ data: 1, ttl }), 400, 'INVALID_ARGUMENT');
    v2Error(await add({ data: 'v'.repeat(32 * 1024) }), 400, 'INVALID_ARGUMENT');
    empty(await read());
    ok(await add({ data: { a: null } }));
    assert.deepEqual(datas(await read()), [{ a: null }]);
  });

  it('items:add and PascalCase fields are accepted (2024 clients)', async () => {
    ok(await send(emu.url, 'POST', `${QUEUE()}:add`, { Data: 'old', Priority: 3, Ttl: '30s' }));
    const r = ok(await read());
    assert.deepEqual(r.queueItems[0].data, 'old');
    assert.equal(r.queueItems[0].priority, 3);
  });

  it('reads by priority, highest first, then arrival; answers {id, queueItems}', async () => {
    for (const [data, priority] of [
      ['low-1', 0],
      ['high-1', 10],
      ['mid', 5],
      ['low-2', 0],
      ['high-2', 10],
      ['negative', -1],
    ] as const)
      ok(await add({ data, priority }));
    const r = ok(await read({ count: 10 }));
    assert.deepEqual(Object.keys(r), ['id', 'queueItems']);
    assert.match(r.id, /^[0-9a-f]{32}$/);
    assert.deepEqual(
      r.queueItems.map((i: { data: unknown }) => i.data),
      ['high-1', 'high-2', 'mid', 'low-1', 'low-2', 'negative'],
    );
    assert.deepEqual(Object.keys(r.queueItems[0]), ['data', 'expireTime', 'path', 'priority']);
  });

  it('an empty queue, an unknown one and every item invisible all answer 404 "Queue items not found."', async () => {
    empty(await read({}, 'NeverWritten'));
    ok(await add({ data: 1 }));
    ok(await read());
    empty(await read());
  });

  it('count defaults to 1 and is coerced to 200; allOrNothing with too few is 404 and hides nothing', async () => {
    for (let i = 0; i < 3; i++) ok(await add({ data: i }));
    assert.deepEqual(datas(await read()), [0]);
    empty(await read({ count: 3, allOrNothing: true }));
    assert.deepEqual(datas(await read({ count: 2, allOrNothing: true })), [1, 2]);
    for (let i = 0; i < 205; i++) ok(await add({ data: i }, 'Many'));
    assert.equal(ok(await read({ count: 1000 }, 'Many')).queueItems.length, 200);
    v2Error(await read({ count: -1 }), 400, 'INVALID_ARGUMENT');
  });

  it('a read hides its items for the window; when it ends they are back in their place', async () => {
    ok(await add({ data: 'first', priority: 1 }));
    ok(await add({ data: 'second' }));
    assert.deepEqual(datas(await read({ invisibilityWindow: '10s' })), ['first']);
    assert.deepEqual(datas(await read({ invisibilityWindow: '20s' })), ['second']);
    empty(await read());
    await advance(emu.url, 9_000);
    empty(await read());
    await advance(emu.url, 1_100);
    ok(await add({ data: 'third', priority: 1 }));
    assert.deepEqual(datas(await read({ count: 5, invisibilityWindow: '1s' })), ['first', 'third']);
    await advance(emu.url, 10_000);
    assert.deepEqual(datas(await read({ count: 5 })), ['first', 'third', 'second']);
  });

  it('the window defaults to 30s; fractions are kept; the 2024 name is read when the spec name is absent', async () => {
    ok(await add({ data: 'a' }));
    ok(await read());
    await advance(emu.url, 29_000);
    empty(await read());
    await advance(emu.url, 1_100);
    ok(await read({ invisibilityWindow: '1.5s' }));
    await advance(emu.url, 500);
    empty(await read());
    await advance(emu.url, 1_100);
    ok(await read({ invisibilityTimeoutSeconds: 5 }));
    await advance(emu.url, 4_000);
    empty(await read());
    await advance(emu.url, 1_100);
    ok(await read({ invisibilityWindow: '2s', invisibilityTimeoutSeconds: 100 }));
    await advance(emu.url, 2_100);
    ok(await read());
    for (const invisibilityWindow of ['PT5S', '0s', '3888001s', '5'])
      v2Error(await read({ invisibilityWindow }), 400, 'INVALID_ARGUMENT');
    v2Error(await read({ invisibilityTimeoutSeconds: 0 }), 400, 'INVALID_ARGUMENT');
  });

  it('discard removes the items of a read within its window, and only those', async () => {
    ok(await add({ data: 'a' }));
    ok(await add({ data: 'b' }));
    ok(await add({ data: 'c' }));
    const r = ok(await read({ count: 2, invisibilityWindow: '10s' }));
    assert.deepEqual(ok(await discard(r.id)), {});
    await advance(emu.url, 20_000);
    assert.deepEqual(datas(await read({ count: 5 })), ['c']);
  });

  it('discard after the window has ended does nothing: the items come back and are read again', async () => {
    ok(await add({ data: 'a' }));
    const r = ok(await read({ invisibilityWindow: '10s' }));
    await advance(emu.url, 10_000);
    assert.deepEqual(ok(await discard(r.id)), {});
    const again = ok(await read({ invisibilityWindow: '10s' }));
    assert.deepEqual(
      again.queueItems.map((i: { data: unknown }) => i.data),
      ['a'],
    );
    // The old read no longer owns the item; the new one does.
    ok(await discard(r.id));
    await advance(emu.url, 10_000);
    const third = ok(await read({ invisibilityWindow: '10s' }));
    assert.deepEqual(ok(await discard(third.id)), {});
    await advance(emu.url, 10_000);
    empty(await read());
  });

  it('discard takes the readId from the query too; an unknown one answers 200; none is 400', async () => {
    ok(await add({ data: 'a' }));
    const r = ok(await read({ invisibilityWindow: '10s' }));
    assert.equal(
      (await send(emu.url, 'POST', `${QUEUE()}:discard`, '', { query: { readId: 'f'.repeat(32) } })).status,
      200,
    );
    ok(await send(emu.url, 'POST', `${QUEUE()}:discard`, {}, { query: { readId: r.id } }));
    await advance(emu.url, 10_000);
    empty(await read());
    v2Error(await send(emu.url, 'POST', `${QUEUE()}:discard`, {}), 400, 'INVALID_ARGUMENT');
  });

  it('items expire at their ttl, invisible or not; expiry beats invisibility', async () => {
    ok(await add({ data: 'short', ttl: '5s', priority: 1 }));
    ok(await add({ data: 'leased', ttl: '5s' }));
    ok(await add({ data: 'long', ttl: '100s' }));
    const r = ok(await read({ count: 1, invisibilityWindow: '60s' }));
    assert.deepEqual(
      r.queueItems.map((i: { data: unknown }) => i.data),
      ['short'],
    );
    await advance(emu.url, 4_000);
    assert.deepEqual(datas(await read({ count: 5, invisibilityWindow: '1s' })), ['leased', 'long']);
    await advance(emu.url, 1_100);
    ok(await discard(r.id));
    assert.deepEqual(datas(await read({ count: 5 })), ['long']);
  });

  it('each permission under each of its names: add, dequeue and discard apart', async () => {
    ok(await add({ data: 1 }, undefined, 'old-writer'));
    ok(await add({ data: 2 }, undefined, 'adder'));
    v2Error(await send(emu.url, 'GET', `${QUEUE()}:read`, undefined, { key: 'adder' }), 403, 'PERMISSION_DENIED');
    const r = ok(await send(emu.url, 'GET', `${QUEUE()}:read`, undefined, { key: 'dequeuer' }));
    v2Error(
      await send(emu.url, 'POST', `${QUEUE()}:discard`, { readId: r.id }, { key: 'dequeuer' }),
      403,
      'PERMISSION_DENIED',
    );
    v2Error(await add({ data: 3 }, undefined, 'dequeuer'), 403, 'PERMISSION_DENIED');
  });
});

describe('the memory-store wire setting', () => {
  const shapes = async (wire: 'spec' | '2024'): Promise<{ empty: Reply; full: Reply; item: Reply }> => {
    const other = await start({ memoryStoreWire: wire });
    try {
      const empty = await send(other.url, 'GET', `${QUEUE()}:read`);
      ok(await send(other.url, 'POST', QUEUE(), { data: 'a' }));
      const full = await send(other.url, 'GET', `${QUEUE()}:read`);
      ok(await send(other.url, 'POST', MAP(), { value: 1 }, { query: { id: 'k' } }));
      const item = await send(other.url, 'GET', `${MAP()}/k`);
      v2Error(
        await send(other.url, 'GET', `${QUEUE('Other')}:read`, undefined, { query: { allOrNothing: true } }),
        404,
        'NOT_FOUND',
      );
      return { empty, full, item };
    } finally {
      await other.close();
    }
  };

  it('spec: reads answer {readId, items}, 200 {items: []} when nothing is visible; Get says memory-store', async () => {
    const { empty, full, item } = await shapes('spec');
    assert.deepEqual(ok(empty), { items: [] });
    assert.deepEqual(Object.keys(ok(full)), ['readId', 'items']);
    assert.deepEqual(full.json.items[0].data, 'a');
    assert.match(ok(item).path, /\/memory-store\/sorted-maps\/Lobby\/items\/k$/);
  });

  it('2024: reads answer {data: [values], id}, 204 when nothing is visible', async () => {
    const { empty, full, item } = await shapes('2024');
    assert.equal(empty.status, 204);
    assert.equal(empty.text, '');
    assert.deepEqual(ok(full).data, ['a']);
    assert.match(full.json.id, /^[0-9a-f]{32}$/);
    assert.match(ok(item).path, /\/memory-stores\/sorted-maps\/Lobby\/items\/k$/);
  });
});
