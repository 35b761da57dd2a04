import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatJson, JsonSyntaxError } from '../../src/datastores/editor/json';

test('formatJson pretty-prints and compacts without touching literals', () => {
  const text = '{"id":12345678901234567890,"f":1.50,"s":"a\\u00e9 \\"q\\"","l":[1,{"x":null}],"e":{},"a":[]}';
  const pretty = formatJson(text);
  assert.equal(
    pretty,
    '{\n  "id": 12345678901234567890,\n  "f": 1.50,\n  "s": "a\\u00e9 \\"q\\"",\n  "l": [\n    1,\n    {\n      "x": null\n    }\n  ],\n  "e": {},\n  "a": []\n}',
  );
  assert.equal(formatJson(pretty, 0), text);
});

test('formatJson accepts every JSON value at the top', () => {
  for (const v of ['0', '-1.5e+3', '"x"', 'true', 'false', 'null', '[]', '{}', ' \n 7 \n']) {
    assert.equal(formatJson(v, 0), v.trim());
  }
});

test('formatJson reports line and column of the first error', () => {
  const cases: [string, number, number, RegExp][] = [
    ['{\n  "a": 1,\n}', 3, 1, /property name/],
    ['{"a" 1}', 1, 6, /Expected ':'/],
    ['[1 2]', 1, 4, /Expected ',' or ']'/],
    ['{"a": tru}', 1, 7, /Unexpected character 't'/],
    ['"abc', 1, 1, /Unterminated string/],
    ['', 1, 1, /end of text/],
    ['1 2', 1, 3, /after the JSON value/],
    ['{"a":01}', 1, 7, /Expected ','/],
    ['"\u0001"', 1, 2, /Control character/],
    ["{'a':1}", 1, 2, /property name/],
  ];
  for (const [text, line, column, detail] of cases) {
    assert.throws(
      () => formatJson(text),
      (e: unknown) => e instanceof JsonSyntaxError && e.line === line && e.column === column && detail.test(e.message),
      `${JSON.stringify(text)}`,
    );
  }
});

test('formatJson agrees with JSON.parse on what is valid', () => {
  const samples = [
    '{"a":[1,2,{"b":"c"}]}',
    '[true,false,null]',
    '{"a":1,}',
    '[01]',
    '{"\\x":1}',
    '1.',
    '-',
    '[1,]',
    '"\\ud83d\\ude00"',
  ];
  for (const text of samples) {
    let native = true;
    try {
      JSON.parse(text);
    } catch {
      native = false;
    }
    let ours = true;
    try {
      formatJson(text);
    } catch {
      ours = false;
    }
    assert.equal(ours, native, text);
  }
});

test('formatJson takes what JSON.parse takes: a 450-digit number and nesting 5,000 deep', () => {
  const big = `{"n":${'9'.repeat(450)}}`;
  assert.equal(formatJson(big, 0), big);
  assert.equal(formatJson(`[${'1'.repeat(450)}.5e-3]`, 0), `[${'1'.repeat(450)}.5e-3]`);
  const deep = '['.repeat(5000) + ']'.repeat(5000);
  JSON.parse(deep);
  assert.equal(formatJson(deep, 0), deep);
  assert.equal(formatJson('{"a":[{"b":[]}]}', 1), '{\n "a": [\n  {\n   "b": []\n  }\n ]\n}');
});
