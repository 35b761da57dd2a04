// The transport against tiny loopback servers: retries, retry-after, abort, timeouts, typed errors, logs.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { createServer } from 'node:net';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import {
  ApiError,
  AuthError,
  ConflictError,
  InvalidArgumentError,
  NetworkError,
  NotFoundError,
  PermissionDeniedError,
  PreconditionFailedError,
  RateLimitedError,
  ResponseShapeError,
  ServerError,
  TimeoutError,
  type OpenApiClient,
} from '../../src/api';
import { API_KEY, everything, makeClient, rejection, until } from './support/client';
import { sendJson } from './support/fixture';
import { perTestClient } from './support/perTest';

const U = 1234;
const ENTRY = { universeId: U, datastoreName: 'store', entryKey: 'k' };
const t = perTestClient();
const setup = t.setup;

const entryHeaders = { 'platform-entry-version': 'v1', 'content-type': 'application/json' };
const okEntry = (res: import('node:http').ServerResponse) => sendJson(res, 200, { a: 1 }, entryHeaders);
const unavailable = (res: import('node:http').ServerResponse) =>
  sendJson(res, 503, { code: 'UNAVAILABLE', message: 'down' });

describe('retries', () => {
  it('retries a GET on 429 only after the retry-after pause (seconds)', async () => {
    const { fixture, client } = await setup((_r, res, i) =>
      i === 0 ? sendJson(res, 429, { message: 'slow down' }, { 'retry-after': '1' }) : okEntry(res),
    );
    const entry = await client.datastores.getEntry(ENTRY);
    assert.deepEqual(entry.value, { a: 1 });
    assert.equal(fixture.seen.length, 2);
    const pause = fixture.seen[1].at - fixture.seen[0].at;
    assert.ok(pause >= 1000, `retried after ${pause} ms`);
    assert.ok(pause < 10_000);
  });

  it('honours retry-after as an HTTP date', async () => {
    let until = 0;
    const { fixture, client } = await setup((_r, res, i) => {
      if (i > 0) return okEntry(res);
      const date = new Date(Date.now() + 2000).toUTCString();
      until = Date.parse(date);
      sendJson(res, 429, { message: 'slow down' }, { 'retry-after': date });
    });
    await client.datastores.getEntry(ENTRY);
    assert.equal(fixture.seen.length, 2);
    assert.ok(fixture.seen[1].at >= until, 'second attempt came before the date');
    assert.ok(fixture.seen[1].at - until < 10_000);
  });

  it('retries a GET on 500, 502, 503 and 504', async () => {
    const statuses = [500, 502, 503, 504];
    const { fixture, client } = await setup(
      (_r, res, i) => (i < statuses.length ? sendJson(res, statuses[i], { message: 'x' }) : okEntry(res)),
      { retry: { maxAttempts: 5, baseDelayMs: 5, maxDelayMs: 20 } },
    );
    await client.datastores.getEntry(ENTRY);
    assert.equal(fixture.seen.length, 5);
  });

  it('gives up after maxAttempts with a ServerError', async () => {
    const { fixture, client, logs } = await setup((_r, res) => unavailable(res));
    const err = await rejection(() => client.datastores.getEntry(ENTRY));
    assert.ok(err instanceof ServerError);
    assert.equal(err.status, 503);
    assert.equal(fixture.seen.length, 4);
    assert.deepEqual(
      logs.map((l) => l.attempt),
      [1, 2, 3, 4],
    );
  });

  for (const [name, call] of [
    ['increment', (c: OpenApiClient) => c.datastores.incrementEntry({ ...ENTRY, incrementBy: 1 })],
    ['set without matchVersion', (c: OpenApiClient) => c.datastores.setEntry({ ...ENTRY, value: 1 })],
    [
      'asset create',
      (c: OpenApiClient) =>
        c.assets.create({
          request: {
            assetType: 'Model',
            displayName: 'x',
            description: '',
            creationContext: { creator: { userId: 1 } },
          },
          file: { stream: Readable.from([Buffer.from('abc')]), contentType: 'model/fbx', filename: 'a.fbx' },
        }),
    ],
    [
      'asset update with a file',
      (c: OpenApiClient) =>
        c.assets.update({
          assetId: 5,
          request: {},
          file: { stream: Readable.from([Buffer.from('x')]), contentType: 'model/fbx', filename: 'a.fbx' },
        }),
    ],
  ] as const) {
    it(`never repeats ${name} on 503`, async () => {
      const { fixture, client } = await setup((_r, res) => unavailable(res));
      const err = await rejection(() => call(client));
      assert.ok(err instanceof ServerError, String(err));
      assert.equal(fixture.seen.length, 1);
    });
  }

  it('repeats a rollback only after an answer that says it was not applied: 429, or 503 with retry-after', async () => {
    const version = { path: 'assets/1/versions/3' };
    const answers = [
      (res: import('node:http').ServerResponse) => sendJson(res, 500, { message: 'boom' }),
      (res: import('node:http').ServerResponse) => sendJson(res, 503, { message: 'no retry-after' }),
      (res: import('node:http').ServerResponse) => res.socket?.destroy(),
      (res: import('node:http').ServerResponse) => sendJson(res, 429, { message: 'slow' }, { 'retry-after': '0' }),
      (res: import('node:http').ServerResponse) => sendJson(res, 503, { message: 'later' }, { 'retry-after': '0' }),
      (res: import('node:http').ServerResponse) => sendJson(res, 200, version),
    ];
    const { fixture, client } = await setup((_r, res, i) => answers[i](res));
    await assert.rejects(client.assets.rollback({ assetId: 1, versionNumber: 1 }), ServerError);
    await assert.rejects(client.assets.rollback({ assetId: 1, versionNumber: 1 }), ServerError);
    await assert.rejects(client.assets.rollback({ assetId: 1, versionNumber: 1 }), NetworkError);
    assert.equal(fixture.seen.length, 3, 'a 500, a 503 without retry-after and a lost connection are not repeated');
    const rolled = await client.assets.rollback({ assetId: 1, versionNumber: 1 });
    assert.equal(rolled.versionNumber, '3');
    assert.equal(fixture.seen.length, 6);
  });

  it('retries a set with matchVersion', async () => {
    const { fixture, client } = await setup((_r, res, i) =>
      i === 0
        ? unavailable(res)
        : sendJson(res, 200, { version: 'v2', deleted: false, contentLength: 1, createdTime: 't' }),
    );
    const v = await client.datastores.setEntry({ ...ENTRY, value: 1, matchVersion: 'v1' });
    assert.equal(v.version, 'v2');
    assert.equal(fixture.seen.length, 2);
  });

  it('retries a restriction PATCH with the same idempotency key and firstSent', async () => {
    const body = { path: 'universes/1/user-restrictions/2', user: 'users/2', gameJoinRestriction: { active: true } };
    const { fixture, client } = await setup((_r, res, i) => (i < 2 ? unavailable(res) : sendJson(res, 200, body)));
    await client.restrictions.update({ universeId: 1, userId: 2, gameJoinRestriction: { active: true } });
    assert.equal(fixture.seen.length, 3);
    const params = fixture.seen.map((s) => new URL(s.url, 'http://x').searchParams);
    const key = params[0].get('idempotencyKey.key');
    const firstSent = params[0].get('idempotencyKey.firstSent');
    assert.match(key ?? '', /^[0-9a-f-]{36}$/);
    assert.ok(!Number.isNaN(Date.parse(firstSent ?? '')) && /Z$/.test(firstSent ?? ''));
    for (const p of params) {
      assert.equal(p.get('idempotencyKey.key'), key);
      assert.equal(p.get('idempotencyKey.firstSent'), firstSent);
    }
    await client.restrictions.update({ universeId: 1, userId: 2, gameJoinRestriction: { active: true } });
    const next = new URL(fixture.seen[3].url, 'http://x').searchParams.get('idempotencyKey.key');
    assert.notEqual(next, key, 'each logical call gets its own key');
  });

  it('retries a GET after a dropped connection but not an increment', async () => {
    const { fixture, client } = await setup((_r, res, i) => {
      if (i === 0 || i === 2) res.socket?.destroy();
      else okEntry(res);
    });
    await client.datastores.getEntry(ENTRY);
    assert.equal(fixture.seen.length, 2);
    const err = await rejection(() => client.datastores.incrementEntry({ ...ENTRY, incrementBy: 1 }));
    assert.ok(err instanceof NetworkError, String(err));
    assert.equal(fixture.seen.length, 3);
  });
});

describe('connection failures, timeouts and abort', () => {
  it('connection refused gives a NetworkError', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
    const made = makeClient(`http://127.0.0.1:${port}`);
    t.keep(made.client);
    const err = await rejection(() => t.client.datastores.getEntry(ENTRY));
    assert.ok(err instanceof NetworkError);
    assert.equal(err.code, 'ECONNREFUSED');
    assert.equal(made.logs.length, 4, 'refused connections are retried for GETs');
  });

  it('a server that does not answer gives a TimeoutError', async () => {
    await setup(() => undefined, { timeoutMs: 300 });
    const started = Date.now();
    const err = await rejection(() => t.client.datastores.getEntry(ENTRY));
    assert.ok(err instanceof TimeoutError, String(err));
    assert.ok(Date.now() - started < 10_000);
  });

  it('abort cancels a request in flight with an AbortError', async () => {
    const { fixture } = await setup(() => undefined);
    const ac = new AbortController();
    const started = Date.now();
    const failed = rejection(() => t.client.datastores.getEntry(ENTRY, { signal: ac.signal }));
    // Abort once the server holds the request (a timer could fire before it arrives on a busy machine).
    await until(() => fixture.seen.length === 1);
    ac.abort();
    const err = await failed;
    assert.equal(err.name, 'AbortError');
    assert.ok(Date.now() - started < 5_000);
    assert.equal(fixture.seen.length, 1);
  });

  it('abort stops a backoff sleep at once', async () => {
    const { fixture } = await setup((_r, res) => sendJson(res, 503, { message: 'x' }, { 'retry-after': '30' }));
    const ac = new AbortController();
    const started = Date.now();
    const failed = rejection(() => t.client.datastores.getEntry(ENTRY, { signal: ac.signal }));
    await until(() => fixture.seen.length === 1);
    setTimeout(() => ac.abort(), 200); // the client is sleeping for retry-after by then
    const err = await failed;
    assert.equal(err.name, 'AbortError');
    assert.ok(Date.now() - started < 5_000);
    assert.equal(fixture.seen.length, 1);
  });

  it('abort cancels while the body is streaming', async () => {
    await setup((_r, res) => {
      res.writeHead(200, { ...entryHeaders, 'content-length': '1000' });
      res.write('{"a":');
    });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const err = await rejection(() => t.client.datastores.getEntry(ENTRY, { signal: ac.signal }));
    assert.equal(err.name, 'AbortError');
  });

  it('one signal for many requests: one listener on it, and an abort cancels every request in flight', async () => {
    const { fixture } = await setup(() => undefined);
    const ac = new AbortController();
    const calls = Array.from({ length: 20 }, (_, i) =>
      rejection(() => t.client.datastores.getEntry({ ...ENTRY, entryKey: `k${i}` }, { signal: ac.signal })),
    );
    await until(() => fixture.seen.length === 16); // the transport's connections per origin
    assert.equal(getEventListeners(ac.signal, 'abort').length, 1);
    ac.abort();
    for (const err of await Promise.all(calls)) assert.equal(err.name, 'AbortError');
  });

  it('a signal that outlives its requests keeps no listener per request', async () => {
    await setup((_r, res) => okEntry(res));
    const ac = new AbortController();
    for (let i = 0; i < 30; i++) await t.client.datastores.getEntry(ENTRY, { signal: ac.signal });
    assert.ok(getEventListeners(ac.signal, 'abort').length <= 1);
  });

  it('an already aborted signal sends nothing', async () => {
    const { fixture } = await setup((_r, res) => okEntry(res));
    const err = await rejection(() => t.client.datastores.getEntry(ENTRY, { signal: AbortSignal.abort() }));
    assert.equal(err.name, 'AbortError');
    assert.equal(fixture.seen.length, 0);
  });
});

describe('typed errors from every body family', () => {
  const cases: [string, number, unknown, abstract new (...args: never[]) => Error, string | undefined, RegExp][] = [
    [
      'data stores',
      404,
      {
        error: 'NOT_FOUND',
        message: 'Entry not found in the datastore.',
        errorDetails: [{ errorDetailType: 'DatastoreErrorInfo', datastoreErrorCode: 'EntryNotFound' }],
      },
      NotFoundError,
      'EntryNotFound',
      /^Entry not found in the datastore\. \(404 EntryNotFound\)$/,
    ],
    [
      'cloud v2',
      400,
      { code: 'INVALID_ARGUMENT', message: 'Invalid User ID in the request.', details: [] },
      InvalidArgumentError,
      'INVALID_ARGUMENT',
      /Invalid User ID/,
    ],
    [
      'gateway',
      401,
      { errors: [{ code: 0, message: 'Invalid API Key' }] },
      AuthError,
      '0',
      /Invalid API Key \(401 0\)/,
    ],
    ['assets', 403, { code: 7, message: 'Not allowed' }, PermissionDeniedError, '7', /Not allowed \(403 7\)/],
    [
      'cloud v2 conflict',
      409,
      { code: 'ABORTED', message: 'Aborted.' },
      ConflictError,
      'ABORTED',
      /^Aborted\. \(409 ABORTED\)$/,
    ],
    ['an unmapped status', 418, { message: 'teapot' }, ApiError, undefined, /^teapot \(418\)$/],
    [
      'ASP.NET validation',
      400,
      {
        errors: { Request: ['The request field is required.'] },
        title: 'One or more validation errors occurred.',
        status: 400,
      },
      InvalidArgumentError,
      undefined,
      /validation errors occurred\. Request: The request field is required\. \(400\)/,
    ],
  ];
  for (const [family, status, body, Class, code, message] of cases) {
    it(family, async () => {
      await setup((_r, res) => sendJson(res, status, body));
      const err = await rejection(() => t.client.datastores.getEntry(ENTRY));
      assert.ok(err instanceof Class, String(err));
      assert.equal((err as ServerError).status, status);
      assert.equal((err as ServerError).code, code);
      assert.match(err.message, message);
    });
  }

  it('a body that is not JSON', async () => {
    await setup(
      (_r, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html>Bad gateway</html>');
      },
      { retry: { maxAttempts: 1 } },
    );
    const err = await rejection(() => t.client.datastores.getEntry(ENTRY));
    assert.ok(err instanceof ServerError);
    assert.match(err.message, /Bad gateway.*\(502\)/);
  });

  it('429 without retry-after backs off and ends in RateLimitedError', async () => {
    const { fixture } = await setup((_r, res) => sendJson(res, 429, { code: 'RESOURCE_EXHAUSTED', message: 'quota' }));
    const err = await rejection(() => t.client.datastores.getEntry(ENTRY));
    assert.ok(err instanceof RateLimitedError);
    assert.equal(fixture.seen.length, 4);
  });

  it('entry metadata: user ids sent as strings are read as numbers', async () => {
    await setup((_r, res) =>
      sendJson(res, 200, 1, {
        ...entryHeaders,
        'platform-entry-userids': '["12", 34]',
        'platform-entry-attributes': '{"a":[1]}',
      }),
    );
    const entry = await t.client.datastores.getEntry(ENTRY);
    assert.deepEqual([entry.userIds, entry.attributes], [[12, 34], { a: [1] }]);
  });

  for (const [name, value] of [
    ['platform-entry-attributes', '[1,2]'],
    ['platform-entry-attributes', '"text"'],
    ['platform-entry-userids', '{"a":1}'],
    ['platform-entry-userids', '[true]'],
    ['platform-entry-userids', '[1,'],
    ['platform-entry-userids', '[1e400]'],
    ['platform-entry-userids', '[9007199254740993]'],
    ['platform-entry-userids', '["99999999999999999999"]'],
  ]) {
    it(`a ${name} header of ${value} is a ResponseShapeError naming the header`, async () => {
      await setup((_r, res) => sendJson(res, 200, 1, { ...entryHeaders, [name]: value }));
      const err = await rejection(() => t.client.datastores.getEntry(ENTRY));
      assert.ok(err instanceof ResponseShapeError, String(err));
      assert.match(err.message, new RegExp(`header ${name}`));
    });
  }

  it('412 carries the current entry metadata (with a custom header prefix)', async () => {
    await setup(
      (_r, res) =>
        sendJson(res, 412, 'current', {
          'acme-entry-version': 'v9',
          'acme-entry-created-time': '2024-01-01T00:00:00Z',
          'acme-entry-version-created-time': '2024-01-02T00:00:00Z',
          'acme-entry-attributes': '{"a":1}',
          'acme-entry-userids': '[1, 2]',
        }),
      { entryHeaderPrefix: 'acme' },
    );
    const err = await rejection(() => t.client.datastores.setEntry({ ...ENTRY, value: 1, matchVersion: 'v1' }));
    assert.ok(err instanceof PreconditionFailedError);
    assert.match(
      err.message,
      /^The entry has changed or already exists .*\(412\)$/,
      'the current value in the body is no message',
    );
    assert.deepEqual(err.current, {
      version: 'v9',
      createdTime: '2024-01-01T00:00:00Z',
      versionCreatedTime: '2024-01-02T00:00:00Z',
      attributes: { a: 1 },
      userIds: [1, 2],
      contentMd5: undefined,
    });
  });
});

describe('rate limits, logs and the API key', () => {
  it('exposes the latest x-ratelimit-* figures', async () => {
    await setup((_r, res) =>
      sendJson(
        res,
        200,
        { datastores: [] },
        { 'x-ratelimit-limit': '300, 300;w=60', 'x-ratelimit-remaining': '299', 'x-ratelimit-reset': '42' },
      ),
    );
    const before = t.client.rateLimit;
    assert.equal(before, undefined);
    await t.client.datastores.listDataStores({ universeId: U });
    const after = t.client.rateLimit;
    assert.equal(after?.limit, '300, 300;w=60');
    assert.equal(after?.remaining, 299);
    assert.equal(after?.resetSeconds, 42);
    assert.ok(after!.at <= Date.now());
  });

  it('logs method, path without query values, status, ms and attempt', async () => {
    const { logs } = await setup((_r, res, i) => (i === 0 ? unavailable(res) : okEntry(res)));
    await t.client.datastores.getEntry({ ...ENTRY, entryKey: 'private-key-name' });
    assert.equal(logs.length, 2);
    assert.deepEqual(
      logs.map(({ method, path, status, attempt }) => ({ method, path, status, attempt })),
      [1, 2].map((attempt, i) => ({
        method: 'GET',
        path: `/datastores/v1/universes/${U}/standard-datastores/datastore/entries/entry?datastoreName&entryKey`,
        status: i === 0 ? 503 : 200,
        attempt,
      })),
    );
    assert.ok(logs.every((l) => typeof l.ms === 'number' && l.ms >= 0));
    assert.ok(!JSON.stringify(logs).includes('private-key-name'));
  });

  it('never puts the API key in an error, its properties or a log line', async () => {
    const echo = `Invalid API Key ${API_KEY}`;
    const { logs, fixture } = await setup((r, res) => {
      assert.equal(r.headers['x-api-key'], API_KEY);
      sendJson(res, 401, { errors: [{ code: API_KEY, message: echo }], detail: API_KEY });
    });
    const errors = [await rejection(() => t.client.datastores.getEntry(ENTRY))];
    await fixture.close();
    errors.push(await rejection(() => t.client.datastores.getEntry(ENTRY)));
    assert.ok(errors[0] instanceof AuthError);
    assert.ok(errors[1] instanceof NetworkError);
    for (const err of errors) assert.ok(!everything(err).includes(API_KEY), everything(err));
    assert.ok(logs.length >= 2);
    assert.ok(!everything(logs).includes(API_KEY));
  });
});
