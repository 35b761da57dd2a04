// The NDJSON helpers of backups: exact value text, line checks, and reading lines of any file.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { formatEntryLine, LineWriter, memberText, parseEntryLine, readLines } from '../../src/api/bulk/ndjson';

describe('NDJSON lines', () => {
  it('memberText returns the exact text of a member, whatever comes before it', () => {
    const json =
      '{ "a\\"value" : "x}\\"]" , "nested":{"value":[1,{"b":"]"}]}, "value" : 12345678901234567890.50e+1 ,"z":[]}';
    assert.equal(memberText(json, 'value'), '12345678901234567890.50e+1');
    assert.equal(memberText(json, 'nested'), '{"value":[1,{"b":"]"}]}');
    assert.equal(memberText(json, 'a"value'), '"x}\\"]"');
    assert.equal(memberText(json, 'z'), '[]');
    assert.equal(memberText(json, 'missing'), undefined);
    assert.equal(memberText('{"value":1,"value":"two"}', 'value'), '"two"', 'the last one, as JSON.parse takes');
    assert.equal(memberText('{"value":"ends with \\\\"}', 'value'), '"ends with \\\\"');
    assert.equal(memberText('{}', 'value'), undefined);
  });

  it('a line keeps the value text; line breaks between tokens become spaces so the line stays one line', () => {
    const line = formatEntryLine({
      scope: 's',
      key: 'k\n"',
      value: '{\r\n  "n": 1.0\n}\n',
      attributes: { a: 'ü' },
      userIds: [1],
      version: 'v1',
    });
    assert.equal(
      line,
      '{"scope":"s","key":"k\\n\\"","value":{    "n": 1.0 },"attributes":{"a":"ü"},"userIds":[1],"version":"v1"}\n',
    );
    const back = parseEntryLine(line.trimEnd());
    assert.deepEqual(back, {
      scope: 's',
      key: 'k\n"',
      value: '{    "n": 1.0 }',
      attributes: { a: 'ü' },
      userIds: [1],
      version: 'v1',
    });
  });

  it('parseEntryLine says what is wrong with a line', () => {
    assert.throws(() => parseEntryLine('{"key":'), /not valid JSON/);
    assert.throws(() => parseEntryLine('[1]'), /not a JSON object/);
    assert.throws(() => parseEntryLine('{"value":1}'), /"key" must be a non-empty string/);
    assert.throws(() => parseEntryLine('{"key":"k"}'), /"value" is missing/);
    assert.throws(() => parseEntryLine('{"key":"k","value":1,"userIds":[1.5]}'), /"userIds"/);
    assert.throws(() => parseEntryLine('{"key":"k","value":1,"attributes":[]}'), /"attributes"/);
    assert.deepEqual(parseEntryLine('{"key":"k","value":null}'), {
      scope: 'global',
      key: 'k',
      value: 'null',
      attributes: {},
      userIds: [],
      absent: ['attributes', 'userIds'],
    });
    assert.equal(parseEntryLine('{"key":"k","value":1,"attributes":{},"userIds":[]}').absent, undefined);
  });

  it('readLines gives, in batches, numbers, byte offsets, CRLF-free text and marks an unterminated last line', async () => {
    const f = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ue-lines-')), 'x.ndjson');
    fs.writeFileSync(f, 'ä\r\n\nlast');
    const lines = [];
    for await (const batch of readLines(f)) lines.push(...batch);
    assert.deepEqual(lines, [
      { number: 1, text: 'ä', end: 4, terminated: true },
      { number: 2, text: '', end: 5, terminated: true },
      { number: 3, text: 'last', end: 9, terminated: false },
    ]);
    fs.rmSync(path.dirname(f), { recursive: true });
  });

  it('LineWriter writes every byte in order: lines across its buffers, one longer than a buffer, multi-byte text, appending', async () => {
    const f = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ue-writer-')), 'x.ndjson');
    const lines = Array.from({ length: 3000 }, (_, i) => `{"n":${i},"s":"${'é😀x'.repeat(i % 40)}"}\n`);
    lines.splice(1500, 0, `"${'ü'.repeat(100_000)}"\n`); // 200,000 bytes: more than one buffer
    let out = await LineWriter.open(f, 'w');
    for (const line of lines.slice(0, 2000)) {
      out.write(line);
      if (out.full) await out.flush();
    }
    await out.close();
    out = await LineWriter.open(f, 'a');
    for (const line of lines.slice(2000)) out.write(line);
    await out.close();
    assert.equal(fs.readFileSync(f, 'utf8'), lines.join(''));
    fs.rmSync(path.dirname(f), { recursive: true });
  });
});
