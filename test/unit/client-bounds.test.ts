// Bounds on what the service sends (hostile loopback servers): body size, whole-answer deadline, message length and
// characters, empty pages without end, user ids a double cannot hold.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  InvalidArgumentError,
  ResponseShapeError,
  ResponseTooLargeError,
  TimeoutError,
  type OpenApiClient,
} from '../../src/api';
import { rejection } from './support/client';
import { sendJson } from './support/fixture';
import { perTestClient } from './support/perTest';
import { drip, sendLazily } from './support/hostile';

const ENTRY = { universeId: 5, datastoreName: 'store', entryKey: 'k' };
const MiB = 1024 * 1024;
const entryHeaders = { 'platform-entry-version': 'v1', 'content-type': 'application/json' };
const t = perTestClient();
const setup = t.setup;

describe('answer size', () => {
  for (const [name, limit, call, headers] of [
    ['an entry read', 4.5 * MiB, (c: OpenApiClient) => c.datastores.getEntry(ENTRY), entryHeaders],
    ['any other call', 16 * MiB, (c: OpenApiClient) => c.datastores.listDataStores({ universeId: 5 }), {}],
  ] as const) {
    it(`${name}: a 256 MiB body sent as fast as it is read stops at ${limit / MiB} MiB, without reading the rest`, async () => {
      let sent: Promise<number> | undefined;
      const { client } = await setup((_r, res) => {
        sent = sendLazily(res, 256 * MiB, { ...headers, 'transfer-encoding': 'chunked' });
      });
      const rss = process.memoryUsage().rss;
      const err = await rejection(() => call(client));
      assert.ok(err instanceof ResponseTooLargeError, String(err));
      assert.match(err.message, new RegExp(`larger than ${limit / MiB} MiB`));
      const bytes = await sent!;
      assert.ok(bytes < limit + 32 * MiB, `${Math.round(bytes / MiB)} MiB sent before the client stopped`);
      assert.ok(process.memoryUsage().rss - rss < 128 * MiB, 'memory did not grow by anything near 256 MiB');
    });
  }

  it('a content-length over the limit is refused before the body is read', async () => {
    let sent: Promise<number> | undefined;
    const { client } = await setup((_r, res) => {
      sent = sendLazily(res, 256 * MiB, { ...entryHeaders, 'content-length': String(256 * MiB) });
    });
    const err = await rejection(() => client.datastores.getEntry(ENTRY));
    assert.ok(err instanceof ResponseTooLargeError, String(err));
    assert.ok((await sent!) < 32 * MiB);
  });

  it('an entry of 4 MiB and a list of 10 MiB are read whole', async () => {
    const value = `"${'v'.repeat(4 * MiB - 2)}"`;
    const list = { datastores: Array.from({ length: 100_000 }, (_, i) => ({ name: `${'n'.repeat(90)}${i}` })) };
    const { client } = await setup((_r, res, i) =>
      i === 0 ? sendJson(res, 200, JSON.parse(value), entryHeaders) : sendJson(res, 200, list),
    );
    assert.equal((await client.datastores.getEntry(ENTRY)).raw.length, 4 * MiB);
    assert.equal((await client.datastores.listDataStores({ universeId: 5 })).items.length, 100_000);
  });
});

describe('deadline', () => {
  it('an answer that drips one byte at a time ends at the timeout with a TimeoutError', async () => {
    await setup((_r, res) => drip(res, JSON.stringify({ datastores: [] }), {}, 200), { timeoutMs: 1000 });
    const started = Date.now();
    const err = await rejection(() => t.client.datastores.listDataStores({ universeId: 5 }));
    assert.ok(err instanceof TimeoutError, String(err));
    const took = Date.now() - started;
    assert.ok(took >= 900 && took < 2500, `ended after ${took} ms`);
  });

  it('the caller can still cancel a dripping answer at once', async () => {
    await setup((_r, res) => drip(res, JSON.stringify({ datastores: [] }), {}, 200), { timeoutMs: 10_000 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const started = Date.now();
    const err = await rejection(() => t.client.datastores.listDataStores({ universeId: 5 }, { signal: ac.signal }));
    assert.equal(err.name, 'AbortError');
    assert.ok(Date.now() - started < 1500);
  });
});

describe('service text in errors and logs', () => {
  const forged = `bad\n2024-01-01 [info] GET /all ok\r\u2028\u202e${'z'.repeat(10_000)}`;

  it('a message is cut to a few hundred characters and kept on one line, in the error and the log', async () => {
    const { logs } = await setup((_r, res) => sendJson(res, 400, { code: 'BAD\nCODE', message: forged }));
    const err = await rejection(() => t.client.datastores.getEntry(ENTRY));
    assert.ok(err instanceof InvalidArgumentError, String(err));
    assert.match(err.message, /^bad 2024-01-01 \[info\] GET \/all ok {3}z{264}… \(400 BAD CODE\)$/);
    assert.equal(err.code, 'BAD CODE');
    assert.equal(logs.length, 1);
    assert.equal(logs[0].error, undefined, 'an answer is logged with its status, not its text');
  });

  it('a plain-text body and a network error are cut the same way', async () => {
    const { fixture, logs } = await setup(
      (_r, res) => res.writeHead(502, { 'content-type': 'text/plain' }).end(forged),
      {
        retry: { maxAttempts: 1 },
      },
    );
    const err = await rejection(() => t.client.datastores.getEntry(ENTRY));
    assert.match(err.message, /^bad 2024-01-01 \[info\] GET \/all ok {3}z{264}… \(502\)$/);
    await fixture.close();
    await rejection(() => t.client.datastores.getEntry(ENTRY));
    assert.ok(logs.every((l) => !/[\n\r]/.test(l.error ?? '') && (l.error ?? '').length < 420));
  });
});

describe('paging', () => {
  it('stops after 20 empty pages in a row, each with a new cursor', async () => {
    const { fixture } = await setup((_r, res, i) => sendJson(res, 200, { keys: [], nextPageCursor: `c${i}` }));
    const err = await rejection(async () => {
      for await (const k of t.client.datastores.listEntries(ENTRY)) assert.fail(`unexpected ${k.key}`);
    });
    assert.ok(err instanceof ResponseShapeError, String(err));
    assert.equal(err.field, 'nextPageCursor');
    assert.match(err.message, /returned 20 empty pages in a row; stopped/);
    assert.equal(fixture.seen.length, 20);
  });

  it('19 empty pages, then keys, are read through', async () => {
    await setup((_r, res, i) =>
      sendJson(res, 200, i < 19 ? { keys: [], nextPageCursor: `c${i}` } : { keys: [{ key: 'found' }] }),
    );
    const keys = [];
    for await (const k of t.client.datastores.listEntries(ENTRY)) keys.push(k.key);
    assert.deepEqual(keys, ['found']);
  });
});
