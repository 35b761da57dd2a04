import assert from 'node:assert/strict';
import { test } from 'node:test';
import { entryPath, escapeSegment, parseEntryPath, unescapeSegment } from '../../src/datastores/editor/entryPath';

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
  'a\u2215b',
  '50%off',
  '~a~',
  '~AB',
  '100%',
];

test('escapeSegment round-trips hostile keys and never leaves a / or a dot segment', () => {
  for (const key of hostile) {
    const escaped = escapeSegment(key);
    assert.ok(!escaped.includes('/') && !/%[0-9A-Fa-f]{2}/.test(escaped) && !/^\.+$/.test(escaped), escaped);
    assert.equal(unescapeSegment(escaped), key);
  }
});

test('escaped names read as the names: a slash shows as a division slash, other characters as they are', () => {
  assert.equal(escapeSegment('a/b/c'), 'a\u2215b\u2215c');
  assert.equal(escapeSegment('50%off'), '50%off');
  assert.equal(escapeSegment('q?x#y'), 'q?x#y');
  assert.equal(escapeSegment('üñí cødé 🎮'), 'üñí cødé 🎮');
  assert.equal(escapeSegment('%2F'), '~252F');
  assert.equal(escapeSegment('~7E'), '~7E7E');
  assert.equal(escapeSegment('a~b'), 'a~b');
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
  assert.throws(() => parseEntryPath('c', '/Data Stores/x/store/global/k.json'), /Not an entry path/);
  assert.throws(() => parseEntryPath('c', '/Data Stores/1/store/global/k.txt'), /Not an entry path/);
  assert.throws(() => parseEntryPath('c', '/Data Stores/1/store/k.json'), /Not an entry path/);
  assert.throws(() => parseEntryPath('c', '/1/store/global/k.json'), /Not an entry path/);
  assert.throws(() => parseEntryPath('c', '/Data Stores/1/store/global/a\\b.json'), /Bad escape/);
});
