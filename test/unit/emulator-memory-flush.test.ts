// Flushing memory stores as a long-running operation on the emulator's clock (reference open-api-ordered-memory.md,
// sections 5 and 7.5, U14, U15); a restart on a data folder keeping ordered entries and unexpired memory-store items
// with their leases; the demo seed; the command line's help.
import * as assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/server';
import { runCli, start, tempDir } from './fixtures/emulator/harness';
import {
  advance,
  MAP,
  ok,
  ORDERED,
  QUEUE,
  reset,
  send,
  START,
  startClocked,
  U,
  UNIVERSE,
  v2Error,
  type Reply,
} from './fixtures/emulator/memory';

const RESPONSE = { '@type': 'type.googleapis.com/roblox.open_cloud.cloud.v2.FlushMemoryStoreResponse' };

describe('flush', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await startClocked({
      apiKeys: [
        { key: 'sandbox' },
        { key: 'old-flusher', scopes: ['universe.memory-store:flush'] },
        { key: 'maps', scopes: ['memory-store.sorted-map:write', 'memory-store.sorted-map:read'] },
      ],
    });
  });
  after(() => emu.close());
  beforeEach(() => reset(emu.url));

  const flush = (query: Record<string, string> = {}, body?: unknown, key?: string): Promise<Reply> =>
    send(emu.url, 'POST', `${UNIVERSE}/memory-store:flush`, body, { query, key });
  const poll = (path: string, key?: string): Promise<Reply> => send(emu.url, 'GET', `/${path}`, undefined, { key });
  const item = (id: string): Promise<Reply> => send(emu.url, 'GET', `${MAP()}/${id}`);
  const write = (id: string): Promise<Reply> => send(emu.url, 'POST', MAP(), { value: id }, { query: { id } });

  it('answers a pending operation, done once the delay has passed on the clock; then maps and queues are empty', async () => {
    ok(await write('before'));
    ok(await send(emu.url, 'POST', QUEUE(), { data: 'job' }));
    ok(await send(emu.url, 'POST', ORDERED(), { value: 1 }, { query: { id: 'kept' } }));
    const op = ok(await flush());
    assert.deepEqual(Object.keys(op), ['path', 'done']);
    assert.match(op.path, new RegExp(`^cloud/v2/universes/${U}/memory-store/operations/[A-Za-z0-9_-]+$`));
    assert.equal(op.done, false);
    const id = op.path.split('/').pop();
    const other = `cloud/v2/universes/${U}/operations/${id}`;
    assert.deepEqual(ok(await poll(op.path)), op);
    assert.deepEqual(ok(await poll(other)), op);
    // Until it is done the items are there, and what is written meanwhile goes with them.
    ok(await item('before'));
    ok(await write('meanwhile'));
    await advance(emu.url, 1_100);
    const done = ok(await poll(op.path));
    assert.deepEqual(done, { path: op.path, done: true, response: RESPONSE });
    assert.deepEqual(ok(await poll(other)), done);
    v2Error(await item('before'), 404, 'NOT_FOUND');
    v2Error(await item('meanwhile'), 404, 'NOT_FOUND');
    v2Error(await send(emu.url, 'GET', `${QUEUE()}:read`), 404, 'NOT_FOUND');
    ok(await send(emu.url, 'GET', `${ORDERED()}/kept`));
    ok(await write('after'));
    ok(await item('after'));
  });

  it('takes effect before the first request after its time, even one that writes', async () => {
    ok(await write('a'));
    ok(await flush({}, {}));
    await advance(emu.url, 1_100);
    ok(await write('b'));
    v2Error(await item('a'), 404, 'NOT_FOUND');
    ok(await item('b'));
  });

  it('a TEST flush completes and removes nothing the web reaches; another scope is 400', async () => {
    ok(await write('a'));
    const op = ok(await flush({ scope: 'TEST' }));
    await advance(emu.url, 1_100);
    assert.equal(ok(await poll(op.path)).done, true);
    ok(await item('a'));
    v2Error(await flush({ scope: 'STAGING' }), 400, 'INVALID_ARGUMENT');
  });

  it('an unknown operation is 404; flushing and polling need the flush permission, under either name', async () => {
    v2Error(await poll(`cloud/v2/universes/${U}/memory-store/operations/nothing`), 404, 'NOT_FOUND');
    const op = ok(await flush({}, undefined, 'old-flusher'));
    ok(await poll(op.path, 'old-flusher'));
    v2Error(await poll(op.path, 'maps'), 403, 'PERMISSION_DENIED');
    v2Error(await flush({}, undefined, 'maps'), 403, 'PERMISSION_DENIED');
  });

  it('a flush with no delay is done at once', async () => {
    const quick = await start({ clock: START, flushDelayMs: 0 });
    try {
      ok(await send(quick.url, 'POST', MAP(), { value: 1 }, { query: { id: 'a' } }));
      const op = ok(await send(quick.url, 'POST', `${UNIVERSE}/memory-store:flush`));
      assert.equal(op.done, true);
      v2Error(await send(quick.url, 'GET', `${MAP()}/a`), 404, 'NOT_FOUND');
    } finally {
      await quick.close();
    }
  });
});

describe('a restart on the same data folder', () => {
  const at = (ms: number): string => new Date(Date.parse(START) + ms).toISOString();
  const read = async (url: string, query: Record<string, string | number> = {}): Promise<unknown[]> => {
    const r = await send(url, 'GET', `${QUEUE()}:read`, undefined, { query });
    return r.status === 404 ? [] : ok(r).queueItems.map((i: { data: unknown }) => i.data);
  };

  it('keeps ordered entries, unexpired items, leases and operations; expired items stay gone', async () => {
    const dir = tempDir();
    let emu = await start({ dataDir: dir, clock: START });
    ok(await send(emu.url, 'POST', ORDERED(), { value: 5 }, { query: { id: 'p' } }));
    ok(await send(emu.url, 'POST', `${ORDERED()}/p:increment`, { amount: 2 }));
    ok(
      await send(emu.url, 'POST', MAP(), { value: 'kept', ttl: '100s', numericSortKey: 3 }, { query: { id: 'keep' } }),
    );
    ok(await send(emu.url, 'POST', MAP(), { value: 'short', ttl: '10s' }, { query: { id: 'gone' } }));
    ok(await send(emu.url, 'POST', QUEUE(), { data: 'hidden', priority: 1 }));
    ok(await send(emu.url, 'POST', QUEUE(), { data: 'visible' }));
    assert.deepEqual(await read(emu.url, { invisibilityWindow: '60s' }), ['hidden']);
    const op = ok(
      await send(emu.url, 'POST', `${UNIVERSE}/memory-store:flush`, undefined, { query: { scope: 'TEST' } }),
    );
    await emu.close();

    emu = await start({ dataDir: dir, clock: at(30_000) });
    try {
      assert.equal(ok(await send(emu.url, 'GET', `${ORDERED()}/p`)).value, 7);
      const keep = ok(await send(emu.url, 'GET', `${MAP()}/keep`));
      assert.deepEqual([keep.value, keep.numericSortKey, keep.etag], ['kept', 3, '1']);
      v2Error(await send(emu.url, 'GET', `${MAP()}/gone`), 404, 'NOT_FOUND');
      assert.deepEqual(await read(emu.url), ['visible']);
      assert.equal(ok(await send(emu.url, 'GET', `/${op.path}`)).done, true);
    } finally {
      await emu.close();
    }

    // The journal was compacted by that start: a third one reads it back.
    emu = await start({ dataDir: dir, clock: at(120_000) });
    try {
      assert.equal(ok(await send(emu.url, 'GET', `${ORDERED()}/p`)).value, 7);
      v2Error(await send(emu.url, 'GET', `${MAP()}/keep`), 404, 'NOT_FOUND');
      assert.deepEqual(await read(emu.url, { count: 5 }), ['hidden', 'visible']);
      const next = ok(await send(emu.url, 'POST', MAP(), { value: 1 }, { query: { id: 'new' } }));
      assert.equal(next.etag, '3');
    } finally {
      await emu.close();
    }
  });
});

describe('the demo seed', () => {
  it('holds an ordered leaderboard, a lobby sorted map and a job queue', async () => {
    const emu = await start({ seed: 'demo' });
    try {
      const board = ok(
        await send(emu.url, 'GET', ORDERED('Leaderboard'), undefined, {
          query: { orderBy: 'value desc', maxPageSize: 100 },
        }),
      ).orderedDataStoreEntries;
      assert.equal(board.length, 50);
      assert.ok(board[0].value >= board[49].value);
      const lobby = ok(await send(emu.url, 'GET', MAP('Lobby'), undefined, { query: { maxPageSize: 100 } })).items;
      assert.equal(lobby.length, 7);
      assert.equal(lobby[0].numericSortKey, 0);
      assert.equal(lobby[lobby.length - 1].id, 'server-maintenance');
      const jobs = ok(await send(emu.url, 'GET', `${QUEUE('Jobs')}:read`, undefined, { query: { count: 10 } }));
      assert.equal(jobs.queueItems.length, 6);
      assert.equal(jobs.queueItems[0].priority, 10);
    } finally {
      await emu.close();
    }
  });
});

describe('the command line', () => {
  it('--help names ordered data stores, memory stores and the flush delay', async () => {
    const r = await runCli(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /ordered data stores/);
    assert.match(r.stdout, /memory stores: sorted\s+maps, queues and flush/);
    assert.match(r.stdout, /--flush-delay <ms>/);
    assert.match(r.stdout, /--memory-store-wire <w>/);
    assert.match(r.stdout, /memory-store quota is 64 KB \+ 1\.2 KB/);
  });
});
