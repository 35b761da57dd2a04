// Faults injected into the real emulator: which calls are retried, retry-after, abort, timeout, bad shapes.
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { NetworkError, ResponseShapeError, ServerError, TimeoutError } from '../../src/api';
import { API_KEY, makeClient, rejection } from './support/client';
import { sharedEmulator, TestEmulator } from './support/emulator';

const U = 31;
const entry = { universeId: U, datastoreName: 'S', entryKey: 'k' };
const ENTRY_PATH = '/standard-datastores/datastore/entries/entry';
const unavailable = { status: 503, body: '{"error":"UNAVAILABLE","message":"down for a moment"}' };
const shared = sharedEmulator();
beforeEach(async () => {
  await shared.client.datastores.setEntry({ ...entry, value: 1 });
});

describe('retries against the emulator', () => {
  it('a GET answered 503 is retried and succeeds', async () => {
    await shared.emulator.fault({ method: 'GET', path: ENTRY_PATH, ...unavailable });
    assert.equal((await shared.client.datastores.getEntry(entry)).value, 1);
    assert.deepEqual(
      (await shared.emulator.requests({ method: 'GET', path: ENTRY_PATH })).map((r) => r.status),
      [503, 200],
    );
  });

  it('a 429 is retried after the retry-after pause, not before', async () => {
    await shared.emulator.fault({
      method: 'GET',
      path: ENTRY_PATH,
      status: 429,
      headers: { 'retry-after': '1' },
      body: '{"error":"RESOURCE_EXHAUSTED","message":"slow"}',
    });
    const started = Date.now();
    await shared.client.datastores.getEntry(entry);
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 1000, `retried after ${elapsed} ms`);
    assert.ok(elapsed < 10_000);
  });

  const once: [string, string, string, () => Promise<unknown>][] = [
    [
      'increment',
      'POST',
      '/entry/increment',
      () => shared.client.datastores.incrementEntry({ ...entry, incrementBy: 1 }),
    ],
    ['set without matchVersion', 'POST', ENTRY_PATH, () => shared.client.datastores.setEntry({ ...entry, value: 2 })],
    [
      'asset create',
      'POST',
      '/assets/v1/assets',
      () =>
        shared.client.assets.create({
          request: {
            assetType: 'Model',
            displayName: 'x',
            description: '',
            creationContext: { creator: { userId: 1001 } },
          },
          file: { path: __filename, contentType: 'model/fbx', filename: 'x.fbx' },
        }),
    ],
  ];
  for (const [name, method, path, call] of once) {
    it(`${name} answered 503 is not repeated`, async () => {
      const before = (await shared.emulator.requests({ method, path })).length;
      await shared.emulator.fault({ method, path, ...unavailable });
      const err = await rejection(call);
      assert.ok(err instanceof ServerError, String(err));
      assert.equal(err.status, 503);
      assert.equal((await shared.emulator.requests({ method, path })).length - before, 1);
    });
  }

  it('a set with matchVersion answered 503 is retried', async () => {
    const { version } = await shared.client.datastores.getEntry(entry);
    await shared.emulator.fault({ method: 'POST', path: ENTRY_PATH, ...unavailable, times: 2 });
    const v = await shared.client.datastores.setEntry({ ...entry, value: 3, matchVersion: version });
    assert.notEqual(v.version, version);
    assert.deepEqual(
      (await shared.emulator.requests({ method: 'POST', path: ENTRY_PATH })).map((r) => r.status).slice(-3),
      [503, 503, 200],
    );
  });
});

describe('abort, timeout, connection and shape faults against the emulator', () => {
  it('abort cancels a delayed request in flight', async () => {
    await shared.emulator.fault({ method: 'GET', path: ENTRY_PATH, delayMs: 3_000 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const started = Date.now();
    const err = await rejection(() => shared.client.datastores.getEntry(entry, { signal: ac.signal }));
    assert.equal(err.name, 'AbortError');
    assert.ok(Date.now() - started < 2_000);
  });

  it('abort during the backoff after a 503', async () => {
    await shared.emulator.fault({ method: 'GET', path: ENTRY_PATH, ...unavailable, headers: { 'retry-after': '20' } });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const started = Date.now();
    const err = await rejection(() => shared.client.datastores.getEntry(entry, { signal: ac.signal }));
    assert.equal(err.name, 'AbortError');
    assert.ok(Date.now() - started < 5_000);
    assert.equal((await shared.emulator.requests({ method: 'GET', path: ENTRY_PATH })).length, 1);
  });

  it('a delayed answer past the timeout is a TimeoutError', async () => {
    const quick = makeClient(shared.emulator.url, { timeoutMs: 300 }).client;
    try {
      await shared.emulator.fault({ method: 'GET', path: ENTRY_PATH, delayMs: 3_000 });
      const err = await rejection(() => quick.datastores.getEntry(entry));
      assert.ok(err instanceof TimeoutError, String(err));
    } finally {
      await quick.close();
    }
  });

  it('a 200 with a bad body is a ResponseShapeError naming the field', async () => {
    await shared.emulator.fault({
      method: 'GET',
      path: '/standard-datastores',
      status: 200,
      body: '{"datastores":[{"name":42}],"nextPageCursor":""}',
    });
    const err = await rejection(() => shared.client.datastores.listDataStores({ universeId: U }));
    assert.ok(err instanceof ResponseShapeError, String(err));
    assert.equal(err.field, 'datastores[0].name');
    assert.match(err.message, /datastores\[0\]\.name: expected string/);
  });

  it('a stopped shared.emulator gives a NetworkError', async () => {
    const gone = await TestEmulator.start({ apiKeys: [{ key: API_KEY }] });
    const lonely = makeClient(gone.url, { retry: { maxAttempts: 2, baseDelayMs: 5 } }).client;
    await gone.close();
    try {
      const err = await rejection(() => lonely.datastores.getEntry(entry));
      assert.ok(err instanceof NetworkError, String(err));
    } finally {
      await lonely.close();
    }
  });

  it('rate limit headers of the shared.emulator are exposed', async () => {
    const limited = await TestEmulator.start({ apiKeys: [{ key: API_KEY }], rateLimits: true });
    const c = makeClient(limited.url).client;
    try {
      await c.datastores.listDataStores({ universeId: U });
      const rl = c.rateLimit;
      assert.ok(rl, 'x-ratelimit-* headers seen');
      assert.equal(typeof rl.remaining, 'number');
    } finally {
      await c.close();
      await limited.close();
    }
  });
});
