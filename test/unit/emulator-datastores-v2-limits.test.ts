// Cloud v2 data store limits (reference open-api-datastores-v2.md 4.1, 4.2, 4.4): a per-minute budget per universe
// for each category, 300 + k x concurrent users, the figure set by an option, a control endpoint or a CLI flag;
// 429 RESOURCE_EXHAUSTED with retry-after, x-ratelimit-* on every answer; v1 keeps its fixed limits apart. Also the
// setting for what an etag mismatch answers (U1).
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/server';
import {
  call,
  DS,
  ENTRY,
  entry,
  gatewayError,
  runCli,
  spawnCli,
  start,
  U,
  type Reply,
} from './fixtures/emulator/harness';

const V2 = (u = U): string => `/cloud/v2/universes/${u}/data-stores`;
const ENTRIES = (u = U): string => `${V2(u)}/S/scopes/global/entries`;
const limitOf = (r: Reply): string | null => r.headers.get('x-ratelimit-limit');

async function withEmulator(opts: Parameters<typeof start>[0], body: (e: RunningEmulator) => Promise<void>) {
  const e = await start(opts);
  try {
    await body(e);
  } finally {
    await e.close();
  }
}

const v2 = (e: RunningEmulator, method: string, path: string, body?: unknown): Promise<Reply> =>
  call(e.url, method, path, { body: body === undefined ? undefined : JSON.stringify(body) });
const users = (e: RunningEmulator, body?: unknown): Promise<Reply> =>
  call(e.url, body === undefined ? 'GET' : 'POST', '/_emulator/concurrent-users', {
    key: null,
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('cloud v2 data store limits', () => {
  it('one budget per category and universe; 429 RESOURCE_EXHAUSTED with retry-after and x-ratelimit-*', async () => {
    await withEmulator({ rateLimits: true, rateLimitScale: 0.01 }, async (e) => {
      // 300 per minute with no concurrent users, scaled to 3.
      const remaining: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await v2(e, 'POST', `${ENTRIES()}/n:increment`, {});
        assert.equal(r.status, 200, r.text);
        assert.equal(limitOf(r), '3, 3;w=60');
        remaining.push(r.headers.get('x-ratelimit-remaining')!);
        assert.ok(Number(r.headers.get('x-ratelimit-reset')) <= 60);
      }
      assert.deepEqual(remaining, ['2', '1', '0']);
      const limited = await v2(e, 'PATCH', `${ENTRIES()}/n`, { value: 1 });
      assert.equal(limited.status, 429);
      assert.deepEqual(Object.keys(limited.json), ['code', 'message']);
      assert.equal(limited.json.code, 'RESOURCE_EXHAUSTED');
      const retry = Number(limited.headers.get('retry-after'));
      assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= 60, String(retry));
      assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
      // Reads, lists and removes count apart; so does another universe.
      assert.equal((await v2(e, 'GET', `${ENTRIES()}/n`)).status, 200);
      assert.equal((await v2(e, 'GET', ENTRIES())).status, 200);
      assert.equal((await v2(e, 'DELETE', `${ENTRIES()}/n`)).status, 200);
      assert.equal((await v2(e, 'POST', `${ENTRIES(U + 1)}/n:increment`, {})).status, 200);
      // Snapshot: 60 a minute per API key (1 scaled), whatever the universe.
      assert.equal((await v2(e, 'POST', `${V2()}:snapshot`, {})).status, 200);
      assert.equal((await v2(e, 'POST', `${V2(U + 1)}:snapshot`, {})).status, 429);
    });
  });

  it('grow with concurrent users: read and remove 300 + 40 x CCU, write 300 + 20 x CCU, list 300 + 2 x CCU', async () => {
    await withEmulator({ rateLimits: true, rateLimitScale: 0.01, concurrentUsers: 100 }, async (e) => {
      assert.equal(limitOf(await v2(e, 'POST', `${ENTRIES()}/n:increment`, {})), '23, 23;w=60');
      assert.equal(limitOf(await v2(e, 'GET', `${ENTRIES()}/n`)), '43, 43;w=60');
      assert.equal(limitOf(await v2(e, 'GET', ENTRIES())), '5, 5;w=60');
      assert.equal(limitOf(await v2(e, 'GET', V2())), '5, 5;w=60');
      assert.equal(limitOf(await v2(e, 'GET', `${ENTRIES()}/n:listRevisions`)), '5, 5;w=60');
      assert.equal(limitOf(await v2(e, 'DELETE', `${ENTRIES()}/n`)), '43, 43;w=60');
      // v1 keeps its fixed limits.
      assert.equal(limitOf(await call(e.url, 'GET', DS())), '3, 3;w=60');
    });
  });

  it('the control endpoint sets the figure for every universe or for one; reset restores the start figure', async () => {
    await withEmulator({ rateLimits: true, rateLimitScale: 0.01, control: true, concurrentUsers: 10 }, async (e) => {
      assert.deepEqual((await users(e)).json, { concurrentUsers: 10, universes: {} });
      assert.equal(limitOf(await v2(e, 'GET', `${ENTRIES()}/n`)), '7, 7;w=60');
      assert.deepEqual((await users(e, { concurrentUsers: 100 })).json, { concurrentUsers: 100, universes: {} });
      assert.equal(limitOf(await v2(e, 'GET', `${ENTRIES()}/n`)), '43, 43;w=60', 'at once, in the same window');
      const one = await users(e, { concurrentUsers: 1000, universe: U + 1 });
      assert.deepEqual(one.json, { concurrentUsers: 100, universes: { [U + 1]: 1000 } });
      assert.equal(limitOf(await v2(e, 'GET', `${ENTRIES(U + 1)}/n`)), '403, 403;w=60');
      assert.equal(limitOf(await v2(e, 'GET', `${ENTRIES()}/n`)), '43, 43;w=60');
      for (const bad of [{}, { concurrentUsers: -1 }, { concurrentUsers: 1.5 }, { concurrentUsers: 1, universe: 0 }]) {
        gatewayError(await users(e, bad), 400);
      }
      assert.equal((await call(e.url, 'POST', '/_emulator/reset', { key: null })).status, 200);
      assert.deepEqual((await users(e)).json, { concurrentUsers: 10, universes: {} });
    });
  });

  it('v1 and v2 draw on separate budgets (U21), and no x-ratelimit-* is sent with limits off', async () => {
    await withEmulator({ rateLimits: true, rateLimitScale: 0.01 }, async (e) => {
      for (let i = 0; i < 3; i++) await call(e.url, 'GET', DS());
      assert.equal((await call(e.url, 'GET', DS())).status, 429);
      assert.equal((await v2(e, 'GET', V2())).status, 200);
      assert.equal((await call(e.url, 'GET', ENTRY, { query: entry('S', 'k') })).status, 429, 'v1 reads share one');
    });
    await withEmulator({}, async (e) => {
      assert.equal(limitOf(await v2(e, 'GET', V2())), null);
    });
  });

  it('the --concurrent-users flag scales the v2 limits of the running CLI', async () => {
    const child = await spawnCli(['--port', '0', '--rate-limits', '--concurrent-users', '1000']);
    try {
      assert.equal(limitOf(await call(child.url, 'GET', `${ENTRIES()}/n`)), '40300, 40300;w=60');
      assert.equal(limitOf(await call(child.url, 'GET', DS())), '300, 300;w=60');
    } finally {
      child.proc.kill('SIGTERM');
      await child.exited;
    }
    const help = await runCli(['--help']);
    assert.match(help.stdout, /--concurrent-users <n>/);
    assert.match(help.stdout, /--etag-mismatch-status <n>/);
  });
});

describe('the etag mismatch setting (U1)', () => {
  const stale = async (e: RunningEmulator): Promise<Reply> => {
    const first = (await v2(e, 'POST', `${ENTRIES()}?id=k`, { value: 1 })).json.etag;
    await v2(e, 'PATCH', `${ENTRIES()}/k`, { value: 2 });
    return v2(e, 'PATCH', `${ENTRIES()}/k`, { value: 3, etag: first });
  };

  it('answers 412 or 400 FAILED_PRECONDITION instead of 409 ABORTED when asked', async () => {
    for (const [status, code] of [
      [409, 'ABORTED'],
      [412, 'FAILED_PRECONDITION'],
      [400, 'FAILED_PRECONDITION'],
    ] as const) {
      await withEmulator({ etagMismatchStatus: status }, async (e) => {
        const r = await stale(e);
        assert.equal(r.status, status, r.text);
        assert.equal(r.json.code, code);
      });
    }
    const child = await spawnCli(['--port', '0', '--etag-mismatch-status', '412']);
    try {
      const first = await call(child.url, 'POST', `${ENTRIES()}?id=k`, { body: '{"value":1}' });
      const r = await call(child.url, 'DELETE', `${ENTRIES()}/k`, { query: { etag: `${first.json.etag}0` } });
      assert.equal(r.status, 412, r.text);
    } finally {
      child.proc.kill('SIGTERM');
      await child.exited;
    }
  });
});
