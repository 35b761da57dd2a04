import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkEntryId,
  checkScope,
  filterText,
  formatValue,
  parseWhole,
  rememberedName,
  storeOfName,
} from '../../src/ordered/names';

describe('ordered data store names and values', () => {
  it('remembers a store as scope/name, a name with slashes kept whole', () => {
    for (const s of [
      { store: 'Leaderboard', scope: 'global' },
      { store: 'a/b', scope: 'season2' },
    ])
      assert.deepEqual(storeOfName(rememberedName(s)), s);
    assert.equal(storeOfName('no-slash'), undefined);
    assert.equal(storeOfName('/store'), undefined);
  });

  it('holds names, scopes and ids to 1 to 50 bytes of UTF-8, a scope without "/"', () => {
    assert.equal(checkEntryId('x'.repeat(50)), 'x'.repeat(50));
    assert.throws(() => checkEntryId('x'.repeat(51)), /1 to 50 bytes/);
    assert.throws(() => checkEntryId('é'.repeat(26)), /it is 52/);
    assert.throws(() => checkEntryId(''), /1 to 50 bytes/);
    assert.throws(() => checkScope('a/b'), /no "\/"/);
  });

  it('takes whole numbers the service keeps exactly, separators allowed', () => {
    assert.equal(parseWhole(' -1,234 '), -1234);
    assert.equal(parseWhole('9007199254740991'), Number.MAX_SAFE_INTEGER);
    for (const bad of ['9007199254740992', '1.5', '1e3', '', 'ten'])
      assert.throws(() => parseWhole(bad), /whole number from -9,007,199,254,740,991/, bad);
  });

  it("writes a range in the service's filter grammar and values with separators", () => {
    assert.equal(filterText({ min: 10, max: 50 }), 'entry >= 10 && entry <= 50');
    assert.equal(filterText({ max: -5 }), 'entry <= -5');
    assert.equal(formatValue(1234567), '1,234,567');
  });
});
