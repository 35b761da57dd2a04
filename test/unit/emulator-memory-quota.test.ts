// The memory-store quota in the emulator (reference open-api-ordered-memory.md, sections 6 and 7.6): 64 KB + 1.2 KB
// per concurrent user, the highest figure of the last 8 days of the emulator's clock; memory is each live item's id,
// JSON value and sort key, in sorted maps and queues alike. A write that would grow memory past it is 429
// RESOURCE_EXHAUSTED; one that shrinks or keeps it goes through.
import * as assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/server';
import { start } from './fixtures/emulator/harness';
import {
  advance,
  MAP,
  ok,
  ORDERED,
  QUEUE,
  reset,
  send,
  setUsers,
  startClocked,
  v2Error,
  type Reply,
} from './fixtures/emulator/memory';

let emu: RunningEmulator;
before(async () => {
  emu = await startClocked();
});
after(() => emu.close());
beforeEach(() => reset(emu.url));

const DAY = 24 * 60 * 60 * 1000;
const KB64 = 64 * 1024;

/** A one-letter id whose item takes exactly `bytes` of memory: the id, and a string value of bytes - 3 characters. */
const sized = (bytes: number): { value: string } => ({ value: 'x'.repeat(bytes - 3) });
const put = (id: string, body: unknown, query: Record<string, string> = { allowMissing: 'true' }): Promise<Reply> =>
  send(emu.url, 'PATCH', `${MAP()}/${id}`, body, { query });
const full = (r: Reply): void => v2Error(r, 429, 'RESOURCE_EXHAUSTED');

describe('memory-store quota', () => {
  it('allows exactly 64 KB without users; a growing write past it is 429, in maps and queues alike', async () => {
    ok(await put('a', sized(32_000)));
    ok(await put('b', sized(32_000)));
    ok(await put('c', sized(KB64 - 64_000)));
    full(await put('d', { value: 0 }));
    full(await send(emu.url, 'POST', QUEUE(), { data: 0 }));
    full(await put('c', sized(KB64 - 64_000 + 1)));
    // Keeping or shrinking goes through; what is freed can be taken again.
    ok(await put('c', sized(KB64 - 64_000)));
    ok(await put('c', sized(KB64 - 64_000 - 40)));
    ok(await send(emu.url, 'POST', QUEUE(), { data: 0 }));
    full(await put('d', sized(10)));
    assert.equal((await send(emu.url, 'DELETE', `${MAP()}/a`)).status, 200);
    ok(await put('d', sized(32_000)));
  });

  it('one map holds at most 100 MB even with quota to spare: a write past it is 429, another map takes it', async () => {
    await setUsers(emu.url, 200_000); // a quota of about 234 MB
    const LIMIT = 100 * 1024 * 1024;
    // Four-letter ids and values of 31,997 characters: 32,000 bytes an item.
    const n = Math.floor(LIMIT / 32_000);
    for (let i = 0; i < n; i++) ok(await put(String(1000 + i), sized(31_997)));
    const left = LIMIT - n * 32_000;
    full(await put('9999', sized(left - 3 + 1)));
    ok(await put('9999', sized(left - 3)));
    full(await put('z', { value: 0 }));
    ok(await send(emu.url, 'PATCH', `${MAP('Other')}/z`, { value: 0 }, { query: { allowMissing: 'true' } }));
  });

  it('counts sort keys, and queue items even while a read hides them', async () => {
    ok(await put('a', { ...sized(32_000), stringSortKey: 'k'.repeat(100) }));
    ok(await send(emu.url, 'POST', QUEUE(), { data: 'q'.repeat(32_000) }));
    ok(await send(emu.url, 'GET', `${QUEUE()}:read`, undefined, { query: { invisibilityWindow: '60s' } }));
    // 32,100 + 32,034 (a 32-character id and the data) are held: 1,402 bytes are left.
    full(await put('b', sized(1_403)));
    ok(await put('b', sized(1_402)));
  });

  it('expired items free their memory', async () => {
    ok(await put('a', { ...sized(32_000), ttl: '10s' }));
    ok(await put('b', sized(32_000)));
    ok(await put('c', sized(KB64 - 64_000)));
    full(await put('d', { value: 0 }));
    await advance(emu.url, 9_000);
    full(await put('d', { value: 0 }));
    await advance(emu.url, 1_100);
    ok(await put('d', sized(32_000)));
  });

  it('grows with concurrent users at once and drops only 8 days after they leave', async () => {
    await setUsers(emu.url, 10);
    const raised = KB64 + 12_288;
    ok(await put('a', sized(32_000)));
    ok(await put('b', sized(32_000)));
    const c = raised - 64_000;
    ok(await put('c', sized(c)));
    full(await put('d', { value: 0 }));
    await setUsers(emu.url, 0);
    ok(await put('c', sized(c - 10)));
    ok(await put('c', sized(c)));
    await advance(emu.url, 8 * DAY - 60_000);
    ok(await put('c', sized(c - 10)));
    ok(await put('c', sized(c)));
    await advance(emu.url, 120_000);
    // Over the quota now: shrinking and keeping go through, growing does not.
    ok(await put('c', sized(c - 10)));
    full(await put('c', sized(c - 9)));
    ok(await put('c', sized(c - 10)));
    assert.equal((await send(emu.url, 'DELETE', `${MAP()}/c`)).status, 200);
    ok(await put('d', sized(KB64 - 64_000)));
    full(await put('e', { value: 0 }));
  });
});

describe('request units', () => {
  it('with rate limits, every memory-store call draws on the universe request units; ordered calls on their own', async () => {
    // 1000 x 0.001: one unit a minute (and one ordered read).
    const limited = await start({ rateLimits: true, rateLimitScale: 0.001 });
    try {
      const first = await send(limited.url, 'GET', `${MAP()}/a`);
      v2Error(first, 404, 'NOT_FOUND');
      assert.equal(first.headers.get('x-ratelimit-limit'), '1, 1;w=60');
      const second = await send(limited.url, 'GET', `${QUEUE()}:read`);
      v2Error(second, 429, 'RESOURCE_EXHAUSTED');
      assert.ok(Number(second.headers.get('retry-after')) >= 1);
      v2Error(await send(limited.url, 'GET', `${ORDERED()}/p`), 404, 'NOT_FOUND');
      v2Error(await send(limited.url, 'GET', `${ORDERED()}/p`), 429, 'RESOURCE_EXHAUSTED');
    } finally {
      await limited.close();
    }
  });
});
