// The SQL the index writes for people (findValue, playerEntries), run by DuckDB over made-up values: what each
// search finds and what it leaves out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findValueSql, playerEntriesSql } from '../../src/query';
import { keys, newIndex } from './support/queryIndex';

/** Values by key, each the JSON text of an entry. */
const VALUES: Record<string, string> = {
  whole: '[2001]',
  longer: '[12001]',
  after: '[20010]',
  fraction: '[2001.5]',
  inText: '{"name":"Player_2001"}',
  plainE: '{"n":1E5}',
  negative: '{"n":-3.5}',
  spelt: '{"price":3.50}',
  quote: '{"q":"it\'s \\"x\\""}',
  unicode: '"Ünïcödé ✓"',
  big: '{"id":123456789012345678901234567890}',
};

/** Runs `sql` with `entries` standing for a table of VALUES (its rows in key order). */
async function found(sql: string): Promise<string[]> {
  const rows = Object.entries(VALUES)
    .map(([key, value]) => `('${key}', '${value.replace(/'/g, "''")}')`)
    .join(', ');
  const index = newIndex();
  const made = `WITH entries AS (SELECT 'S' AS store, 'global' AS scope, k AS key, json(v) AS value, [] AS user_ids FROM (VALUES ${rows}) t(k, v))\n`;
  return keys(await index.query(made + sql), 2).sort();
}

describe('findValueSql', () => {
  it('a number is found as a whole token, however it is spelt', async () => {
    assert.deepEqual(await found(findValueSql('2001')), ['inText', 'whole']);
    assert.deepEqual(await found(findValueSql('2001.5')), ['fraction']);
    assert.deepEqual(await found(findValueSql('100000')), ['plainE'], '1E5 is written 100000.0');
    assert.deepEqual(await found(findValueSql('1e5')), ['plainE']);
    assert.deepEqual(await found(findValueSql('-3.5')), ['negative']);
    assert.deepEqual(await found(findValueSql('3.5')), ['negative', 'spelt'], 'the sign is not looked at');
    assert.deepEqual(await found(findValueSql('3.500')), ['negative', 'spelt']);
    assert.deepEqual(await found(findValueSql('123456789012345678901234567890')), ['big']);
  });

  it('text is found in any case, quotes as JSON escapes them, and the SQL is one readable statement', async () => {
    assert.deepEqual(await found(findValueSql('ünïCÖdé')), ['unicode']);
    assert.deepEqual(await found(findValueSql('it\'s "x"')), ['quote']);
    assert.deepEqual(await found(findValueSql('player_')), ['inText']);
    assert.deepEqual(await found(findValueSql('  nothing like it ')), []);
    const sql = findValueSql("it's");
    assert.match(
      sql,
      /^-- Values whose JSON text holds "it's", in any case\nSELECT store, scope, key, value FROM entries\n/,
    );
    assert.match(sql, /lower\('it''s'\)/);
    assert.throws(() => findValueSql('  '), /Say what to find/);
  });
});

describe('playerEntriesSql', () => {
  it('takes whole numbers above 0 only', () => {
    for (const bad of ['0', '-1', '1.5', '20 01', 'abc', '99999999999999999999', '']) {
      assert.throws(() => playerEntriesSql(bad), /is no user id/, bad);
    }
    assert.match(playerEntriesSql(' 2001 '), /list_contains\(user_ids, 2001\)/);
    assert.match(playerEntriesSql(9007199254740993n), /9007199254740993/);
  });
});
