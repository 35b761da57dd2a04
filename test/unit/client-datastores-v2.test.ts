// The cloud v2 data stores client against the real emulator over loopback HTTP, written from the reference
// (open-api-datastores-v2.md) and its section 5 decisions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AlreadyExistsError,
  ConflictError,
  InvalidArgumentError,
  NeedsV1Error,
  NotFoundError,
  RateLimitedError,
  ServerError,
} from '../../src/api';
import { API_KEY, makeClient, rejection } from './support/client';
import { sharedEmulator } from './support/emulator';
import { firstOf, startLosingProxy } from './support/proxy';

const START = Date.parse('2024-01-15T10:00:00.000Z');
const HOUR = 3_600_000;
const U = 4242;
const store = { universeId: U, datastoreName: 'Inventory' };
const none = { userIds: [], attributes: {} };
const shared = sharedEmulator({ apiKeys: [{ key: API_KEY }], clock: START });
const v2 = () => shared.client.datastoresV2;

interface Seen {
  method: string;
  path: string;
  query: string;
  status: number;
}
/** The emulator's clock runs on from START, so its times are START plus the test's own few milliseconds. */
function near(time: string | undefined, ms: number): void {
  const got = Date.parse(time ?? '');
  assert.ok(got >= ms && got - ms < 5000, `${time} is not just after ${new Date(ms).toISOString()}`);
}
const seen = async (method?: string, path?: string): Promise<Seen[]> =>
  (await shared.emulator.requests({ method, path })) as Seen[];

/** r0 at START, r1 two hours on, a delete two hours on, r2 two hours on: each in its own hour, none thinned. */
async function history(entryKey: string): Promise<string[]> {
  const at = { ...store, entryKey, ...none };
  const r0 = (await v2().createEntry({ ...at, value: 0 })).version;
  await shared.emulator.advanceClock(2 * HOUR);
  const r1 = (await v2().updateEntry({ ...at, value: 1 })).version;
  await shared.emulator.advanceClock(2 * HOUR);
  await v2().deleteEntry(at);
  await shared.emulator.advanceClock(2 * HOUR);
  const r2 = (await v2().updateEntry({ ...at, value: 2, allowMissing: true })).version;
  return [r0, r1, r2];
}

describe('data stores', () => {
  it('lists with a prefix and page by page; a deleted store is hidden until undeleted', async () => {
    for (const datastoreName of ['Inventory', 'Invites', 'Other']) {
      await v2().createEntry({ universeId: U, datastoreName, entryKey: 'k', value: 1, ...none });
    }
    const names = [];
    for await (const s of v2().listDataStores({ universeId: U, limit: 1 })) names.push(`${s.name}:${s.state}`);
    assert.deepEqual(names.sort(), ['Inventory:active', 'Invites:active', 'Other:active']);
    const inv = await v2().listDataStores({ universeId: U, prefix: 'Inv' });
    assert.deepEqual(inv.items.map((s) => s.name).sort(), ['Inventory', 'Invites']);
    assert.ok(inv.items.every((s) => s.createdTime && s.expireTime === undefined));

    const other = { universeId: U, datastoreName: 'Other' };
    const deleted = await v2().deleteDataStore(other);
    assert.equal(deleted.state, 'deleted');
    near(deleted.expireTime, START + 30 * 24 * HOUR);
    const listed = async (showDeleted?: boolean) =>
      (await v2().listDataStores({ universeId: U, showDeleted })).items.map((s) => `${s.name}:${s.state}`).sort();
    assert.deepEqual(await listed(), ['Inventory:active', 'Invites:active']);
    assert.deepEqual(await listed(true), ['Inventory:active', 'Invites:active', 'Other:deleted']);
    assert.ok((await rejection(() => v2().getEntry({ ...other, entryKey: 'k' }))) instanceof NotFoundError);

    assert.equal((await v2().undeleteDataStore(other)).state, 'active');
    assert.equal((await v2().getEntry({ ...other, entryKey: 'k' })).value, 1);
    const unknown = await rejection(() => v2().deleteDataStore({ universeId: U, datastoreName: 'Nope' }));
    assert.ok(unknown instanceof NotFoundError, String(unknown));
  });

  it('snapshot: one a UTC day, a second call answers the first time', async () => {
    const first = await v2().snapshot(U);
    assert.equal(first.newSnapshotTaken, true);
    const again = await v2().snapshot(U);
    assert.deepEqual([again.newSnapshotTaken, again.latestSnapshotTime], [false, first.latestSnapshotTime]);
    near(first.latestSnapshotTime, START);
  });
});

describe('entries', () => {
  it('create returns the entry as v1 reads it; creating it again is AlreadyExistsError', async () => {
    const args = { ...store, entryKey: 'player', value: { gold: 5 }, userIds: [7], attributes: { team: 'red' } };
    const e = await v2().createEntry(args);
    assert.deepEqual(
      [e.value, e.json, e.raw.toString(), e.userIds, e.attributes],
      [{ gold: 5 }, true, '{"gold":5}', [7], { team: 'red' }],
    );
    assert.ok(e.version && e.createdTime && e.versionCreatedTime);
    near(e.createdTime, START);

    const err = await rejection(() => v2().createEntry({ ...args, value: { gold: 0 } }));
    assert.ok(err instanceof AlreadyExistsError && err instanceof ConflictError, String(err));
    assert.equal(err.status, 400);
    assert.match(err.message, /already exists/);
    assert.deepEqual((await v2().getEntry(args)).value, { gold: 5 });
  });

  it('a 400 on create for a key that is not there keeps the service message', async () => {
    const err = await rejection(() => v2().createEntry({ ...store, entryKey: 'k'.repeat(51), value: 1, ...none }));
    assert.ok(err instanceof InvalidArgumentError && !(err instanceof AlreadyExistsError), String(err));
  });

  it('get always reads @latest; a missing key is NotFoundError', async () => {
    await v2().createEntry({ ...store, entryKey: 'k', value: 'v', ...none });
    assert.equal((await v2().getEntry({ ...store, entryKey: 'k' })).value, 'v');
    const err = await rejection(() => v2().getEntry({ ...store, entryKey: 'missing' }));
    assert.ok(err instanceof NotFoundError && err.status === 404, String(err));
    const gets = await seen('GET', '/entries/');
    assert.deepEqual(
      gets.map((r) => r.path.split('/').pop()),
      ['k@latest', 'missing@latest'],
    );
  });

  it('update: a missing key is 404 unless allowMissing; raw text is sent as typed', async () => {
    const at = { ...store, entryKey: 'doc', ...none };
    assert.ok((await rejection(() => v2().updateEntry({ ...at, value: 1 }))) instanceof NotFoundError);
    assert.equal((await v2().updateEntry({ ...at, value: 1, allowMissing: true })).value, 1);
    const raw = '{\n  "name": "Zoë",\n  "list": [1, 2]\n}\n';
    const e = await v2().updateEntry({ ...at, raw });
    assert.deepEqual(e.value, { name: 'Zoë', list: [1, 2] });
    assert.equal(e.raw.toString(), '{"name":"Zoë","list":[1,2]}');
    const before = (await seen()).length;
    const bad = await rejection(() => v2().updateEntry({ ...at, raw: '{"a":' }));
    assert.ok(bad instanceof TypeError && /not valid JSON/.test(bad.message), String(bad));
    assert.equal((await seen()).length, before, 'nothing sent');
  });

  it('users and attributes round trip; a write with them empty clears them', async () => {
    const at = { ...store, entryKey: 'k' };
    const attributes = { note: 'héllo ☃', n: 1 };
    await v2().createEntry({ ...at, value: 'v', userIds: [1, 22], attributes });
    const e = await v2().getEntry(at);
    assert.deepEqual([e.userIds, e.attributes], [[1, 22], attributes]);
    await v2().incrementEntry({ ...store, entryKey: 'n', amount: 1, userIds: [5], attributes: { a: true } });
    assert.deepEqual((await v2().getEntry({ ...store, entryKey: 'n' })).userIds, [5]);
    await v2().updateEntry({ ...at, value: 'w', ...none });
    const cleared = await v2().getEntry(at);
    assert.deepEqual([cleared.userIds, cleared.attributes], [[], {}]);
    // Checked by the type checker: leaving metadata out would clear it on the service, so the types require it.
    const leftOut = () =>
      // @ts-expect-error userIds and attributes are required
      v2().updateEntry({ ...at, value: 1 });
    assert.equal(typeof leftOut, 'function');
  });

  it('increment creates with the amount, adds, and refuses a value that is not a whole number', async () => {
    const at = { ...store, entryKey: 'count', ...none };
    const created = await v2().incrementEntry({ ...at, amount: 5 });
    assert.equal(created.value, 5);
    const next = await v2().incrementEntry({ ...at, amount: -2 });
    assert.deepEqual([next.value, next.raw.toString()], [3, '3']);
    assert.notEqual(next.version, created.version);
    await v2().createEntry({ ...store, entryKey: 'text', value: 'abc', ...none });
    const err = await rejection(() => v2().incrementEntry({ ...store, entryKey: 'text', amount: 1, ...none }));
    assert.ok(err instanceof InvalidArgumentError, String(err));
  });

  it('delete: then get is 404; deleting a deleted or unknown key is done', async () => {
    const at = { ...store, entryKey: 'gone' };
    await v2().createEntry({ ...at, value: 1, ...none });
    await v2().deleteEntry(at);
    assert.ok((await rejection(() => v2().getEntry(at))) instanceof NotFoundError);
    await v2().deleteEntry(at);
    await v2().deleteEntry({ ...store, entryKey: 'never' });
    assert.deepEqual(
      (await seen('DELETE')).map((r) => r.status),
      [200, 404, 404],
    );
  });

  it('revisions: newest first with the deletion, time bounds, paging, one by id', async () => {
    const [r0, r1, r2] = await history('k');
    const at = { ...store, entryKey: 'k' };
    const all = (await v2().listRevisions(at)).items;
    assert.equal(all.length, 4);
    assert.deepEqual(
      all.map((r) => r.deleted),
      [false, true, false, false],
    );
    assert.deepEqual([all[0].version, all[2].version, all[3].version], [r2, r1, r0]);
    assert.ok(all.every((r) => r.contentLength === undefined && r.objectCreatedTime && r.createdTime));
    near(all[3].createdTime, START);

    const paged = [];
    for await (const r of v2().listRevisions({ ...at, limit: 1 })) paged.push(r.version);
    assert.deepEqual(
      paged,
      all.map((r) => r.version),
    );
    const window = v2().listRevisions({
      ...at,
      startTime: new Date(START + HOUR).toISOString(),
      endTime: new Date(START + 3 * HOUR).toISOString(),
    });
    assert.deepEqual(
      (await window).items.map((r) => r.version),
      [r1],
    );

    const old = await v2().getEntryRevision({ ...at, revisionId: r0 });
    assert.deepEqual([old.value, old.version], [0, r0]);
    const other = await v2().createEntry({ ...store, entryKey: 'other', value: 1, ...none });
    for (const revisionId of [other.version, 'not-a-revision']) {
      const err = await rejection(() => v2().getEntryRevision({ ...at, revisionId }));
      assert.ok(err instanceof NotFoundError, `${revisionId}: ${String(err)}`);
    }
  });

  it('getEntryAt: the value then, to the millisecond; undefined before creation and while deleted', async () => {
    await history('k');
    const at = (ms: number) => v2().getEntryAt({ ...store, entryKey: 'k', time: new Date(START + ms) });
    assert.equal(await at(-HOUR), undefined);
    assert.equal((await at(HOUR + 123))?.value, 0);
    assert.equal((await at(3 * HOUR))?.value, 1);
    assert.equal(await at(5 * HOUR), undefined);
    assert.equal((await at(6 * HOUR + 5000))?.value, 2);
    const asked = (await seen('GET', '@latest:')).map((r) => decodeURIComponent(r.path.split('@latest:')[1]));
    assert.equal(asked[1], new Date(START + HOUR + 123).toISOString());
    assert.ok(
      asked.every((t) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(t)),
      asked.join(),
    );
  });
});

describe('listing keys', () => {
  it('a prefix is sent inside id.startsWith("…") with quotes and backslashes escaped', async () => {
    for (const entryKey of ['say "hi"', 'say "hi" again', 'say', 'back\\slash', 'other']) {
      await v2().createEntry({ ...store, entryKey, value: 1, ...none });
    }
    const keys = async (prefix: string) =>
      (await v2().listEntries({ ...store, prefix })).items.map((k) => k.key).sort();
    assert.deepEqual(await keys('say "hi"'), ['say "hi"', 'say "hi" again']);
    assert.deepEqual(await keys('back\\'), ['back\\slash']);
    const filters = (await seen('GET', '/entries')).map((r) => new URLSearchParams(r.query).get('filter'));
    assert.deepEqual(filters, ['id.startsWith("say \\"hi\\"")', 'id.startsWith("back\\\\")']);
  });

  it('every scope, each key with its scope; deleted keys only with showDeleted', async () => {
    await v2().createEntry({ ...store, entryKey: 'a', value: 1, ...none });
    await v2().createEntry({ ...store, entryKey: 'b', value: 1, ...none });
    await v2().createEntry({ ...store, scope: 'special', entryKey: 'c', value: 1, ...none });
    await v2().deleteEntry({ ...store, entryKey: 'b' });
    const list = async (args: { allScopes?: boolean; scope?: string; showDeleted?: boolean }) => {
      const out = [];
      for await (const k of v2().listEntries({ ...store, ...args, limit: 1 })) out.push(`${k.scope}:${k.key}`);
      return out.sort();
    };
    assert.deepEqual(await list({ allScopes: true }), ['global:a', 'special:c']);
    assert.deepEqual(await list({ allScopes: true, showDeleted: true }), ['global:a', 'global:b', 'special:c']);
    assert.deepEqual(await list({ scope: 'special' }), ['special:c']);
    assert.deepEqual(await list({}), ['global:a']);
    assert.ok((await seen('GET', '/scopes/-/entries')).length > 0);
  });

  it('keeps paging through empty pages (deleted keys skipped 512 at a time)', async () => {
    const dead = Array.from({ length: 520 }, (_, i) => `dead-${String(i).padStart(3, '0')}`);
    const v1 = shared.client.datastores;
    for (let i = 0; i < dead.length; i += 52) {
      const batch = dead.slice(i, i + 52).map((entryKey) => ({ ...store, entryKey }));
      await Promise.all(batch.map((at) => v1.setEntry({ ...at, value: 1 })));
      await Promise.all(batch.map((at) => v1.deleteEntry(at)));
    }
    await v1.setEntry({ ...store, entryKey: 'live-1', value: 1 });
    await v1.setEntry({ ...store, entryKey: 'live-2', value: 1 });
    const first = await v2().listEntries(store);
    assert.deepEqual([first.items.length, first.next !== undefined], [0, true]);
    const keys = [];
    for await (const k of v2().listEntries(store)) keys.push(k.key);
    assert.deepEqual(keys, ['live-1', 'live-2']);
  });

  it('a page size is sent within 1..256', async () => {
    await v2().listEntries({ ...store, limit: 1000 });
    await v2().listEntries({ ...store, limit: 0 });
    const sizes = (await seen('GET', '/entries')).map((r) => new URLSearchParams(r.query).get('maxPageSize'));
    assert.deepEqual(sizes, ['256', '1']);
  });
});

describe('names in paths', () => {
  const names: [scope: string, key: string][] = [
    ['scope@1', 'a@b'],
    ['sc:2', 'x:y'],
    ['50%', '100%'],
    ['my scope', 'with space'],
    ['ñandú', 'é☃日本'],
  ];
  for (const [scope, entryKey] of names) {
    it(`scope ${JSON.stringify(scope)}, key ${JSON.stringify(entryKey)}: every entry call`, async () => {
      const at = { ...store, scope, entryKey };
      const created = await v2().createEntry({ ...at, value: 1, ...none });
      assert.equal((await v2().getEntry(at)).value, 1);
      assert.equal((await v2().incrementEntry({ ...at, amount: 2, ...none })).value, 3);
      await v2().updateEntry({ ...at, value: 'x', ...none });
      assert.equal((await v2().getEntryRevision({ ...at, revisionId: created.version })).value, 1);
      assert.equal((await v2().listRevisions(at)).items.length, 3);
      assert.equal(
        (await v2().getEntryAt({ ...at, time: new Date(Date.parse(created.createdTime!) + 2000) }))?.value,
        'x',
      );
      assert.deepEqual((await v2().listEntries({ ...store, scope })).items, [{ scope, key: entryKey }]);
      assert.deepEqual((await v2().listEntries({ ...store, allScopes: true })).items, [{ scope, key: entryKey }]);
      assert.deepEqual((await v2().listEntries({ ...store, scope, prefix: entryKey })).items.length, 1);
      await v2().deleteEntry(at);
      assert.ok((await rejection(() => v2().getEntry(at))) instanceof NotFoundError);
    });
  }

  it('"/" in a key, scope or store name, and the scope "-", are NeedsV1Error before anything is sent', async () => {
    const calls = [
      () => v2().getEntry({ ...store, entryKey: 'a/b' }),
      () => v2().createEntry({ ...store, entryKey: 'a/b', value: 1, ...none }),
      () => v2().updateEntry({ ...store, entryKey: 'a/b', value: 1, ...none }),
      () => v2().getEntryAt({ ...store, entryKey: 'a/b', time: new Date() }),
      () => v2().getEntry({ ...store, scope: 'x/y', entryKey: 'k' }),
      () => v2().getEntry({ ...store, scope: '-', entryKey: 'k' }),
      () => v2().listEntries({ ...store, scope: 'x/y' }),
      () => v2().listEntries({ universeId: U, datastoreName: 'a/b' }),
    ];
    for (const call of calls) {
      const err = await rejection(call);
      assert.ok(err instanceof NeedsV1Error, String(err));
      assert.match(err.message, /v1 API/);
    }
    assert.deepEqual(await seen(), []);
  });
});

describe('retries and lost answers', () => {
  const k = { ...store, entryKey: 'k' };
  const limited = { status: 429, body: '{"code":"RESOURCE_EXHAUSTED","message":"slow down"}' };

  it('a read answered 429 is retried after retry-after', async () => {
    await v2().createEntry({ ...k, value: 1, ...none });
    await shared.emulator.fault({
      method: 'GET',
      path: '/entries/k@latest',
      ...limited,
      headers: { 'retry-after': '1' },
    });
    const started = Date.now();
    assert.equal((await v2().getEntry(k)).value, 1);
    assert.ok(Date.now() - started >= 1000);
    assert.deepEqual(
      (await seen('GET', '/entries/k')).map((r) => r.status),
      [429, 200],
    );
  });

  it('a 429 that lasts is RateLimitedError with the service code', async () => {
    await shared.emulator.fault({ method: 'GET', path: '/data-stores', ...limited, times: 10 });
    const err = await rejection(() => v2().listDataStores({ universeId: U }));
    assert.ok(err instanceof RateLimitedError, String(err));
    assert.equal(err.code, 'RESOURCE_EXHAUSTED');
    await shared.emulator.clearFaults();
  });

  it('increment is repeated after a 429 (not applied), never after a 503 without retry-after', async () => {
    await shared.emulator.fault({ method: 'POST', path: ':increment', ...limited, headers: { 'retry-after': '0' } });
    assert.equal((await v2().incrementEntry({ ...k, amount: 1, ...none })).value, 1);
    await shared.emulator.fault({ method: 'POST', path: ':increment', status: 503, body: '{"code":"UNAVAILABLE"}' });
    assert.ok((await rejection(() => v2().incrementEntry({ ...k, amount: 1, ...none }))) instanceof ServerError);
    assert.deepEqual(
      (await seen('POST', ':increment')).map((r) => r.status),
      [429, 200, 503],
    );
    assert.equal((await v2().getEntry(k)).value, 1);
  });

  it('a create whose answer was lost returns its own write; one another writer beat is AlreadyExistsError', async () => {
    for (const [entryKey, other] of [
      ['mine', undefined],
      ['theirs', 'x'],
    ] as const) {
      const beforeLoss =
        other &&
        (() =>
          v2()
            .updateEntry({ ...store, entryKey, value: other, ...none })
            .then(() => {}));
      const proxy = await startLosingProxy(shared.emulator.url, firstOf('POST', '/entries'), beforeLoss);
      const client = makeClient(proxy.url).client;
      try {
        const call = client.datastoresV2.createEntry({ ...store, entryKey, value: 1, userIds: [4], attributes: {} });
        if (other) assert.ok((await rejection(() => call)) instanceof AlreadyExistsError);
        else assert.deepEqual([(await call).value, (await call).userIds], [1, [4]]);
        assert.equal(proxy.lost.length, 1);
      } finally {
        await client.close();
        await proxy.close();
      }
    }
  });
});
