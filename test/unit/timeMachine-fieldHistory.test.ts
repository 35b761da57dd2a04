// History of a field against the emulator: one entry written hour by hour (a field appearing, changing, staying the
// same while others change or keys move, disappearing, the entry deleted and re-created). Expectations come from the
// writes recorded while building the history.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  fieldHistory,
  formatFieldPath,
  parseFieldPath,
  valueAtPath,
  type FieldChange,
  type FieldHistoryOptions,
  type OpenApiClient,
} from '../../src/api';
import { API_KEY, makeClient } from './support/client';
import { TestEmulator } from './support/emulator';

const U = 77;
const STORE = 'Players';
const START = Date.parse('2024-03-01T10:00:00.000Z');
const HOUR = 60 * 60 * 1000;

let emulator: TestEmulator;
let client: OpenApiClient;
/** Version ids in the order written: index n was written at hour n. */
const ids: string[] = [];
const address = (key = 'p') => ({ universeId: U, datastoreName: STORE, key });

async function write(value: unknown): Promise<void> {
  const v = await client.datastores.setEntry({ universeId: U, datastoreName: STORE, entryKey: 'p', value });
  ids.push(v.version);
  await emulator.advanceClock(HOUR);
}

async function remove(): Promise<void> {
  await client.datastores.deleteEntry({ universeId: U, datastoreName: STORE, entryKey: 'p' });
  const page = await client.datastores.listEntryVersions({
    universeId: U,
    datastoreName: STORE,
    entryKey: 'p',
    sortOrder: 'Descending',
    limit: 1,
  });
  assert.equal(page.items[0].deleted, true);
  ids.push(page.items[0].version);
  await emulator.advanceClock(HOUR);
}

before(async () => {
  emulator = await TestEmulator.start({ apiKeys: [{ key: API_KEY }], clock: new Date(START).toISOString() });
  client = makeClient(emulator.url).client;
  await write({ coins: 10, inventory: { sword: 1, bow: 0 } }); // 0
  await write({ inventory: { bow: 0, sword: 1 }, coins: 10 }); // 1: keys moved, nothing changed
  await write({ coins: 20, inventory: { sword: 1, bow: 0 } }); // 2
  await write({ coins: 20, inventory: { sword: 2, shield: 1 } }); // 3
  await write({ coins: 20, inventory: {} }); // 4
  await remove(); // 5
  await write({ coins: 5 }); // 6
  await write({ coins: 5, items: ['a', 'b', { x: 1, 'a.b': true }] }); // 7
});

after(async () => {
  await client.close();
  await emulator.close();
});

async function history(path: string, opts: FieldHistoryOptions = {}, key = 'p'): Promise<FieldChange[]> {
  const changes: FieldChange[] = [];
  for await (const c of fieldHistory(client, address(key), path, opts)) changes.push(c);
  return changes;
}

/** "hour: before -> after", with flags. */
const describe_ = (changes: FieldChange[]) =>
  changes.map(
    (c) =>
      `${ids.indexOf(c.version)}: ${JSON.stringify(c.before)} -> ${JSON.stringify(c.after)}` +
      `${c.deleted ? ' deleted' : ''}${c.notJson ? ' not JSON' : ''}`,
  );

describe('parseFieldPath', () => {
  it('reads keys, indexes and quoted keys', () => {
    assert.deepEqual(parseFieldPath('coins'), ['coins']);
    assert.deepEqual(parseFieldPath('inventory.sword'), ['inventory', 'sword']);
    assert.deepEqual(parseFieldPath('items[2].x'), ['items', 2, 'x']);
    assert.deepEqual(parseFieldPath('items.2'), ['items', '2']);
    assert.deepEqual(parseFieldPath('["a.b"]'), ['a.b']);
    assert.deepEqual(parseFieldPath('a["b.c"][0]["q\\"]"].d'), ['a', 'b.c', 0, 'q"]', 'd']);
    assert.deepEqual(parseFieldPath('my key.ключ'), ['my key', 'ключ']);
  });

  it('says what is wrong', () => {
    assert.throws(() => parseFieldPath(''), /empty/);
    assert.throws(() => parseFieldPath('a..b'), /unexpected "\." at character 3/);
    assert.throws(() => parseFieldPath('a.'), /nothing after "\."/);
    assert.throws(() => parseFieldPath('.a'), /unexpected "\."/);
    assert.throws(() => parseFieldPath('items[2'), /without its "\]"/);
    assert.throws(() => parseFieldPath('items[x]'), /index .* or a quoted key/);
    assert.throws(() => parseFieldPath('["a]'), /without its "\]"/);
    assert.throws(() => parseFieldPath('[0]x'), /unexpected "x"/);
    assert.throws(() => parseFieldPath('a"b'), /unexpected/);
  });

  it('writes a path back as it reads it', () => {
    for (const text of ['coins', 'inventory.sword', 'items[2].x', 'a["b.c"][0]["q\\"]"].d', '["a.b"]']) {
      assert.deepEqual(parseFieldPath(formatFieldPath(parseFieldPath(text))), parseFieldPath(text));
    }
    assert.equal(formatFieldPath(['a', 'b.c', 0]), 'a["b.c"][0]');
  });
});

describe('valueAtPath', () => {
  const doc = { a: { b: [1, { c: null }] }, 'x.y': 2, n: { '0': 'zero' } };
  it('finds values, undefined when absent', () => {
    assert.equal(valueAtPath(doc, 'a.b[0]'), 1);
    assert.equal(valueAtPath(doc, 'a.b.0'), 1);
    assert.equal(valueAtPath(doc, 'a.b[1].c'), null);
    assert.equal(valueAtPath(doc, '["x.y"]'), 2);
    assert.equal(valueAtPath(doc, 'n[0]'), 'zero');
    assert.deepEqual(valueAtPath(doc, ['a']), doc.a);
    assert.equal(valueAtPath(doc, 'a.b[2]'), undefined);
    assert.equal(valueAtPath(doc, 'a.b.c'), undefined);
    assert.equal(valueAtPath(doc, 'a.b[1].c.d'), undefined);
    assert.equal(valueAtPath(doc, 'toString'), undefined, 'no inherited members');
    assert.equal(valueAtPath(5, 'a'), undefined);
    assert.equal(valueAtPath('text', 'length'), undefined);
  });
});

describe('fieldHistory', () => {
  it('a field that changes, through a deletion and a re-creation; key order is ignored', async () => {
    const changes = await history('coins', { pageSize: 2 });
    assert.deepEqual(describe_(changes), [
      '0: undefined -> 10',
      '2: 10 -> 20',
      '5: 20 -> undefined deleted',
      '6: undefined -> 5',
    ]);
    assert.equal(changes[0].previous, undefined);
    assert.deepEqual(
      changes.slice(1).map((c) => ids.indexOf(c.previous!.version)),
      [1, 4, 5],
      'the version before each change',
    );
    const listed = await client.datastores.listEntryVersions({ universeId: U, datastoreName: STORE, entryKey: 'p' });
    assert.equal(changes[1].createdTime, listed.items.find((v) => v.version === ids[2])!.createdTime);
  });

  it('a nested field that stays the same while others change, then disappears', async () => {
    assert.deepEqual(describe_(await history('inventory.sword')), [
      '0: undefined -> 1',
      '3: 1 -> 2',
      '4: 2 -> undefined',
    ]);
    assert.deepEqual(describe_(await history('inventory')), [
      '0: undefined -> {"sword":1,"bow":0}',
      '3: {"sword":1,"bow":0} -> {"sword":2,"shield":1}',
      '4: {"sword":2,"shield":1} -> {}',
      '5: {} -> undefined deleted',
    ]);
    assert.deepEqual(describe_(await history('items[2]["a.b"]')), ['7: undefined -> true']);
    assert.deepEqual(describe_(await history('items.2.x')), ['7: undefined -> 1']);
    assert.deepEqual(await history('missing.field'), []);
  });

  it('from a time on: the value just before it is where changes count from; until a time', async () => {
    const at = (hour: number) => new Date(START + hour * HOUR + HOUR / 2);
    assert.deepEqual(describe_(await history('coins', { since: at(1) })), [
      '2: 10 -> 20',
      '5: 20 -> undefined deleted',
      '6: undefined -> 5',
    ]);
    assert.deepEqual(describe_(await history('coins', { since: at(2), until: at(5) })), ['5: 20 -> undefined deleted']);
    assert.deepEqual(describe_(await history('coins', { since: at(5) })), ['6: undefined -> 5'], 'deleted just before');
    assert.deepEqual(describe_(await history('coins', { until: at(3) })), ['0: undefined -> 10', '2: 10 -> 20']);
  });

  it('an unknown key has no history', async () => {
    assert.deepEqual(await history('coins', {}, 'never'), []);
  });

  it('reports a value that is not JSON, and goes on', async () => {
    // The emulator refuses such values; another writer's text is served once, for the first version read.
    await emulator.fault({
      method: 'GET',
      path: '/versions/version',
      status: 200,
      headers: { 'platform-entry-version': ids[0], 'content-type': 'application/json' },
      body: 'plain text',
      times: 1,
    });
    try {
      assert.deepEqual(describe_(await history('coins', { concurrency: 1, until: new Date(START + 3 * HOUR) })), [
        '0: undefined -> undefined not JSON',
        '1: undefined -> 10',
        '2: 10 -> 20',
      ]);
    } finally {
      await emulator.clearFaults();
    }
  });

  it('stops reading when the reader stops', async () => {
    const mark = (await emulator.requests()).length;
    for await (const c of fieldHistory(client, address(), 'coins', { concurrency: 1, pageSize: 2 })) {
      assert.equal(c.version, ids[0]);
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
    const made = (await emulator.requests()).length - mark;
    assert.ok(made <= 6, `${made} requests`);
  });
});
