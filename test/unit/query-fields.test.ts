// The JSON fields an index has seen (for completions): each path counted once per entry, the most common first, and
// each written so that DuckDB reads exactly that field back, whatever its name holds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldName, jsonPathOf } from '../../src/query';
import { sharedEmulator } from './support/emulator';
import { newIndex, U } from './support/queryIndex';

const shared = sharedEmulator();

const VALUES: Record<string, string> = {
  a: '{"coins":5,"inventory":{"sword":1,"b.c":{"x":2}},"items":[{"id":1},{"id":2,"n":null}],"$odd":true}',
  b: '{"coins":7,"inventory":{"sword":"rusty"},"q\\"x":1,"it\'s":2,"ключ":{"ü":3},"":4,"/p":5}',
  c: '{"coins":9.5,"deep":{"l2":{"l3":{"l4":{"l5":{"l6":1}}}}}}',
  d: '[{"x":1}]',
  e: '"just text"',
};

describe('the JSON fields of an index', () => {
  it('are counted once per entry, most common first, with the types seen', async () => {
    for (const [key, raw] of Object.entries(VALUES)) {
      await shared.client.datastores.setEntry({ universeId: U, datastoreName: 'Fields', entryKey: key, raw });
    }
    const index = newIndex();
    await index.build(shared.client, { store: 'Fields' });
    const { fields, sampled } = await index.jsonFields();
    assert.equal(sampled, 5);
    const byName = new Map(fields.map((f) => [fieldName(f.path), f]));
    assert.deepEqual(fields[0], { path: ['coins'], entries: 3, types: ['number'] });
    assert.deepEqual(byName.get('inventory'), { path: ['inventory'], entries: 2, types: ['object'] });
    assert.deepEqual(byName.get('inventory.sword')?.types.sort(), ['number', 'string']);
    assert.equal(byName.get('items[*].id')?.entries, 1, 'two ids in one entry count once');
    assert.deepEqual(byName.get('items[*].n')?.types, ['null']);
    assert.deepEqual(byName.get('[*].x')?.path, [null, 'x']);
    assert.ok(byName.has('deep.l2.l3.l4.l5'));
    assert.ok(!byName.has('deep.l2.l3.l4.l5.l6'), 'five levels down at most');
    assert.ok(!byName.has('items[*]'), 'an array element is no field of its own');
    assert.ok(
      fields.every((f) => !f.path.includes('')),
      'a member with an empty name is left out',
    );
    assert.deepEqual([...byName.keys()].filter((n) => /b\.c|q|it.s|ключ|odd|\/p/.test(n)).sort(), [
      '"$odd"',
      '"/p"',
      '"it\'s"',
      '"q\\"x"',
      'inventory."b.c"',
      'inventory."b.c".x',
      'ключ',
      'ключ.ü',
    ]);

    // Each path, written as a completion would (quotes doubled in the SQL literal), reads its field back.
    for (const f of fields) {
      const literal = `'${jsonPathOf(f.path).replace(/'/g, "''")}'`;
      const test = f.path.includes(null) ? `len(value->${literal}) > 0` : `(value->${literal}) IS NOT NULL`;
      const { rows } = await index.query(`SELECT count(*) FROM entries WHERE ${test}`);
      assert.equal(Number(rows[0][0]), f.entries, `${fieldName(f.path)} as ${literal}`);
    }
  });

  it('a top-level name is written as it is unless DuckDB would read it as a path', () => {
    assert.equal(jsonPathOf(['coins']), 'coins');
    assert.equal(jsonPathOf(['b.c']), 'b.c');
    assert.equal(jsonPathOf(['$odd']), '$."$odd"');
    assert.equal(jsonPathOf(['/p']), '$."/p"');
    assert.equal(jsonPathOf(['inventory', 'sword']), '$.inventory.sword');
    assert.equal(jsonPathOf(['items', null, 'id']), '$.items[*].id');
    assert.equal(jsonPathOf(['a', 'x\\y"z']), '$.a."x\\\\y\\"z"');
    assert.equal(fieldName(['items', null, 'id']), 'items[*].id');
    assert.equal(fieldName([null, 'x']), '[*].x');
  });

  it('an index with no entries has no fields', async () => {
    const index = newIndex();
    assert.deepEqual(await index.jsonFields(), { fields: [], sampled: 0 });
  });
});
