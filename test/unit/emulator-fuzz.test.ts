// A few hundred random hostile requests (seeded, so a failure can be replayed): none may answer 5xx, and the
// emulator must still serve afterwards.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/server';
import { call, DS, start } from './fixtures/emulator/harness';

let emu: RunningEmulator;
before(async () => {
  emu = await start({ seed: 'demo', control: true });
});
after(() => emu.close());

function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = rng(20240115);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
const hostile = [
  '',
  ' ',
  '..',
  '../..',
  '/',
  '%',
  '%ZZ',
  '%E0%A4%A',
  '%00',
  '%C0%AF',
  '\u0000',
  '\u0001\u001f',
  '\ud800',
  '😀',
  'ключ',
  'a'.repeat(51),
  'é'.repeat(26),
  '"',
  "'",
  '{',
  '[]',
  'null',
  '-1',
  '0',
  '1.5',
  '1e309',
  '9'.repeat(40),
  'true',
  '<script>',
  '10000000001',
  '2001',
  'Player_10001',
  'global',
  'Settings',
  'GameConfig',
  '123456',
  '08D9E6A3F2188CFF.0000000001.08D9E6A3F2188CFF.01',
  'x'.repeat(5000),
];
const encode = (s: string): string => (random() < 0.3 ? s : encodeURIComponent(s.replace(/[\ud800-\udfff]/g, 'x')));
const routes: [path: string, methods: string[]][] = [
  [DS(), ['GET']],
  [`${DS()}/datastore/entries`, ['GET']],
  [`${DS()}/datastore/entries/entry`, ['GET', 'POST', 'DELETE']],
  [`${DS()}/datastore/entries/entry/increment`, ['POST']],
  [`${DS()}/datastore/entries/entry/versions`, ['GET']],
  [`${DS()}/datastore/entries/entry/versions/version`, ['GET']],
  ['/cloud/v2/universes/{u}/user-restrictions', ['GET']],
  ['/cloud/v2/universes/{u}/user-restrictions/{x}', ['GET', 'PATCH']],
  ['/cloud/v2/universes/{u}/places/{x}/user-restrictions', ['GET']],
  ['/cloud/v2/universes/{u}/places/{x}/user-restrictions/{x}', ['GET', 'PATCH']],
  ['/cloud/v2/universes/{u}/user-restrictions:listLogs', ['GET']],
  ['/assets/v1/assets', ['POST']],
  ['/assets/v1/assets/{x}', ['GET', 'PATCH']],
  ['/assets/v1/assets/{x}:archive', ['POST']],
  ['/assets/v1/assets/{x}:restore', ['POST']],
  ['/assets/v1/assets/{x}/versions', ['GET']],
  ['/assets/v1/assets/{x}/versions/{x}', ['GET']],
  ['/assets/v1/assets/{x}/versions:rollback', ['POST']],
  ['/assets/v1/operations/{x}', ['GET']],
  ['/{x}', ['GET']],
  ['/datastores/v1/universes/{x}/standard-datastores', ['GET']],
  ['/_emulator/{x}', ['GET', 'POST']],
];
const params = [
  'datastoreName',
  'entryKey',
  'scope',
  'allScopes',
  'AllScopes',
  'prefix',
  'cursor',
  'limit',
  'matchVersion',
  'exclusiveCreate',
  'incrementBy',
  'versionId',
  'startTime',
  'endTime',
  'sortOrder',
  'maxPageSize',
  'pageToken',
  'filter',
  'updateMask',
  'idempotencyKey.key',
  'idempotencyKey.firstSent',
  'readMask',
];
const contentTypes = [
  'application/json',
  'text/plain',
  'multipart/form-data',
  'multipart/form-data; boundary=zz',
  'application/x-www-form-urlencoded',
  '',
];

/** What a header value cannot hold: control characters and code points over U+00FF. */
// eslint-disable-next-line no-control-regex
const notInHeader = /[\r\n\u0000-\u001f\u0100-\uffff]/g;

function body(): string | undefined {
  const kind = random();
  if (kind < 0.2) return undefined;
  if (kind < 0.4) return pick(hostile);
  if (kind < 0.55)
    return JSON.stringify({
      gameJoinRestriction: { active: pick([true, 'x', 1]), duration: pick(hostile), privateReason: pick(hostile) },
    });
  if (kind < 0.7) return JSON.stringify({ assetVersion: pick(hostile) });
  if (kind < 0.85) {
    return `--zz\r\nContent-Disposition: form-data; name="${pick(['request', 'fileContent', 'assetVersion', 'x'])}"${
      random() < 0.5 ? '; filename="f.png"' : ''
    }\r\nContent-Type: ${pick(['image/png', 'audio/ogg', 'text/plain'])}\r\n\r\n${pick(hostile)}\r\n${random() < 0.5 ? '--zz--\r\n' : ''}`;
  }
  return Buffer.from(Array.from({ length: Math.floor(random() * 300) }, () => Math.floor(random() * 256))).toString(
    'latin1',
  );
}

/** A method (usually one the path takes) and a URL with hostile parts. */
function target(): [method: string, url: string] {
  const [template, methods] = pick(routes);
  const method = random() < 0.85 ? pick(methods) : pick(['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS']);
  const path = template
    .replace(/\{u\}/g, () => pick(['123456', '1', encode(pick(hostile))]))
    .replace(/\{x\}/g, () => encode(pick(hostile)));
  const query = Array.from({ length: Math.floor(random() * 6) }, () => `${pick(params)}=${encode(pick(hostile))}`).join(
    '&',
  );
  return [method, query ? `${path}?${query}` : path];
}

/** One request over a raw socket, so that URLs fetch would refuse or repair are sent as they are. Answers the status. */
function raw(method: string, url: string, headers: Record<string, string>, payload?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const { port } = new URL(emu.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    const bytes = payload === undefined ? undefined : Buffer.from(payload, 'latin1');
    const lines = [`${method} ${url} HTTP/1.1`, 'host: 127.0.0.1', 'connection: close'];
    for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
    if (bytes) lines.push(`content-length: ${bytes.length}`);
    socket.write(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), bytes ?? Buffer.alloc(0)]));
    let answer = '';
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('end', () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (m) resolve(Number(m[1]));
      else reject(new Error(`no status for ${method} ${url}: ${JSON.stringify(answer.slice(0, 200))}`));
    });
    socket.on('error', reject);
  });
}

describe('fuzz', () => {
  it('answers 400 random hostile requests without a 5xx', async () => {
    const failures: string[] = [];
    for (let i = 0; i < 400; i++) {
      const [method, url] = target();
      const headers: Record<string, string> = {};
      if (random() < 0.9) headers['x-api-key'] = 'sandbox';
      if (random() < 0.7) headers['content-type'] = pick(contentTypes);
      if (random() < 0.3) headers['platform-entry-attributes'] = pick(hostile).replace(notInHeader, '');
      if (random() < 0.3) headers['platform-entry-userids'] = pick(['[1]', '[1,2,3,4,5]', '1', '[]', 'x', '[1.5]']);
      if (random() < 0.2) headers['content-md5'] = pick(['', 'abc', 'AAAAAAAAAAAAAAAAAAAAAA==']);
      const status = await raw(method, url, headers, method === 'GET' && random() < 0.8 ? undefined : body());
      if (status >= 500) failures.push(`${status} ${method} ${url.slice(0, 200)}`);
    }
    assert.deepEqual(failures, []);
    const still = await call(emu.url, 'GET', DS(), { query: { limit: 10 } });
    assert.equal(still.status, 200);
    assert.equal(still.json.datastores.length, 4);
  });

  it('answers a query string near the header limit, and one above it, with a 4xx', async () => {
    for (const size of [12_000, 100_000]) {
      const status = await raw('GET', `${DS()}/datastore/entries?datastoreName=${'a'.repeat(size)}`, {
        'x-api-key': 'sandbox',
      });
      assert.ok(status >= 400 && status < 500, String(status));
    }
  });
});
