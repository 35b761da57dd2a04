import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csvField, toCsv } from '../../src/restrictions/csv';
import { parseCsv } from './support/csv';

test('plain fields are left as they are; empty values are empty fields', () => {
  assert.equal(csvField('Cheating'), 'Cheating');
  assert.equal(csvField(42), '42');
  assert.equal(csvField(true), 'true');
  assert.equal(csvField(undefined), '');
  assert.equal(csvField(null), '');
  assert.equal(csvField(''), '');
  assert.equal(csvField(' spaced '), ' spaced ');
});

test('commas, double quotes and line breaks are quoted, with quotes doubled', () => {
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('"'), '""""');
  assert.equal(csvField('line1\nline2'), '"line1\nline2"');
  assert.equal(csvField('cr\rlf\r\n'), '"cr\rlf\r\n"');
  assert.equal(csvField('<img src=x onerror="alert(1)">, ok'), '"<img src=x onerror=""alert(1)"">, ok"');
});

test('toCsv writes the header and every row with CRLF line ends', () => {
  const csv = toCsv(
    ['Time', 'Reason'],
    [
      ['2024-01-01T00:00:00Z', 'a, "b"'],
      ['t2', 'two\nlines'],
    ],
  );
  assert.equal(csv, 'Time,Reason\r\n2024-01-01T00:00:00Z,"a, ""b"""\r\nt2,"two\nlines"\r\n');
  assert.equal(toCsv(['Only', 'Header'], []), 'Only,Header\r\n');
});

test('hostile fields read back unchanged', () => {
  const values = ['', ',', '""', 'a\r\nb', '=1+2', '<script>alert("x")</script>', 'üñí 🎮', ' lead', 'x,"y",\nz'];
  const rows = values.map((v, i) => [String(i), v]);
  assert.deepEqual(parseCsv(toCsv(['n', 'value'], rows)), [['n', 'value'], ...rows]);
});
