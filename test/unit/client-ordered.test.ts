// The ordered data stores client against a loopback stand-in answering the reference's example bodies
// (open-api-ordered-memory.md §2 and the decisions of §9; the emulator does not serve these yet): what it sends,
// how it reads every answer the live service has given, what it refuses, and which calls it never repeats.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AlreadyExistsError,
  InvalidArgumentError,
  isAbort,
  NotFoundError,
  PermissionDeniedError,
  RateLimitedError,
  ResponseShapeError,
  ServerError,
  WriteRefusedError,
  type OpenApiClient,
} from '../../src/api';
import { OrderedDataStoresApi } from '../../src/api/ordered';
import { rejection } from './support/client';
import { v2Error, withStandIn, type Answer } from './support/standIn';

const U = 5097539509;
const STORE = { universeId: U, datastoreName: 'PointsStore' };
const KEY = { ...STORE, entryKey: '45348281' };
const BASE = `/cloud/v2/universes/${U}/ordered-data-stores/PointsStore/scopes/global/entries`;
/** Get, Create, Update and Increment all answer this shape [LIB OB 2024-07]. */
const ENTRY = {
  path: 'universes/5097539509/ordered-data-stores/PointsStore/scopes/global/entries/45348281',
  value: 78,
  id: '45348281',
};
const ok = (body: unknown = ENTRY): Answer => [200, body];
const ordered = (c: OpenApiClient) => c.orderedDataStores;

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('ordered data stores: listing', () => {
  it('asks for 100 a page, keeps order and filter on every page, and stops at an empty or absent token', async () => {
    let items: unknown[] = [];
    const seen = await withStandIn(
      [
        ok({ orderedDataStoreEntries: [ENTRY, { ...ENTRY, id: 'b', value: 70 }], nextPageToken: 'tok1' }),
        ok({ orderedDataStoreEntries: [{ path: 'p', id: 'c', value: '12' }], nextPageToken: '' }),
      ],
      async (c) => {
        items = await all(ordered(c).listEntries({ ...STORE, order: 'desc', min: 10, max: 80 }));
      },
    );
    assert.deepEqual(items, [
      { key: '45348281', value: 78 },
      { key: 'b', value: 70 },
      { key: 'c', value: 12 },
    ]);
    const query = { maxPageSize: '100', orderBy: 'value desc', filter: 'entry >= 10 && entry <= 80' };
    assert.deepEqual(
      seen.map((s) => [s.method, s.path, s.query]),
      [
        ['GET', BASE, query],
        ['GET', BASE, { ...query, pageToken: 'tok1' }],
      ],
    );
  });

  it('ascending sends no orderBy; one bound alone; a page size within 1 to 100; a page without its array is empty', async () => {
    const pages: unknown[] = [];
    const seen = await withStandIn([ok({})], async (c) => {
      pages.push((await ordered(c).listEntries({ ...STORE, scope: 'season 2', min: -3, limit: 5 })).items);
      pages.push((await ordered(c).listEntries({ ...STORE, max: 9, limit: 1000 })).items);
      pages.push((await ordered(c).listEntries({ ...STORE, limit: 0 })).items);
    });
    assert.deepEqual(pages, [[], [], []]);
    assert.equal(seen[0].path, `/cloud/v2/universes/${U}/ordered-data-stores/PointsStore/scopes/season%202/entries`);
    assert.deepEqual(
      seen.map((s) => s.query),
      [{ maxPageSize: '5', filter: 'entry >= -3' }, { maxPageSize: '100', filter: 'entry <= 9' }, { maxPageSize: '1' }],
    );
  });

  it('refuses a bound that is not a whole number, or a highest value below the lowest, before sending', async () => {
    const seen = await withStandIn([ok({})], async (c) => {
      for (const bounds of [{ min: 1.5 }, { max: 2 ** 53 }, { min: 5, max: 4 }, { min: Number.NaN }]) {
        const error = await rejection(() => ordered(c).listEntries({ ...STORE, ...bounds }));
        assert.ok(error instanceof RangeError, `${JSON.stringify(bounds)}: ${error.message}`);
      }
    });
    assert.equal(seen.length, 0);
  });

  it('a listed entry without its key, or with a value that is no number, is a ResponseShapeError naming the field', async () => {
    const bad = [
      [{ orderedDataStoreEntries: [{ path: ENTRY.path, value: 1 }] }, 'orderedDataStoreEntries[0].id'],
      [{ orderedDataStoreEntries: [ENTRY, { id: 'a', value: 'lots' }] }, 'orderedDataStoreEntries[1].value'],
      [{ orderedDataStoreEntries: {} }, 'orderedDataStoreEntries'],
    ] as const;
    for (const [body, field] of bad) {
      await withStandIn([ok(body)], async (c) => {
        const error = await rejection(() => ordered(c).listEntries(STORE));
        assert.ok(error instanceof ResponseShapeError, error.message);
        assert.equal(error.field, field);
      });
    }
  });

  it('a list is a read: repeated after a 500 or a 429', async () => {
    for (const status of [500, 429]) {
      const seen = await withStandIn([[status, v2Error('INTERNAL', 'x')], ok({ orderedDataStoreEntries: [] })], (c) =>
        ordered(c).listEntries(STORE),
      );
      assert.equal(seen.length, 2, `after ${status}`);
    }
  });
});

describe('ordered data stores: single entries', () => {
  it('get reads the entry at its path; an answer without its id keeps the key asked for', async () => {
    const got: unknown[] = [];
    const seen = await withStandIn([ok(), ok({ value: -4 })], async (c) => {
      got.push(await ordered(c).getEntry(KEY));
      got.push(await ordered(c).getEntry({ ...KEY, entryKey: 'a b/c' }));
    });
    assert.deepEqual(got, [
      { key: '45348281', value: 78 },
      { key: 'a b/c', value: -4 },
    ]);
    assert.deepEqual(
      seen.map((s) => [s.method, s.path, s.body]),
      [
        ['GET', `${BASE}/45348281`, undefined],
        ['GET', `${BASE}/a%20b%2Fc`, undefined],
      ],
    );
  });

  it('get of a missing key is a NotFoundError; a value that is no number a ResponseShapeError', async () => {
    await withStandIn([[404, v2Error('NOT_FOUND', 'Entry not found.')]], async (c) => {
      assert.ok((await rejection(() => ordered(c).getEntry(KEY))) instanceof NotFoundError);
    });
    await withStandIn([ok({ ...ENTRY, value: null })], async (c) => {
      const error = await rejection(() => ordered(c).getEntry(KEY));
      assert.ok(error instanceof ResponseShapeError && error.field === 'value', error.message);
    });
  });

  it('create posts the value as JSON with the key in the query', async () => {
    let created: unknown;
    const seen = await withStandIn([ok()], async (c) => {
      created = await ordered(c).createEntry({ ...KEY, value: 78 });
    });
    assert.deepEqual(created, { key: '45348281', value: 78 });
    assert.deepEqual(seen, [
      { method: 'POST', path: BASE, query: { id: '45348281' }, body: { value: 78 }, contentType: 'application/json' },
    ]);
  });

  it("create of a key that exists (the service's 400) is an AlreadyExistsError, found by reading the key", async () => {
    const seen = await withStandIn([[400, v2Error('INVALID_ARGUMENT', 'Entry already exists.')], ok()], async (c) => {
      const error = await rejection(() => ordered(c).createEntry({ ...KEY, value: 1 }));
      assert.ok(error instanceof AlreadyExistsError, error.message);
      assert.equal(error.status, 400);
    });
    assert.deepEqual(
      seen.map((s) => [s.method, s.path]),
      [
        ['POST', BASE],
        ['GET', `${BASE}/45348281`],
      ],
    );
  });

  it('a 400 of create for another reason stays the InvalidArgumentError when the key is not there', async () => {
    await withStandIn(
      [
        [400, v2Error('INVALID_ARGUMENT', 'Value out of range.')],
        [404, v2Error('NOT_FOUND', 'Entry not found.')],
      ],
      async (c) => {
        const error = await rejection(() => ordered(c).createEntry({ ...KEY, value: 1 }));
        assert.ok(error instanceof InvalidArgumentError && !(error instanceof AlreadyExistsError), error.name);
        assert.match(error.message, /Value out of range/);
      },
    );
  });

  it('update patches the value, with allowMissing=true only when asked', async () => {
    const seen = await withStandIn([ok()], async (c) => {
      await ordered(c).updateEntry({ ...KEY, value: -3, allowMissing: true });
      await ordered(c).updateEntry({ ...KEY, value: 0, allowMissing: false });
    });
    assert.deepEqual(
      seen.map((s) => [s.method, s.path, s.query, s.body, s.contentType]),
      [
        ['PATCH', `${BASE}/45348281`, { allowMissing: 'true' }, { value: -3 }, 'application/json'],
        ['PATCH', `${BASE}/45348281`, {}, { value: 0 }, 'application/json'],
      ],
    );
  });

  it('increment posts the amount to :increment and gives the new value', async () => {
    let after: unknown;
    const seen = await withStandIn([ok({ ...ENTRY, value: 42 })], async (c) => {
      after = await ordered(c).incrementEntry({ ...KEY, amount: -36 });
    });
    assert.deepEqual(after, { key: '45348281', value: 42 });
    assert.deepEqual(
      seen.map((s) => [s.method, s.path, s.body]),
      [['POST', `${BASE}/45348281:increment`, { amount: -36 }]],
    );
  });

  it('delete sends DELETE; a missing key counts as deleted; other refusals stay errors', async () => {
    const seen = await withStandIn(
      [ok({}), [404, v2Error('NOT_FOUND', 'Entry not found.')], [403, v2Error('PERMISSION_DENIED', 'No.')]],
      async (c) => {
        await ordered(c).deleteEntry(KEY);
        await ordered(c).deleteEntry(KEY);
        assert.ok((await rejection(() => ordered(c).deleteEntry(KEY))) instanceof PermissionDeniedError);
      },
    );
    assert.deepEqual(
      seen.map((s) => [s.method, s.path]),
      Array(3).fill(['DELETE', `${BASE}/45348281`]),
    );
  });

  it('refuses keys outside 1 to 50 bytes of UTF-8 and values that are not whole numbers, before sending', async () => {
    const seen = await withStandIn([ok()], async (c) => {
      const o = ordered(c);
      for (const entryKey of ['', 'k'.repeat(51), 'é'.repeat(26)]) {
        for (const call of [
          () => o.getEntry({ ...KEY, entryKey }),
          () => o.createEntry({ ...KEY, entryKey, value: 1 }),
          () => o.deleteEntry({ ...KEY, entryKey }),
        ]) {
          assert.ok((await rejection(call)) instanceof RangeError, entryKey);
        }
      }
      for (const value of [1.5, 2 ** 53, -(2 ** 53), Number.POSITIVE_INFINITY]) {
        assert.ok((await rejection(() => o.createEntry({ ...KEY, value }))) instanceof RangeError, String(value));
        assert.ok((await rejection(() => o.updateEntry({ ...KEY, value }))) instanceof RangeError, String(value));
        assert.ok((await rejection(() => o.incrementEntry({ ...KEY, amount: value }))) instanceof RangeError);
      }
      await o.getEntry({ ...KEY, entryKey: 'é'.repeat(25) }); // 50 bytes
    });
    assert.equal(seen.length, 1);
  });
});

describe('ordered data stores: retries', () => {
  const failures: Answer[] = [
    [500, v2Error('INTERNAL', 'x')],
    [502, 'Bad gateway'],
    [503, v2Error('UNAVAILABLE', 'x')],
    [503, v2Error('UNAVAILABLE', 'x'), { 'retry-after': '0' }],
    [429, v2Error('RESOURCE_EXHAUSTED', 'x')],
  ];

  it('never repeats a create or an increment, whatever the failure', async () => {
    for (const failure of failures) {
      for (const [name, call] of [
        ['create', (c: OpenApiClient) => ordered(c).createEntry({ ...KEY, value: 1 })],
        ['increment', (c: OpenApiClient) => ordered(c).incrementEntry({ ...KEY, amount: 1 })],
      ] as const) {
        const seen = await withStandIn([failure, ok()], async (c) => {
          const error = await rejection(() => call(c));
          assert.ok(error instanceof ServerError || error instanceof RateLimitedError, `${name}: ${error.name}`);
        });
        // A create's 5xx or 429 is not a 400: nothing is read to look for an existing key either.
        assert.equal(seen.length, 1, `${name} after ${failure[0]}`);
      }
    }
  });

  it('repeats an update only when the service says it did not apply it; a delete after any passing failure', async () => {
    const counts: Record<string, number[]> = { update: [], delete: [] };
    for (const failure of failures) {
      counts.update.push(
        (
          await withStandIn([failure, ok()], (c) =>
            ordered(c)
              .updateEntry({ ...KEY, value: 1 })
              .catch(() => 0),
          )
        ).length,
      );
      counts.delete.push(
        (
          await withStandIn([failure, ok({})], (c) =>
            ordered(c)
              .deleteEntry(KEY)
              .catch(() => 0),
          )
        ).length,
      );
    }
    assert.deepEqual(counts, { update: [1, 1, 1, 2, 2], delete: [1, 2, 2, 2, 2] });
  });
});

describe('ordered data stores: the write guard and cancelling', () => {
  const refuse = { writeGuard: () => 'universe 5097539509 is read-only: allow writes on its row' };

  it('every write is refused on a read-only universe before it is sent; reads go through', async () => {
    const writes: Record<string, (c: OpenApiClient) => Promise<unknown>> = {
      createEntry: (c) => ordered(c).createEntry({ ...KEY, value: 1 }),
      updateEntry: (c) => ordered(c).updateEntry({ ...KEY, value: 1 }),
      incrementEntry: (c) => ordered(c).incrementEntry({ ...KEY, amount: 1 }),
      deleteEntry: (c) => ordered(c).deleteEntry(KEY),
    };
    const reads: Record<string, (c: OpenApiClient) => Promise<unknown>> = {
      listEntries: (c) => ordered(c).listEntries(STORE),
      getEntry: (c) => ordered(c).getEntry(KEY),
    };
    const helpers = ['entriesPath', 'entryPath', 'entry'];
    const functions = Object.getOwnPropertyNames(OrderedDataStoresApi.prototype).filter((n) => n !== 'constructor');
    assert.deepEqual(functions.sort(), [...Object.keys(writes), ...Object.keys(reads), ...helpers].sort());
    const seen = await withStandIn(
      [ok({ ...ENTRY, orderedDataStoreEntries: [] })],
      async (c) => {
        for (const [name, write] of Object.entries(writes)) {
          const error = await rejection(() => write(c));
          assert.ok(error instanceof WriteRefusedError, `${name}: ${error.message}`);
          assert.equal(error.universeId, U);
        }
        for (const read of Object.values(reads)) await read(c);
      },
      refuse,
    );
    assert.equal(seen.length, Object.keys(reads).length);
  });

  it('an aborted signal rejects with an AbortError', async () => {
    await withStandIn([ok()], async (c) => {
      const error = await rejection(() => ordered(c).getEntry(KEY, { signal: AbortSignal.abort() }));
      assert.ok(isAbort(error), error.message);
    });
  });
});
