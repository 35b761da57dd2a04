import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assetError, call, DS, dsError, entry, ENTRY, start, U, v2Error } from './fixtures/emulator/harness';

describe('rate limits', () => {
  it('data stores: per universe, reads and writes apart, 429 with retry-after and x-ratelimit-*', async () => {
    const emu = await start({ rateLimits: true, rateLimitScale: 0.01 }); // 300/min -> 3/min
    try {
      assert.equal((await call(emu.url, 'POST', ENTRY, { query: entry('S', 'k'), body: '1' })).status, 200);
      const remaining: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await call(emu.url, 'GET', ENTRY, { query: entry('S', 'k') });
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('x-ratelimit-limit'), '3, 3;w=60');
        remaining.push(r.headers.get('x-ratelimit-remaining')!);
        assert.ok(Number(r.headers.get('x-ratelimit-reset')) <= 60);
      }
      assert.deepEqual(remaining, ['2', '1', '0']);
      const limited = await call(emu.url, 'GET', ENTRY, { query: entry('S', 'k') });
      dsError(limited, 429, 'TooManyRequests');
      assert.equal(limited.json.error, 'RESOURCE_EXHAUSTED');
      const retry = Number(limited.headers.get('retry-after'));
      assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= 60, String(retry));
      assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
      assert.equal((await call(emu.url, 'GET', `${DS(U + 1)}`)).status, 200); // another universe
      assert.equal((await call(emu.url, 'POST', ENTRY, { query: entry('S', 'k'), body: '2' })).status, 200); // writes apart
    } finally {
      await emu.close();
    }
  });

  it('rateLimitWindowScale shortens every window: the limit opens again once the short window is over', async () => {
    const emu = await start({ rateLimits: true, rateLimitScale: 0.01, rateLimitWindowScale: 0.05 }); // 3 reads per 3 s
    try {
      assert.equal((await call(emu.url, 'POST', ENTRY, { query: entry('S', 'k'), body: '1' })).status, 200);
      for (let i = 0; i < 3; i++) {
        const r = await call(emu.url, 'GET', ENTRY, { query: entry('S', 'k') });
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('x-ratelimit-limit'), '3, 3;w=3');
        assert.ok(Number(r.headers.get('x-ratelimit-reset')) <= 3);
      }
      const limited = await call(emu.url, 'GET', ENTRY, { query: entry('S', 'k') });
      dsError(limited, 429, 'TooManyRequests');
      const retry = Number(limited.headers.get('retry-after'));
      assert.ok(retry >= 1 && retry <= 3, String(retry));
      await new Promise((r) => setTimeout(r, retry * 1000));
      const again = await call(emu.url, 'GET', ENTRY, { query: entry('S', 'k') });
      assert.equal(again.status, 200);
      assert.equal(again.headers.get('x-ratelimit-remaining'), '2');
    } finally {
      await emu.close();
    }
  });

  it('user restrictions: at most 2 updates per user per minute', async () => {
    const emu = await start({ rateLimits: true });
    try {
      const update = (user: number) =>
        call(emu.url, 'PATCH', `/cloud/v2/universes/${U}/user-restrictions/${user}`, {
          body: JSON.stringify({ gameJoinRestriction: { active: true } }),
        });
      assert.equal((await update(1)).status, 200);
      assert.equal((await update(1)).status, 200);
      const r = await update(1);
      v2Error(r, 429, 'RESOURCE_EXHAUSTED');
      assert.ok(Number(r.headers.get('retry-after')) >= 1);
      assert.equal((await update(2)).status, 200);
      assert.ok(
        (await call(emu.url, 'GET', `/cloud/v2/universes/${U}/user-restrictions/1`)).headers.get('x-ratelimit-limit'),
      );
    } finally {
      await emu.close();
    }
  });

  it('assets: per API key, 429 as {code: 8}', async () => {
    const emu = await start({ rateLimits: true, rateLimitScale: 0.01 }); // 120/min -> 1/min
    try {
      assetError(await call(emu.url, 'GET', '/assets/v1/assets/1'), 404, 5);
      const r = await call(emu.url, 'GET', '/assets/v1/assets/1');
      assetError(r, 429, 8);
      assert.ok(r.headers.get('retry-after'));
    } finally {
      await emu.close();
    }
  });

  it('sends no rate-limit headers when limits are off', async () => {
    const emu = await start();
    try {
      const r = await call(emu.url, 'GET', DS());
      assert.equal(r.headers.get('x-ratelimit-limit'), null);
    } finally {
      await emu.close();
    }
  });
});
