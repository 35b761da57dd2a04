import assert from 'node:assert/strict';
import { test } from 'node:test';
import { entryPath, escapeSegment, parseEntryPath, unescapeSegment } from '../../src/datastores/entryPath';

const hostile = [
  'a/b',
  '..',
  '.',
  '%2F',
  '~7E',
  'üñí cødé 🎮',
  'back\\slash',
  'q?x#y',
  'tab\there',
  '...x',
  'a.json',
  ' ',
  '\u007f',
];

test('escapeSegment round-trips hostile keys and never leaves a / or a dot segment', () => {
  for (const key of hostile) {
    const escaped = escapeSegment(key);
    assert.ok(!escaped.includes('/') && !escaped.includes('%') && !/^\.+$/.test(escaped), escaped);
    assert.equal(unescapeSegment(escaped), key);
  }
});

test('entry paths round-trip every part', () => {
  for (const key of hostile) {
    const address = { universeId: 123456, datastoreName: 'Store/One', scope: '..', key };
    const path = entryPath(address);
    assert.deepEqual(parseEntryPath('c1', path), { connectionId: 'c1', ...address });
    // What VS Code does to a path: encode for the URI string, then decode.
    assert.equal(decodeURIComponent(encodeURI(path)), path);
  }
});

test('parseEntryPath refuses what is not an entry path', () => {
  assert.throws(() => parseEntryPath('c', '/x/store/global/k.json'), /Not an entry path/);
  assert.throws(() => parseEntryPath('c', '/1/store/global/k.txt'), /Not an entry path/);
  assert.throws(() => parseEntryPath('c', '/1/store/k.json'), /Not an entry path/);
  assert.throws(() => parseEntryPath('c', '/1/store/global/~zz.json'), /Bad escape/);
});
