import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/server';
import { call, DS, entry, ENTRY, gatewayError, start } from './fixtures/emulator/harness';

let emu: RunningEmulator;
before(async () => {
  emu = await start({ control: true, seed: 'demo' });
});
after(() => emu.close());

const control = (method: string, path: string, body?: unknown) =>
  call(emu.url, method, `/_emulator/${path}`, {
    key: null,
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('control endpoints', () => {
  it('injects faults for matching requests, the given number of times', async () => {
    assert.equal(
      (
        await control('POST', 'faults', {
          method: 'get',
          path: '/entry',
          status: 503,
          headers: { 'retry-after': '1' },
          body: 'down',
          times: 2,
        })
      ).status,
      200,
    );
    for (let i = 0; i < 2; i++) {
      const r = await call(emu.url, 'GET', ENTRY, { query: entry('Settings', 'GameConfig') });
      assert.equal(r.status, 503);
      assert.equal(r.text, 'down');
      assert.equal(r.headers.get('retry-after'), '1');
    }
    assert.equal((await call(emu.url, 'GET', ENTRY, { query: entry('Settings', 'GameConfig') })).status, 200);
    await control('POST', 'faults', { path: '/entry', status: 500 });
    assert.equal((await call(emu.url, 'POST', `${ENTRY}/increment`, { query: entry('Leaderboard', 'x') })).status, 500);
  });

  it('a fault with a query applies only to requests whose query string contains it (one entry)', async () => {
    await control('POST', 'faults', { path: '/entry', query: 'entryKey=GameConfig', status: 200, body: 'plain text' });
    const other = await call(emu.url, 'GET', ENTRY, { query: entry('Settings', 'Other') });
    assert.notEqual(other.text, 'plain text');
    const r = await call(emu.url, 'GET', ENTRY, { query: entry('Settings', 'GameConfig') });
    assert.equal(r.text, 'plain text');
  });

  it('delays requests and then handles them', async () => {
    await control('POST', 'faults', { path: 'standard-datastores', delayMs: 150 });
    const t = Date.now();
    const r = await call(emu.url, 'GET', DS());
    assert.equal(r.status, 200);
    assert.ok(Date.now() - t >= 140);
  });

  it('clears faults', async () => {
    await control('POST', 'faults', { status: 418, times: 5 });
    await control('DELETE', 'faults');
    assert.equal((await call(emu.url, 'GET', DS())).status, 200);
  });

  it('refuses bad faults', async () => {
    for (const bad of [
      {},
      { status: 99 },
      { status: 500, times: 0 },
      { status: 500, headers: { 'bad name': 'x' } },
      { delayMs: -1 },
      { status: 500, query: 1 },
      'x',
    ]) {
      gatewayError(await control('POST', 'faults', bad), 400);
    }
    gatewayError(await control('GET', 'nothing'), 404);
  });

  it('logs requests (path and status); reset wipes them and every change, and brings the seed back', async () => {
    assert.equal((await call(emu.url, 'DELETE', ENTRY, { query: entry('Settings', 'GameConfig') })).status, 204);
    await control('POST', 'reset');
    await call(emu.url, 'GET', ENTRY, { query: entry('Settings', 'NoSuchKey') });
    await call(emu.url, 'GET', '/nope');
    const { requests } = (await control('GET', 'requests')).json;
    assert.deepEqual(
      requests.map((r: { method: string; path: string; status: number }) => [r.method, r.path, r.status]),
      [
        ['GET', ENTRY, 404],
        ['GET', '/nope', 404],
      ],
    );
    assert.match(requests[0].query, /entryKey=NoSuchKey/);
    assert.equal((await call(emu.url, 'GET', ENTRY, { query: entry('Settings', 'GameConfig') })).status, 200);
  });

  it('is absent unless enabled', async () => {
    const plain = await start();
    try {
      gatewayError(await call(plain.url, 'POST', '/_emulator/reset', { key: null }), 404);
    } finally {
      await plain.close();
    }
  });
});
