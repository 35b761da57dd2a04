// Export writes each value's bytes as the service sent them (no decoding and encoding again) and checks them for JSON
// without building the value: the file is byte for byte what formatting each value's text gives, for every kind of
// value, and the JSON check agrees with JSON.parse.
import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ServerResponse } from 'node:http';
import { after, describe, it } from 'node:test';
import { exportDataStore, failuresFileFor, NotFoundError } from '../../src/api';
import {
  entryLineHead,
  entryLineTail,
  formatEntryLine,
  formatHeaderLine,
  LineWriter,
  valueBytesFit,
} from '../../src/api/bulk/ndjson';
import { orderedMap } from '../../src/api/bulk/scheduler';
import { isJsonText } from '../../src/api/read';
import { makeClient, rejection } from './support/client';
import { sharedEmulator } from './support/emulator';
import { sendJson, startFixture } from './support/fixture';

const U = 7272;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-export-bytes-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const shared = sharedEmulator();

/** What JSON.parse says of bytes read as UTF-8 (as Get Entry reads them). */
function parses(b: Buffer): boolean {
  try {
    JSON.parse(b.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

const bytes = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('isJsonText', () => {
  const cases = [
    '0',
    '-0',
    '1.5e+300',
    '1e400',
    '12345678901234567890',
    '-0.000',
    '1E5',
    'true',
    'false',
    'null',
    '""',
    '"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\uD83D\\ude00"',
    '"\\ud800"',
    '"ключ ✓ 😀 \u2028 \u007f \u0080"',
    ' \t\r\n{ "a" : [ 1 , { } , [ ] , "x" ] , "a" : null } \n',
    '[[[[[]]]]]',
    '{"":{"":{"":""}}}',
    // not JSON
    '',
    ' ',
    '01',
    '-',
    '1.',
    '.5',
    '1e',
    '1e+',
    '+1',
    '0x10',
    'NaN',
    'Infinity',
    'tru',
    'nulll',
    'True',
    '"',
    '"\\x41"',
    '"\\u12"',
    '"\\u00G0"',
    '"a\u0001b"',
    '"tab\there"',
    "'single'",
    '[1,]',
    '[,1]',
    '[1 2]',
    '{"a":1,}',
    '{"a" 1}',
    '{a:1}',
    '{"a":1',
    '[1]]',
    '1 2',
    '\ufeff1',
    '\u00a01',
    '\u000b1',
    '[1]\u0000',
    '/* c */ 1',
  ];

  it('agrees with JSON.parse on every kind of text', () => {
    for (const text of cases) {
      const b = Buffer.from(text, 'utf8');
      assert.equal(isJsonText(b), parses(b), JSON.stringify(text));
    }
  });

  it('agrees with JSON.parse on texts cut and changed at random', () => {
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pick = <T>(a: readonly T[]): T => a[Math.floor(random() * a.length)];
    const pieces = ['"', '\\', ',', ':', '[', ']', '{', '}', '0', '-', '.', 'e', '+', ' ', '\n', '\u0001', 'é', 'x'];
    let valid = 0;
    for (let n = 0; n < 20_000; n++) {
      let text = pick(cases);
      for (let k = Math.floor(random() * 3); k > 0; k--) {
        const at = Math.floor(random() * (text.length + 1));
        text =
          random() < 0.5 ? text.slice(0, at) + pick(pieces) + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
      }
      const b = Buffer.from(text, 'utf8');
      if (!isUtf8(b)) continue; // a cut surrogate pair: never asked (not UTF-8 text)
      const expected = parses(b);
      if (expected) valid++;
      assert.equal(isJsonText(b), expected, JSON.stringify(text));
    }
    assert.ok(valid > 1000, `${valid} valid texts among them`);
  });

  it('any depth, without the call stack', () => {
    const depth = 300_000;
    assert.equal(isJsonText(Buffer.from(`${'['.repeat(depth)}{"a":[1]}${']'.repeat(depth)}`)), true);
    assert.equal(isJsonText(Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth - 1)}`)), false);
    assert.equal(isJsonText(Buffer.from('[1]')), true, 'and the next text is read afresh');
  });
});

describe('export lines from the value bytes', () => {
  it('valueBytesFit: only UTF-8 JSON bytes that formatting would leave as they are', () => {
    assert.equal(valueBytesFit(bytes('{"a":1}')), true);
    assert.equal(valueBytesFit(bytes('"é ✓ \u2028"')), true);
    assert.equal(valueBytesFit(bytes('{"a":\t1}')), true, 'whitespace between tokens stays');
    for (const b of [
      bytes(' 1'),
      bytes('1 '),
      bytes('\t1'),
      bytes('1\n'),
      bytes('{\r\n"a":1}'),
      bytes('[1,\n2]'),
      bytes('"', [0xff], '"'),
      bytes('"', [0xed, 0xa0, 0x80], '"'),
      bytes(''),
    ]) {
      assert.equal(valueBytesFit(b), false, JSON.stringify(b.toString('latin1')));
    }
  });

  it('entryLineHead and entryLineTail are JSON.stringify of each field, whatever the text', () => {
    const texts = ['global', 'a"b', 'back\\slash', 'tab\t', 'new\nline', '\u0000', '\u007f', 'é', '😀', '\ud800', ''];
    for (const scope of texts) {
      for (const key of texts) {
        assert.equal(
          entryLineHead(scope, key),
          `{"scope":${JSON.stringify(scope)},"key":${JSON.stringify(key)},"value":`,
        );
      }
    }
    for (const version of [...texts, undefined]) {
      for (const userIds of [[], [0], [1, 2, 9007199254740991], [-0]]) {
        const attributes = { q: 'x"y', n: 1, nested: { a: [true, null] } };
        const versionPart = version === undefined ? '' : `,"version":${JSON.stringify(version)}`;
        assert.equal(
          entryLineTail(attributes, userIds, version),
          `,"attributes":${JSON.stringify(attributes)},"userIds":${JSON.stringify(userIds)}${versionPart}}\n`,
        );
      }
    }
  });

  it('LineWriter.writeBytes keeps every byte in order with text around it, across and above its buffer size', async () => {
    const f = path.join(dir, 'writer.ndjson');
    const parts: (string | Buffer)[] = [];
    for (let i = 0; i < 3000; i++) {
      parts.push(`{"n":${i},"v":`, Buffer.from(`"${'é😀x'.repeat(i % 50)}"`), '}\n');
      if (i === 1500) parts.push(Buffer.alloc(200_000, 0x61)); // more than one buffer
    }
    const out = await LineWriter.open(f, 'w');
    for (const part of parts) {
      if (typeof part === 'string') out.write(part);
      else out.writeBytes(part);
      if (out.full) await out.flush();
    }
    await out.close();
    const expected = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
    assert.ok(fs.readFileSync(f).equals(expected));
  });

  // What a service may store: values a client wrote with its own spacing, line breaks, escapes and bytes.
  const VALUES: [string, Buffer][] = [
    ['plain', bytes('{"coins":1,"id":12345678901234567890,"items":["a","b"]}')],
    ['spaced', bytes('  { "a" : [ 1 ,\t2 ] }  ')],
    ['crlf', bytes('{\r\n  "n": 1.0\r\n}\r\n')],
    ['lf', bytes('[\n1,\n2\n]')],
    ['unicode', bytes('"значение ✓ 😀 \u2028 \u007f"')],
    ['escapes', bytes('"\\ud800 \\u00e9 \\" \\\\ \\n"')],
    ['not utf-8 in a string', bytes('"a', [0xff, 0xfe], 'b"')],
    ['a surrogate as bytes', bytes('"', [0xed, 0xa0, 0x80], '"')],
    ['number', bytes('-0.000e-7')],
    ['not JSON', bytes('plain text')],
    ['a BOM first', bytes([0xef, 0xbb, 0xbf], '1')],
    ['bytes that are not UTF-8 outside a string', bytes('[', [0xff], ']')],
    ['empty', bytes('')],
  ];
  const KEYS = VALUES.map(([name], i) => (i % 2 ? `${name} "quoted" \\ é` : name));
  const VERSION = (i: number) => (i === 3 ? 'v"odd\\version' : `08DC1A2B3C4D5E6F.000000000${i}.08DC1A2B3C4D5E6F.01`);
  const ATTRIBUTES = (i: number) => (i % 3 ? { tag: `t${i}`, 'q"': 'é' } : {});
  const USER_IDS = (i: number) => (i % 2 ? [i, 9007199254740991] : []);

  it('the file is byte for byte the lines formatted from each value as text, and values that are not JSON are failures', async () => {
    const answer = (i: number, res: ServerResponse) => {
      const body = VALUES[i][1];
      res.writeHead(200, {
        'content-length': body.length,
        'platform-entry-version': VERSION(i),
        // Header bytes go out as latin1: these are the UTF-8 bytes of the JSON, as the service sends them.
        'platform-entry-attributes': Buffer.from(JSON.stringify(ATTRIBUTES(i))).toString('latin1'),
        'platform-entry-userids': JSON.stringify(USER_IDS(i)),
      });
      res.end(body);
    };
    const fixture = await startFixture((req, res) => {
      const url = new URL(req.url, 'http://x');
      if (url.pathname.endsWith('/entries')) {
        return sendJson(res, 200, { keys: KEYS.map((key) => ({ scope: 'global', key })) });
      }
      answer(KEYS.indexOf(url.searchParams.get('entryKey')!), res);
    });
    const { client } = makeClient(fixture.url);
    const file = path.join(dir, 'values.ndjson');
    try {
      const result = await exportDataStore(client, { universeId: U, datastoreName: 'Values', file, resume: false });
      let expected = formatHeaderLine({ universeId: U, datastoreName: 'Values', scope: 'global' });
      const failed: string[] = [];
      VALUES.forEach(([, raw], i) => {
        if (!parses(raw)) return void failed.push(KEYS[i]);
        expected += formatEntryLine({
          scope: 'global',
          key: KEYS[i],
          value: raw.toString('utf8'),
          attributes: ATTRIBUTES(i),
          userIds: USER_IDS(i),
          version: VERSION(i),
        });
      });
      assert.deepEqual(failed, [KEYS[9], KEYS[10], KEYS[11], KEYS[12]]);
      assert.ok(fs.readFileSync(file).equals(Buffer.from(expected, 'utf8')), fs.readFileSync(file, 'utf8'));
      assert.deepEqual([result.exported, result.failed], [VALUES.length - failed.length, failed.length]);
      const failures = fs
        .readFileSync(failuresFileFor(file), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { key: string; error: string });
      assert.deepEqual(
        failures.map((f) => [f.key, f.error]),
        failed.map((key) => [key, 'The value is not JSON']),
      );
    } finally {
      await client.close();
      await fixture.close();
    }
  });

  it('a file that cannot be written fails the export with its own error, the first page asked for meanwhile', async () => {
    const err = await rejection(() =>
      exportDataStore(shared.client, { universeId: U, datastoreName: 'Any', file: dir, resume: false }),
    );
    assert.equal((err as NodeJS.ErrnoException).code, 'EISDIR', String(err));
  });
});

describe('getEntryBytes', () => {
  it('the same bytes, JSON verdict and metadata as getEntry, without the value', async () => {
    const { client } = shared;
    const entry = { universeId: U, datastoreName: 'Bytes', entryKey: 'k' };
    await client.datastores.setEntry({ ...entry, raw: '{ "a" : [1, "x"] }', attributes: { t: 'é' } });
    const full = await client.datastores.getEntry(entry);
    const raw = await client.datastores.getEntryBytes(entry);
    const { value, ...rest } = full;
    assert.deepEqual(value, { a: [1, 'x'] });
    assert.equal(raw.raw.toString(), '{ "a" : [1, "x"] }');
    assert.deepEqual(raw, rest);
    await client.datastores.deleteEntry(entry);
    await assert.rejects(client.datastores.getEntryBytes(entry), NotFoundError);
  });

  it('a universe id that is not valid Unicode is a rejection, not a throw', async () => {
    const call = shared.client.datastores.getEntryBytes({ universeId: '\ud800', datastoreName: 'A', entryKey: 'k' });
    await assert.rejects(call, TypeError);
    const plain = shared.client.datastores.getEntry({ universeId: '\ud800', datastoreName: 'A', entryKey: 'k' });
    await assert.rejects(plain, TypeError);
  });
});

describe('orderedMap runs', () => {
  it('results that come in during the same turn of the event loop are taken in one run', async () => {
    const runs: number[][] = [];
    async function* source() {
      yield [0, 1, 2, 3, 4, 5];
    }
    // Each call settles in a callback of its own, all in the same turn (as answers read from several connections).
    const fn = (i: number) => new Promise<number>((resolve) => setImmediate(() => resolve(i)));
    for await (const run of orderedMap(source(), 8, fn)) runs.push(run);
    assert.deepEqual(runs, [[0, 1, 2, 3, 4, 5]]);
  });

  it('a result that comes in alone still comes at once, in order', async () => {
    const runs: number[][] = [];
    async function* source() {
      yield [0, 1, 2];
    }
    const fn = (i: number) => new Promise<number>((resolve) => setTimeout(() => resolve(i), (3 - i) * 15));
    for await (const run of orderedMap(source(), 8, fn)) runs.push(run);
    assert.deepEqual(runs.flat(), [0, 1, 2]);
  });
});
