// The memory stores client: queues and the flush of a universe's memory stores, against a loopback stand-in
// answering the reference's example bodies, drifted ones included (open-api-ordered-memory.md §4, §5 and the
// decisions of §9; the emulator does not serve these yet): `{id, queueItems}` and the other read shapes, the empty
// queue's 404, both operation path forms and both poll routes. Sorted maps: client-memory.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  NotFoundError,
  OperationFailedError,
  OperationTimeoutError,
  QuotaExceededError,
  ResponseShapeError,
  ServerError,
  type MemoryOperation,
} from '../../src/api';
import { rejection } from './support/client';
import { gatewayError, v2Error, withStandIn, type Answer } from './support/standIn';

const U = 5243626809;
const QUEUE = { universeId: U, queueName: 'MyQueue' };
const QUEUE_ITEMS = `/cloud/v2/universes/${U}/memory-store/queues/MyQueue/items`;
const EMPTY_QUEUE: Answer = [404, v2Error('NOT_FOUND', 'Queue items not found.')];
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

/** A finished flush; the response's type URL is the emulator's invention (U14). */
function done(path = OP.path) {
  return {
    path,
    done: true,
    response: { '@type': 'type.googleapis.com/roblox.open_cloud.cloud.v2.FlushMemoryStoreResponse' },
  };
}

describe('queues', () => {
  const ADDED = {
    path: `cloud/v2/universes/${U}/memory-store/queues/MyQueue/items/7fffffffffffffff0000000000000003`,
    data: { name: 'MyItem', value: 'fooBar' },
    priority: 0,
    expireTime: '2024-06-04T08:10:33Z',
  };
  const LIVE_READ = {
    id: '1a354bd5b8fe457f8e51232f8dbfe6d0',
    queueItems: [
      {
        data: 'hello',
        expireTime: '2026-06-21T15:08:58.4806559Z',
        path: 'cloud/v2/universes/123/memory-store/queues/test-queue/items/abc123',
        priority: 1,
      },
    ],
  };
  const HELLO = { id: 'abc123', data: 'hello', priority: 1, expireTime: '2026-06-21T15:08:58.4806559Z' };

  it('add posts data, priority and ttl as "Ns", and reads the item id from its path', async () => {
    const added: unknown[] = [];
    const seen = await withStandIn([ok(ADDED), ok({ ...ADDED, priority: null })], async (c) => {
      added.push(await c.queues.addItem({ ...QUEUE, data: ADDED.data, priority: 2.5, ttlSeconds: 60 }));
      added.push(await c.queues.addItem({ ...QUEUE, data: { nested: null }, ttlSeconds: 1 }));
    });
    const item = {
      id: '7fffffffffffffff0000000000000003',
      data: ADDED.data,
      priority: 0,
      expireTime: ADDED.expireTime,
    };
    assert.deepEqual(added, [item, item]);
    assert.deepEqual(seen, [
      {
        method: 'POST',
        path: QUEUE_ITEMS,
        query: {},
        body: { data: ADDED.data, priority: 2.5, ttl: '60s' },
        contentType: 'application/json',
      },
      {
        method: 'POST',
        path: QUEUE_ITEMS,
        query: {},
        body: { data: { nested: null }, ttl: '1s' },
        contentType: 'application/json',
      },
    ]);
  });

  it('add refuses null data and a bad ttl before sending; an answer without data is a ResponseShapeError', async () => {
    const seen = await withStandIn([ok({ path: ADDED.path })], async (c) => {
      for (const data of [null, undefined]) {
        assert.ok((await rejection(() => c.queues.addItem({ ...QUEUE, data, ttlSeconds: 5 }))) instanceof TypeError);
      }
      assert.ok((await rejection(() => c.queues.addItem({ ...QUEUE, data: 1, ttlSeconds: 0 }))) instanceof RangeError);
      const error = await rejection(() => c.queues.addItem({ ...QUEUE, data: 1, ttlSeconds: 5 }));
      assert.ok(error instanceof ResponseShapeError && error.field === 'data', error.message);
    });
    assert.equal(seen.length, 1);
  });

  it('read sends count, allOrNothing and the window as "Ns", and reads the live {id, queueItems}', async () => {
    let read: unknown;
    const seen = await withStandIn([ok(LIVE_READ), ok(LIVE_READ)], async (c) => {
      read = await c.queues.readItems({ ...QUEUE, count: 5, allOrNothing: true, invisibilitySeconds: 1 });
      await c.queues.readItems({ ...QUEUE, count: 500 });
    });
    assert.deepEqual(read, { readId: LIVE_READ.id, items: [HELLO] });
    assert.deepEqual(
      seen.map((s) => [s.method, s.path, s.query]),
      [
        ['GET', `${QUEUE_ITEMS}:read`, { count: '5', allOrNothing: 'true', invisibilityWindow: '1s' }],
        ['GET', `${QUEUE_ITEMS}:read`, { count: '200', allOrNothing: 'false', invisibilityWindow: '30s' }],
      ],
    );
  });

  it("reads the spec's {readId, items} and 2024's {id, data: [values]} too", async () => {
    const reads: unknown[] = [];
    await withStandIn(
      [ok({ readId: 'r1', items: LIVE_READ.queueItems }), ok({ data: [{ a: 1 }, 'x'], id: 'r2' })],
      async (c) => {
        reads.push(await c.queues.readItems(QUEUE), await c.queues.readItems(QUEUE));
      },
    );
    assert.deepEqual(reads, [
      { readId: 'r1', items: [HELLO] },
      {
        readId: 'r2',
        items: [
          { id: undefined, data: { a: 1 }, priority: 0, expireTime: undefined },
          { id: undefined, data: 'x', priority: 0, expireTime: undefined },
        ],
      },
    ]);
  });

  it("an empty queue (the service's 404, a 204, an empty 200) is an empty read; a gateway 404 is an error", async () => {
    const reads: unknown[] = [];
    await withStandIn([EMPTY_QUEUE, [204], [200], ok({ id: 'r', queueItems: [] }), ok({})], async (c) => {
      for (let i = 0; i < 5; i++) reads.push(await c.queues.readItems(QUEUE));
    });
    assert.deepEqual(reads, Array(5).fill({ items: [] }));
    await withStandIn([[404, gatewayError('NotFound')]], async (c) => {
      const error = await rejection(() => c.queues.readItems(QUEUE));
      assert.ok(error instanceof NotFoundError, error.message);
    });
  });

  it('a read with items but no read id, or items without data, is a ResponseShapeError', async () => {
    for (const [body, field] of [
      [{ queueItems: LIVE_READ.queueItems }, 'id'],
      [{ id: 'r', queueItems: [{ path: 'p' }] }, 'items[0].data'],
      [{ id: 'r', queueItems: 'none' }, 'items'],
    ] as const) {
      await withStandIn([ok(body)], async (c) => {
        const error = await rejection(() => c.queues.readItems(QUEUE));
        assert.ok(error instanceof ResponseShapeError, error.message);
        assert.equal(error.field, field);
      });
    }
  });

  it('refuses a count or window out of range before sending', async () => {
    const seen = await withStandIn([EMPTY_QUEUE], async (c) => {
      for (const args of [{ count: 0 }, { count: 1.5 }, { invisibilitySeconds: 0 }, { invisibilitySeconds: 0.5 }]) {
        assert.ok((await rejection(() => c.queues.readItems({ ...QUEUE, ...args }))) instanceof RangeError);
      }
    });
    assert.equal(seen.length, 0);
  });

  it('discard posts {readId} in the body; an empty 200 and {} both end it', async () => {
    const seen = await withStandIn([[200], ok({})], async (c) => {
      await c.queues.discardItems({ ...QUEUE, readId: LIVE_READ.id });
      await c.queues.discardItems({ ...QUEUE, readId: 'r2' });
    });
    assert.deepEqual(
      seen.map((s) => [s.method, s.path, s.query, s.body, s.contentType]),
      [
        ['POST', `${QUEUE_ITEMS}:discard`, {}, { readId: LIVE_READ.id }, 'application/json'],
        ['POST', `${QUEUE_ITEMS}:discard`, {}, { readId: 'r2' }, 'application/json'],
      ],
    );
  });

  it('never repeats an add or a read, whatever the failure; repeats a discard; a 429 is a QuotaExceededError', async () => {
    const counts: Record<string, number[]> = { add: [], read: [], discard: [] };
    for (const failure of failures) {
      const check = (e: unknown) => {
        assert.ok(e instanceof ServerError || e instanceof QuotaExceededError, String(e));
        return 0;
      };
      counts.add.push(
        (
          await withStandIn([failure, ok(ADDED)], (c) =>
            c.queues.addItem({ ...QUEUE, data: 1, ttlSeconds: 5 }).catch(check),
          )
        ).length,
      );
      counts.read.push(
        (await withStandIn([failure, ok(LIVE_READ)], (c) => c.queues.readItems(QUEUE).catch(check))).length,
      );
      counts.discard.push(
        (await withStandIn([failure, [200]], (c) => c.queues.discardItems({ ...QUEUE, readId: 'r' }).catch(() => 0)))
          .length,
      );
    }
    assert.deepEqual(counts, { add: [1, 1, 1, 1], read: [1, 1, 1, 1], discard: [1, 2, 2, 2] });
  });
});

describe('flush', () => {
  const at = (route: string) => `/cloud/v2/universes/${U}/${route}/${OP_ID}`;
  const quick = { initialDelayMs: 1, maxDelayMs: 2 };

  it('posts memory-store:flush with the scope and no body, then polls memory-store/operations/{id} until done', async () => {
    let finished: MemoryOperation | undefined;
    const progress: boolean[] = [];
    const seen = await withStandIn(
      [ok(OP), ok({ ...OP, done: false }), ok({ path: OP.path }), ok(done())],
      async (c) => {
        finished = await c.memoryStores.flushAndWait(
          { universeId: U },
          { ...quick, onProgress: (op) => progress.push(op.done) },
        );
      },
    );
    assert.equal(finished?.done, true);
    assert.equal(finished?.operationId, OP_ID);
    assert.deepEqual(progress, [false, false, true]);
    assert.deepEqual(
      seen.map((s) => [s.method, s.path, s.query, s.body]),
      [
        ['POST', `/cloud/v2/universes/${U}/memory-store:flush`, { scope: 'LIVE' }, undefined],
        ...Array(3).fill(['GET', at('memory-store/operations'), { scope: 'LIVE' }, undefined]),
      ],
    );
  });

  it('takes the id from either path form, and polls the TEST scope when it flushed TEST', async () => {
    const newPath = `cloud/v2/universes/${U}/memory-store/operations/${OP_ID}`;
    const seen = await withStandIn([ok({ path: newPath, done: false }), ok(done(newPath))], async (c) => {
      const op = await c.memoryStores.flush({ universeId: U, scope: 'TEST' });
      assert.equal(op.operationId, OP_ID);
      await c.memoryStores.waitForFlush({ universeId: U, scope: 'TEST', operation: op.path }, quick);
    });
    assert.deepEqual(
      seen.map((s) => [s.path, s.query]),
      [
        [`/cloud/v2/universes/${U}/memory-store:flush`, { scope: 'TEST' }],
        [at('memory-store/operations'), { scope: 'TEST' }],
      ],
    );
  });

  it("polls the universe's operations/{id} when memory-store/operations is an unknown route, and stays there", async () => {
    let polls = 0;
    const seen = await withStandIn(
      (req) =>
        req.path.includes('/memory-store/operations/')
          ? [404, gatewayError('NotFound')]
          : req.path.endsWith(':flush')
            ? ok(OP)
            : ok(polls++ ? done() : OP),
      (c) => c.memoryStores.flushAndWait({ universeId: U }, quick),
    );
    assert.deepEqual(
      seen.map((s) => s.path),
      [
        `/cloud/v2/universes/${U}/memory-store:flush`,
        at('memory-store/operations'),
        at('operations'),
        at('operations'),
      ],
    );
  });

  it("a NOT_FOUND operation (the service's own 404) is a NotFoundError, not a reason to try the other route", async () => {
    const seen = await withStandIn([[404, v2Error('NOT_FOUND', 'Operation not found.')]], async (c) => {
      const error = await rejection(() => c.memoryStores.getFlushOperation({ universeId: U, operationId: OP_ID }));
      assert.ok(error instanceof NotFoundError);
    });
    assert.equal(seen.length, 1);
  });

  it('an operation done with an error is an OperationFailedError; one never done an OperationTimeoutError', async () => {
    await withStandIn([ok({ ...OP, done: true, error: { code: 13, message: 'Flush failed.' } })], async (c) => {
      const error = await rejection(() => c.memoryStores.waitForFlush({ universeId: U, operation: OP_ID }, quick));
      assert.ok(error instanceof OperationFailedError, error.message);
      assert.equal(error.operationStatus.code, 13);
    });
    await withStandIn([ok(OP)], async (c) => {
      const error = await rejection(() =>
        c.memoryStores.waitForFlush({ universeId: U, operation: OP_ID }, { ...quick, timeoutMs: 30 }),
      );
      assert.ok(error instanceof OperationTimeoutError, error.message);
      assert.equal((error as OperationTimeoutError<MemoryOperation>).lastSeen?.operationId, OP_ID);
    });
  });

  it('an operation without a path, or one with no id at its end, is a ResponseShapeError', async () => {
    for (const body of [{ done: true }, { path: `cloud/v2/universes/${U}/operations/`, done: true }]) {
      await withStandIn([ok(body)], async (c) => {
        const error = await rejection(() => c.memoryStores.flush({ universeId: U }));
        assert.ok(error instanceof ResponseShapeError && error.field === 'path', error.message);
      });
    }
  });

  it('a flush is repeated only when the service says it did not apply it', async () => {
    const counts = [];
    for (const failure of failures) {
      counts.push(
        (await withStandIn([failure, ok(OP)], (c) => c.memoryStores.flush({ universeId: U }).catch(() => 0))).length,
      );
    }
    assert.deepEqual(counts, [1, 1, 2, 2]);
  });
});
