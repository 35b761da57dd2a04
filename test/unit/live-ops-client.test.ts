// The client and the emulator, two independent readings of the ordered and memory store reference, against each
// other over real HTTP: what one writes the other reads back, in the order and with the rules both took from it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EtagMismatchError } from '../../src/api';
import { clockedEmulator } from './support/emulator';

const shared = clockedEmulator('2024-01-15T10:00:00Z', 'live-ops');

async function all<T>(pages: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of pages) items.push(item);
  return items;
}
const U = 123456;

describe('ordered data stores and memory stores, client against emulator', () => {
  it('an ordered store lists by value both ways, within a range, and increments', async () => {
    const { client } = shared;
    const at = { universeId: U, datastoreName: 'Board' };
    for (const [key, value] of [
      ['a', 30],
      ['b', 10],
      ['c', 20],
      ['d', 40],
    ] as const)
      await client.orderedDataStores.createEntry({ ...at, entryKey: key, value });
    const keys = async (args: object) =>
      (await all(client.orderedDataStores.listEntries({ ...at, limit: 2, ...args }))).map((e) => e.key);
    assert.deepEqual(await keys({}), ['b', 'c', 'a', 'd']);
    assert.deepEqual(await keys({ order: 'desc' }), ['d', 'a', 'c', 'b']);
    assert.deepEqual(await keys({ order: 'desc', min: 15, max: 30 }), ['a', 'c']);
    const bumped = await client.orderedDataStores.incrementEntry({ ...at, entryKey: 'b', amount: 25 });
    assert.deepEqual(bumped, { key: 'b', value: 35 });
    assert.deepEqual(await keys({ order: 'desc' }), ['d', 'b', 'a', 'c']);
  });

  it('a sorted map keeps map order, refuses a write with a stale etag, and forgets an item when its TTL ends', async () => {
    const { client, emulator } = shared;
    const at = { universeId: U, mapName: 'Lobby' };
    await client.sortedMaps.createItem({ ...at, key: 'none', value: { n: 0 }, ttlSeconds: 60 });
    await client.sortedMaps.createItem({ ...at, key: 'text', value: { n: 1 }, sortKey: 'm', ttlSeconds: 600 });
    await client.sortedMaps.createItem({ ...at, key: 'two', value: { n: 2 }, sortKey: 2, ttlSeconds: 600 });
    await client.sortedMaps.createItem({ ...at, key: 'one', value: { n: 3 }, sortKey: 1, ttlSeconds: 600 });
    const order = async () => (await all(client.sortedMaps.listItems({ ...at, limit: 1 }))).map((i) => i.key);
    assert.deepEqual(await order(), ['one', 'two', 'text', 'none']);

    const read = await client.sortedMaps.getItem({ ...at, key: 'two' });
    await client.sortedMaps.updateItem({ ...at, key: 'two', value: { n: 22 }, sortKey: 2, ttlSeconds: 600 });
    await assert.rejects(
      client.sortedMaps.updateItem({
        ...at,
        key: 'two',
        value: { n: 99 },
        sortKey: 2,
        ttlSeconds: 600,
        etag: read.etag,
      }),
      (error: unknown) => error instanceof EtagMismatchError && (error.current?.value as { n: number }).n === 22,
    );

    await emulator.advanceClock(61_000);
    assert.deepEqual(await order(), ['one', 'two', 'text']);
  });

  it('a queue read hides items for its window, a discard removes them, and an empty queue reads as empty', async () => {
    const { client, emulator } = shared;
    const at = { universeId: U, queueName: 'Jobs' };
    await client.queues.addItem({ ...at, data: { job: 'low' }, ttlSeconds: 600 });
    await client.queues.addItem({ ...at, data: { job: 'high' }, priority: 5, ttlSeconds: 600 });
    const first = await client.queues.readItems({ ...at, count: 1, invisibilitySeconds: 30 });
    assert.deepEqual(
      first.items.map((i) => i.data),
      [{ job: 'high' }],
    );
    const second = await client.queues.readItems({ ...at, count: 5, invisibilitySeconds: 30 });
    assert.deepEqual(
      second.items.map((i) => i.data),
      [{ job: 'low' }],
    );
    assert.ok(second.readId);
    await client.queues.discardItems({ ...at, readId: second.readId });
    assert.deepEqual((await client.queues.readItems({ ...at })).items, [], 'all hidden or gone');

    await emulator.advanceClock(31_000);
    const again = await client.queues.readItems({ ...at, count: 5 });
    assert.deepEqual(
      again.items.map((i) => i.data),
      [{ job: 'high' }],
      'the first read was not discarded: it is back',
    );
  });

  it('a flush is followed to its end and empties the maps and queues', async () => {
    const { client, emulator } = shared;
    await client.queues.addItem({ universeId: U, queueName: 'Flushed', data: 1, ttlSeconds: 600 });
    const started = await client.memoryStores.flush({ universeId: U });
    assert.equal(started.done, false);
    await emulator.advanceClock(5_000);
    const done = await client.memoryStores.waitForFlush(
      { universeId: U, operation: started },
      { initialDelayMs: 10, timeoutMs: 10_000 },
    );
    assert.equal(done.done, true);
    assert.deepEqual((await client.queues.readItems({ universeId: U, queueName: 'Flushed' })).items, []);
    assert.deepEqual(await all(client.sortedMaps.listItems({ universeId: U, mapName: 'Lobby' })), []);
  });
});
