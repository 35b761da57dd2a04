// The memory stores client: sorted maps, and the write guard of every memory store call, against a loopback stand-in
// answering the reference's example bodies, drifted ones included (open-api-ordered-memory.md §3 and the decisions
// of §9; the emulator does not serve these yet): one-item default pages, the plural Get path, null sort keys.
// Queues and the flush: client-memory-queues.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AlreadyExistsError,
  ConflictError,
  EtagMismatchError,
  NotFoundError,
  QuotaExceededError,
  RateLimitedError,
  ResponseShapeError,
  WriteRefusedError,
  type OpenApiClient,
  type SortedMapItem,
} from '../../src/api';
import { SortedMapsApi } from '../../src/api/memoryMaps';
import { QueuesApi } from '../../src/api/memoryQueues';
import { MemoryStoresApi } from '../../src/api/memoryStores';
import { rejection } from './support/client';
import { v2Error, withStandIn, type Answer, type Sent } from './support/standIn';

const U = 5243626809;
const MAP = { universeId: U, mapName: 'MySortedMap' };
const ITEMS = `/cloud/v2/universes/${U}/memory-store/sorted-maps/MySortedMap/items`;
/** Get answers with the plural `memory-stores` in its path [LIB OB 2024]. */
const ITEM = {
  path: `cloud/v2/universes/${U}/memory-stores/sorted-maps/MySortedMap/items/Testing123`,
  value: { isReal: true },
  etag: '12',
  expireTime: '2024-04-18T01:44:49Z',
  id: 'Testing123',
  numericSortKey: 1,
};
const READ_ITEM: SortedMapItem = {
  key: 'Testing123',
  value: { isReal: true },
  sortKey: 1,
  etag: '12',
  expireTime: '2024-04-18T01:44:49Z',
};
const QUEUE = { universeId: U, queueName: 'MyQueue' };
const OP_ID = 'AAUAAAAAAADRMx55T0AKRxSgFCrSusMzqOKQNyVaQz8eMi9t-dwQwQ';
/** The 2024 path form, without `memory-store/` [LIB OB]. */
const OP = { path: `cloud/v2/universes/${U}/operations/${OP_ID}`, done: null };
const ok = (body: unknown): Answer => [200, body];
const failures: Answer[] = [
  [500, v2Error('INTERNAL', 'x')],
  [502, 'Bad gateway'],
  [503, v2Error('UNAVAILABLE', 'x'), { 'retry-after': '0' }],
  [429, v2Error('RESOURCE_EXHAUSTED', 'x'), { 'retry-after': '0' }],
];

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** A map of `count` items that pages as the service does: one item a page unless maxPageSize says otherwise. */
function pagingMap(count: number) {
  const items = Array.from({ length: count }, (_, i) => ({ ...ITEM, id: `k${i}`, numericSortKey: i }));
  return (req: Sent): Answer => {
    const start = Number(req.query.pageToken ?? 0);
    const end = start + (Number(req.query.maxPageSize) || 1);
    return ok({ items: items.slice(start, end), nextPageToken: end < count ? String(end) : undefined });
  };
}

describe('sorted maps: listing', () => {
  it('always asks for 100 a page (the service gives one by default), and goes through every page', async () => {
    let keys: string[] = [];
    const seen = await withStandIn(pagingMap(150), async (c) => {
      keys = (await all(c.sortedMaps.listItems(MAP))).map((i) => i.key);
    });
    assert.equal(keys.length, 150);
    assert.deepEqual(
      seen.map((s) => [s.path, s.query]),
      [
        [ITEMS, { maxPageSize: '100' }],
        [ITEMS, { maxPageSize: '100', pageToken: '100' }],
      ],
    );
  });

  it('reads the example page; an array left out or null is empty; desc and bounds are sent as the reference says', async () => {
    const pages: unknown[] = [];
    const token = 'S_USLzRFVMU73i67jNK349FgCtYxw4Wl18ziPHeFRZoACgBUZXN0aW5nMTIzCQAAv_AAAAAAAAA';
    const seen = await withStandIn(
      [ok({ items: [ITEM], nextPageToken: token }), ok({}), ok({ items: null })],
      async (c) => {
        const first = await c.sortedMaps.listItems({
          ...MAP,
          order: 'desc',
          after: { key: 'a"b\\', sortKey: 5 },
          before: { sortKey: 'abc' },
          limit: 2,
        });
        pages.push(first.items, first.next);
        pages.push((await first.nextPage())!.items, (await c.sortedMaps.listItems(MAP)).items);
      },
    );
    assert.deepEqual(pages, [[READ_ITEM], token, [], []]);
    const query = {
      maxPageSize: '2',
      orderBy: 'id desc',
      filter: 'id > "a\\"b\\\\" && sortKey > 5 && sortKey < "abc"',
    };
    assert.deepEqual(seen[0].query, query);
    assert.deepEqual(seen[1].query, { ...query, pageToken: token });
  });

  it('an item without its key, value or with both sort keys is a ResponseShapeError naming the field', async () => {
    const bad = [
      [{ items: [{ ...ITEM, id: undefined }] }, 'items[0].id'],
      [{ items: [ITEM, { ...ITEM, value: undefined }] }, 'items[1].value'],
      [{ items: [{ ...ITEM, stringSortKey: 'x' }] }, 'items[0].stringSortKey'],
      [{ items: [{ ...ITEM, numericSortKey: '1' }] }, 'items[0].numericSortKey'],
    ] as const;
    for (const [body, field] of bad) {
      await withStandIn([ok(body)], async (c) => {
        const error = await rejection(() => c.sortedMaps.listItems(MAP));
        assert.ok(error instanceof ResponseShapeError, error.message);
        assert.equal(error.field, field);
      });
    }
  });
});

describe('sorted maps: items', () => {
  it('get reads the example, a null sort key as none, a null value as null, and a 404 as NotFoundError', async () => {
    const got: unknown[] = [];
    const seen = await withStandIn(
      [ok(ITEM), ok({ ...ITEM, value: null, numericSortKey: null }), [404, v2Error('NOT_FOUND', 'Not found.')]],
      async (c) => {
        got.push(await c.sortedMaps.getItem({ ...MAP, key: 'Testing123' }));
        got.push(await c.sortedMaps.getItem({ ...MAP, key: 'a::b' }));
        const error = await rejection(() => c.sortedMaps.getItem({ ...MAP, key: 'gone' }));
        assert.ok(error instanceof NotFoundError);
      },
    );
    assert.deepEqual(got, [READ_ITEM, { ...READ_ITEM, value: null, sortKey: undefined }]);
    assert.deepEqual(
      seen.map((s) => [s.method, s.path]),
      [
        ['GET', `${ITEMS}/Testing123`],
        ['GET', `${ITEMS}/a%3A%3Ab`],
        ['GET', `${ITEMS}/gone`],
      ],
    );
  });

  it('create sends value, ttl as "Ns" and the sort key in the field of its kind, the key in the query', async () => {
    const made: unknown[] = [];
    const seen = await withStandIn(
      [ok(ITEM), ok({ ...ITEM, id: 'k2', numericSortKey: null, stringSortKey: 's' })],
      async (c) => {
        made.push(
          await c.sortedMaps.createItem({
            ...MAP,
            key: 'Testing123',
            value: { isReal: true },
            sortKey: 1,
            ttlSeconds: 30,
          }),
        );
        made.push(
          await c.sortedMaps.createItem({ ...MAP, key: 'k2', value: [1], sortKey: 's', ttlSeconds: 3_888_000 }),
        );
      },
    );
    assert.deepEqual(made, [READ_ITEM, { ...READ_ITEM, key: 'k2', sortKey: 's' }]);
    assert.deepEqual(seen, [
      {
        method: 'POST',
        path: ITEMS,
        query: { id: 'Testing123' },
        body: { value: { isReal: true }, ttl: '30s', numericSortKey: 1 },
        contentType: 'application/json',
      },
      {
        method: 'POST',
        path: ITEMS,
        query: { id: 'k2' },
        body: { value: [1], ttl: '3888000s', stringSortKey: 's' },
        contentType: 'application/json',
      },
    ]);
  });

  it('refuses a ttl outside whole seconds from 1 to 45 days, a null value, a sort key that is no finite number, before sending', async () => {
    const seen = await withStandIn([ok(ITEM)], async (c) => {
      const item = { ...MAP, key: 'k', value: 1, ttlSeconds: 60 };
      for (const ttlSeconds of [0, -1, 1.5, 3_888_001, Number.NaN]) {
        assert.ok((await rejection(() => c.sortedMaps.createItem({ ...item, ttlSeconds }))) instanceof RangeError);
        assert.ok((await rejection(() => c.sortedMaps.updateItem({ ...item, ttlSeconds }))) instanceof RangeError);
      }
      for (const value of [null, undefined]) {
        assert.ok((await rejection(() => c.sortedMaps.createItem({ ...item, value }))) instanceof TypeError);
      }
      assert.ok((await rejection(() => c.sortedMaps.createItem({ ...item, sortKey: Infinity }))) instanceof TypeError);
      assert.ok((await rejection(() => c.sortedMaps.createItem({ ...item, key: '' }))) instanceof TypeError);
    });
    assert.equal(seen.length, 0);
  });

  it("create of an existing key (the service's 409 or 400) is an AlreadyExistsError, found by reading the key", async () => {
    for (const refusal of [
      [409, v2Error('ALREADY_EXISTS', 'Item already exists.')],
      [400, v2Error('INVALID_ARGUMENT', 'Item already exists.')],
    ] as Answer[]) {
      const seen = await withStandIn([refusal, ok(ITEM)], async (c) => {
        const error = await rejection(() =>
          c.sortedMaps.createItem({ ...MAP, key: 'Testing123', value: 1, ttlSeconds: 5 }),
        );
        assert.ok(error instanceof AlreadyExistsError, error.message);
        assert.equal(error.status, refusal[0]);
      });
      assert.deepEqual(
        seen.map((s) => s.method),
        ['POST', 'GET'],
      );
    }
    // Not there after all: the service's own refusal stands.
    await withStandIn(
      [
        [409, v2Error('ABORTED', 'Conflict.')],
        [404, v2Error('NOT_FOUND', 'x')],
      ],
      async (c) => {
        const error = await rejection(() => c.sortedMaps.createItem({ ...MAP, key: 'k', value: 1, ttlSeconds: 5 }));
        assert.ok(error instanceof ConflictError && !(error instanceof AlreadyExistsError), error.name);
      },
    );
  });

  it('update re-sends value, ttl and sort key, with allowMissing=true only when asked and the etag in the body', async () => {
    const seen = await withStandIn([ok({ ...ITEM, id: undefined, path: `${ITEM.path.slice(0, -10)}` })], async (c) => {
      const item = await c.sortedMaps.updateItem({
        ...MAP,
        key: 'Testing123',
        value: 2,
        ttlSeconds: 9,
        etag: '12',
        allowMissing: true,
      });
      assert.equal(item.key, 'Testing123', 'a 2024 answer without id keeps the key asked for');
      await c.sortedMaps.updateItem({
        ...MAP,
        key: 'Testing123',
        value: 'v',
        sortKey: -0.5,
        ttlSeconds: 1,
        allowMissing: false,
      });
    });
    assert.deepEqual(
      seen.map((s) => [s.method, s.path, s.query, s.body]),
      [
        ['PATCH', `${ITEMS}/Testing123`, { allowMissing: 'true' }, { value: 2, ttl: '9s', etag: '12' }],
        ['PATCH', `${ITEMS}/Testing123`, {}, { value: 'v', ttl: '1s', numericSortKey: -0.5 }],
      ],
    );
  });

  it('a stale etag (409 or 412) on update or delete is an EtagMismatchError carrying the item re-read', async () => {
    for (const status of [409, 412]) {
      const refusal: Answer = [status, v2Error('ABORTED', 'Etag mismatch.')];
      const seen = await withStandIn(
        [refusal, ok({ ...ITEM, etag: '13' }), refusal, ok({ ...ITEM, etag: '14' })],
        async (c) => {
          const update = await rejection(() =>
            c.sortedMaps.updateItem({ ...MAP, key: 'Testing123', value: 1, ttlSeconds: 5, etag: '12' }),
          );
          assert.ok(update instanceof EtagMismatchError, update.message);
          assert.equal(update.current?.etag, '13');
          const del = await rejection(() => c.sortedMaps.deleteItem({ ...MAP, key: 'Testing123', etag: '12' }));
          assert.ok(del instanceof EtagMismatchError, del.message);
          assert.equal(del.current?.etag, '14');
        },
      );
      assert.deepEqual(
        seen.map((s) => s.method),
        ['PATCH', 'GET', 'DELETE', 'GET'],
      );
    }
    // Gone meanwhile: no current item.
    await withStandIn(
      [
        [409, v2Error('ABORTED', 'x')],
        [404, v2Error('NOT_FOUND', 'x')],
      ],
      async (c) => {
        const error = await rejection(() => c.sortedMaps.deleteItem({ ...MAP, key: 'k', etag: '1' }));
        assert.ok(error instanceof EtagMismatchError && error.current === undefined);
      },
    );
  });

  it('delete sends ?etag= when given; an empty 200 and a 404 both mean deleted', async () => {
    const seen = await withStandIn([[200], [404, v2Error('NOT_FOUND', 'x')]], async (c) => {
      await c.sortedMaps.deleteItem({ ...MAP, key: 'Testing123', etag: '12' });
      await c.sortedMaps.deleteItem({ ...MAP, key: 'Testing123' });
    });
    assert.deepEqual(
      seen.map((s) => [s.method, s.path, s.query, s.body]),
      [
        ['DELETE', `${ITEMS}/Testing123`, { etag: '12' }, undefined],
        ['DELETE', `${ITEMS}/Testing123`, {}, undefined],
      ],
    );
  });

  it('a 429 is a QuotaExceededError: a create is not repeated, a read is, as reads are', async () => {
    const quota: Answer = [429, v2Error('RESOURCE_EXHAUSTED', 'Memory quota exceeded.')];
    const created = await withStandIn([quota, ok(ITEM)], async (c) => {
      const error = await rejection(() => c.sortedMaps.createItem({ ...MAP, key: 'k', value: 1, ttlSeconds: 5 }));
      assert.ok(error instanceof QuotaExceededError && error instanceof RateLimitedError, error.name);
      assert.match(error.message, /memory store quota/);
    });
    assert.equal(created.length, 1);
    const read = await withStandIn([quota], async (c) => {
      assert.ok((await rejection(() => c.sortedMaps.getItem({ ...MAP, key: 'k' }))) instanceof QuotaExceededError);
    });
    assert.equal(read.length, 4, 'the test client makes 4 attempts');
  });

  it('never repeats a create; an update only when not applied; a delete after any passing failure', async () => {
    const counts: Record<string, number[]> = { create: [], update: [], delete: [] };
    const item = { ...MAP, key: 'k', value: 1, ttlSeconds: 5 };
    for (const failure of failures) {
      counts.create.push(
        (await withStandIn([failure, ok(ITEM)], (c) => c.sortedMaps.createItem(item).catch(() => 0))).length,
      );
      counts.update.push(
        (await withStandIn([failure, ok(ITEM)], (c) => c.sortedMaps.updateItem(item).catch(() => 0))).length,
      );
      counts.delete.push(
        (await withStandIn([failure, [200]], (c) => c.sortedMaps.deleteItem(item).catch(() => 0))).length,
      );
    }
    assert.deepEqual(counts, { create: [1, 1, 1, 1], update: [1, 1, 2, 2], delete: [1, 2, 2, 2] });
  });
});

describe('memory stores: the write guard', () => {
  it('refuses every write (a queue read too: it hides items) before it is sent; reads go through', async () => {
    const item = { ...MAP, key: 'k', value: 1, ttlSeconds: 5 };
    const writes: Record<string, (c: OpenApiClient) => Promise<unknown>> = {
      'sortedMaps.createItem': (c) => c.sortedMaps.createItem(item),
      'sortedMaps.updateItem': (c) => c.sortedMaps.updateItem(item),
      'sortedMaps.deleteItem': (c) => c.sortedMaps.deleteItem(item),
      'queues.addItem': (c) => c.queues.addItem({ ...QUEUE, data: 1, ttlSeconds: 5 }),
      'queues.readItems': (c) => c.queues.readItems(QUEUE),
      'queues.discardItems': (c) => c.queues.discardItems({ ...QUEUE, readId: 'r' }),
      'memoryStores.flush': (c) => c.memoryStores.flush({ universeId: U }),
      'memoryStores.flushAndWait': (c) => c.memoryStores.flushAndWait({ universeId: U }),
    };
    const reads: Record<string, (c: OpenApiClient) => Promise<unknown>> = {
      'sortedMaps.listItems': (c) => c.sortedMaps.listItems(MAP),
      'sortedMaps.getItem': (c) => c.sortedMaps.getItem(item),
      'memoryStores.getFlushOperation': (c) => c.memoryStores.getFlushOperation({ universeId: U, operationId: OP_ID }),
      'memoryStores.waitForFlush': (c) => c.memoryStores.waitForFlush({ universeId: U, operation: OP_ID }),
    };
    const helpers = [
      'sortedMaps.itemsPath',
      'sortedMaps.itemPath',
      'sortedMaps.item',
      'sortedMaps.current',
      'sortedMaps.conflict',
      'queues.itemsPath',
      'memoryStores.poll',
    ];
    const names = (group: string, proto: object) =>
      Object.getOwnPropertyNames(proto)
        .filter((n) => n !== 'constructor')
        .map((n) => `${group}.${n}`);
    const functions = [
      ...names('sortedMaps', SortedMapsApi.prototype),
      ...names('queues', QueuesApi.prototype),
      ...names('memoryStores', MemoryStoresApi.prototype),
    ];
    assert.deepEqual(functions.sort(), [...Object.keys(writes), ...Object.keys(reads), ...helpers].sort());
    const seen = await withStandIn(
      [ok({ ...ITEM, ...done(), items: [] })],
      async (c) => {
        for (const [name, write] of Object.entries(writes)) {
          const error = await rejection(() => write(c));
          assert.ok(error instanceof WriteRefusedError, `${name}: ${error.message}`);
          assert.equal(error.universeId, U);
        }
        for (const read of Object.values(reads)) await read(c);
      },
      { writeGuard: () => 'universe 5243626809 is read-only: allow writes on its row' },
    );
    assert.equal(seen.length, Object.keys(reads).length);
  });
});

/** A finished flush; the response's type URL is the emulator's invention (U14). */
function done(path = OP.path) {
  return {
    path,
    done: true,
    response: { '@type': 'type.googleapis.com/roblox.open_cloud.cloud.v2.FlushMemoryStoreResponse' },
  };
}
