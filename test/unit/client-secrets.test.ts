// The API key: never in an error, its properties or a log line, whatever form the service echoes it in; never sent
// in clear to another machine. And the entry header prefix, read whatever its case.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { OpenApiClient, PreconditionFailedError, type LogEvent } from '../../src/api';
import { everything, makeClient, rejection } from './support/client';
import { TestEmulator } from './support/emulator';
import { sendJson } from './support/fixture';
import { perTestClient } from './support/perTest';

/** A key with characters that percent-encoding and JSON escaping both change. */
const KEY = 'Zq8v/Xk3+Pw9"Ls2\\Rt7=Hn4 Ym6?Gd1&Jc5';
const FORMS = [KEY, encodeURIComponent(KEY), JSON.stringify(KEY).slice(1, -1)];
const ENTRY = { universeId: 9, datastoreName: 'store', entryKey: 'k' };

/** The first run of 8 characters of any form of the key found in `text`. */
function leak(text: string): string | undefined {
  for (const form of FORMS) {
    for (let i = 0; i + 8 <= form.length; i++) if (text.includes(form.slice(i, i + 8))) return form.slice(i, i + 8);
  }
  return undefined;
}

const t = perTestClient();

describe('the API key', () => {
  it('nothing of it, whole, cut, percent-encoded or JSON-escaped, reaches errors, their properties or the log', async () => {
    const pieces = [
      KEY.slice(0, 11),
      KEY.slice(9, 30),
      encodeURIComponent(KEY),
      JSON.stringify(KEY),
      `${'x'.repeat(290)}${KEY}`, // across the point where messages are cut
    ];
    const answers: ((res: ServerResponse) => void)[] = [
      (res) => sendJson(res, 400, { code: KEY.slice(3, 14), message: `bad key ${pieces.join(' ; ')}` }),
      (res) => sendJson(res, 401, { errors: pieces.map((p) => ({ code: p, message: `Invalid API Key ${p}` })) }),
      (res) => res.writeHead(403, { 'content-type': 'text/plain' }).end(`denied for ${JSON.stringify(KEY)}`),
      (res) => sendJson(res, 404, { error: 'NOT_FOUND', message: pieces[4], errorDetails: [{ [KEY]: pieces }] }),
      (res) =>
        sendJson(res, 412, 'current', {
          'platform-entry-version': `v-${KEY.slice(2, 20)}`,
          'platform-entry-attributes': JSON.stringify({ [KEY.slice(0, 9)]: encodeURIComponent(KEY) }),
          'platform-entry-created-time': KEY.slice(5, 25),
          'content-md5': JSON.stringify(KEY).slice(1, 12),
        }),
      (res) => sendJson(res, 200, { path: 'operations/1', done: true, error: { code: KEY, message: pieces[2] } }),
    ];
    const logs: LogEvent[] = [];
    const { fixture, client: c } = await t.setup((_r, res, i) => answers[i](res), {
      apiKey: KEY,
      log: (e) => logs.push(e),
      retry: { maxAttempts: 1 },
    });
    const errors = [
      ...(await Promise.all([0, 1, 2, 3].map(() => rejection(() => c.datastores.getEntry(ENTRY))))),
      await rejection(() => c.datastores.setEntry({ ...ENTRY, value: 1, matchVersion: 'v0' })),
      await rejection(() => c.assets.waitForOperation('operations/1')),
    ];
    assert.equal(fixture.seen[0].headers['x-api-key'], KEY, 'the key is sent');
    const conflict = errors.find((e) => e instanceof PreconditionFailedError);
    assert.ok(conflict?.current, 'the 412 metadata is kept, with the key hidden');
    assert.equal(errors.at(-1)!.name, 'OperationFailedError');
    for (const err of errors) assert.equal(leak(everything(err)), undefined, everything(err));
    assert.equal(leak(everything(logs)), undefined);
  });

  it('is refused over plain http to another machine unless allowed; loopback and https are fine', () => {
    const make = (baseUrl: string, allowInsecureHttp?: boolean) =>
      new OpenApiClient({ baseUrl, apiKey: KEY, allowInsecureHttp });
    for (const url of ['http://example.com', 'http://10.0.0.5:8787/api', 'http://128.0.0.1', 'http://localhost.evil']) {
      assert.throws(() => make(url), /the API key would travel unencrypted/, url);
    }
    for (const url of [
      'https://example.com',
      'http://127.0.0.1:8787',
      'http://127.9.8.7',
      'http://localhost:1',
      'http://[::1]:8080',
    ]) {
      void make(url).close();
    }
    void make('http://example.com', true).close();
  });
});

describe('the entry header prefix', () => {
  it('is read whatever its case', async () => {
    const emulator = await TestEmulator.start({ apiKeys: [{ key: KEY }] });
    const upper = makeClient(emulator.url, { apiKey: KEY, entryHeaderPrefix: 'Platform' }).client;
    try {
      await upper.datastores.setEntry({ ...ENTRY, value: 1, userIds: [7], attributes: { a: 1 } });
      const entry = await upper.datastores.getEntry(ENTRY);
      assert.deepEqual([entry.userIds, entry.attributes], [[7], { a: 1 }]);
    } finally {
      await upper.close();
      await emulator.close();
    }
  });

  it('must be letters and digits', () => {
    for (const prefix of ['', 'plat-form', 'plat form', 'x\r\ny', 'é']) {
      assert.throws(
        () => new OpenApiClient({ baseUrl: 'http://127.0.0.1:1', apiKey: KEY, entryHeaderPrefix: prefix }),
        /letters and digits/,
        JSON.stringify(prefix),
      );
    }
  });
});
