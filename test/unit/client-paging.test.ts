// The page every list call returns, against the real emulator over loopback HTTP: awaited, one page; iterated, every
// item of every page, each fetched only when the one before is used up.
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { ResponseShapeError, type EntryKey } from '../../src/api';
import { rejection } from './support/client';
import { sharedEmulator } from './support/emulator';

const U = 41;
const store = { universeId: U, datastoreName: 'Pages' };
const KEYS = ['k1', 'k2', 'k3', 'k4', 'k5'];
const LIST_PATH = '/standard-datastores/datastore/entries';
const shared = sharedEmulator();
beforeEach(async () => {
  for (const entryKey of KEYS) await shared.client.datastores.setEntry({ ...store, entryKey, value: 1 });
});

const listRequests = async () => (await shared.emulator.requests({ method: 'GET', path: LIST_PATH })).length;
const keysOf = (keys: EntryKey[]) => keys.map((k) => k.key);

describe('a list call awaited', () => {
  it('gives one page: its items and the cursor of the next', async () => {
    const first = await shared.client.datastores.listEntries({ ...store, limit: 2 });
    assert.deepEqual(first.items, [
      { scope: 'global', key: 'k1' },
      { scope: 'global', key: 'k2' },
    ]);
    assert.ok(first.next);
    const second = await shared.client.datastores.listEntries({ ...store, limit: 2, cursor: first.next });
    assert.deepEqual(keysOf(second.items), ['k3', 'k4']);
    const last = await shared.client.datastores.listEntries({ ...store, limit: 2, cursor: second.next });
    assert.deepEqual([keysOf(last.items), last.next], [['k5'], undefined]);
  });

  it('nextPage() follows the cursor, and is undefined on the last page without a request', async () => {
    const first = await shared.client.datastores.listEntries({ ...store, limit: 3 });
    const last = await first.nextPage();
    assert.deepEqual([keysOf(last!.items), last!.next], [['k4', 'k5'], undefined]);
    const before = await listRequests();
    assert.equal(await last!.nextPage(), undefined);
    assert.equal(await listRequests(), before);
  });
});

describe('a list call iterated', () => {
  it('yields every item of every page, in order', async () => {
    const keys = [];
    for await (const k of shared.client.datastores.listEntries({ ...store, limit: 2 })) keys.push(k.key);
    assert.deepEqual(keys, KEYS);
    assert.equal(await listRequests(), 3);
  });

  it('fetches a page only when the one before is used up', async () => {
    for await (const k of shared.client.datastores.listEntries({ ...store, limit: 2 })) {
      if (k.key === 'k2') break;
    }
    assert.equal(await listRequests(), 1);
  });

  it('a page iterated goes on from that page, and again from the start when iterated twice', async () => {
    const first = await shared.client.datastores.listEntries({ ...store, limit: 2 });
    const second = await first.nextPage();
    for (let i = 0; i < 2; i++) {
      const keys = [];
      for await (const k of second!) keys.push(k.key);
      assert.deepEqual(keys, ['k3', 'k4', 'k5']);
    }
    assert.deepEqual(keysOf((await first.nextPage())!.items), ['k3', 'k4'], 'a page may be followed twice');
  });

  it('a cursor the service repeats is a ResponseShapeError naming the field, after the items before it', async () => {
    const body = JSON.stringify({ keys: [{ key: 'loop' }], nextPageCursor: 'same' });
    await shared.emulator.fault({ method: 'GET', path: LIST_PATH, status: 200, body, times: 2 });
    const keys: string[] = [];
    const err = await rejection(async () => {
      for await (const k of shared.client.datastores.listEntries(store)) keys.push(k.key);
    });
    assert.ok(err instanceof ResponseShapeError, String(err));
    assert.equal(err.field, 'nextPageCursor');
    assert.match(err.message, /the same nextPageCursor twice/);
    assert.deepEqual(keys, ['loop', 'loop']);
    assert.equal(await listRequests(), 2);
  });

  it('a page token repeated by the restrictions list is a ResponseShapeError too', async () => {
    const body = JSON.stringify({ userRestrictions: [], nextPageToken: 'again' });
    await shared.emulator.fault({ method: 'GET', path: '/user-restrictions', status: 200, body, times: 2 });
    const second = await (await shared.client.restrictions.list({ universeId: U })).nextPage();
    const err = await rejection(() => second!.nextPage());
    assert.ok(err instanceof ResponseShapeError, String(err));
    assert.equal(err.field, 'nextPageToken');
  });

  it('an aborted signal stops the iteration before the next page', async () => {
    const ac = new AbortController();
    const keys: string[] = [];
    const err = await rejection(async () => {
      for await (const k of shared.client.datastores.listEntries({ ...store, limit: 2 }, { signal: ac.signal })) {
        keys.push(k.key);
        if (k.key === 'k3') ac.abort();
      }
    });
    assert.equal(err.name, 'AbortError');
    assert.deepEqual(keys, ['k1', 'k2', 'k3', 'k4']);
    assert.equal(await listRequests(), 2);
  });

  it('a first page that fails reaches a caller that only iterates, and nothing else', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const denied = { status: 403, body: '{"error":"PERMISSION_DENIED"}' };
      await shared.emulator.fault({ method: 'GET', path: LIST_PATH, ...denied });
      const keys = shared.client.datastores.listEntries(store);
      await new Promise((resolve) => setTimeout(resolve, 200)); // the request fails before the iteration starts
      const err = await rejection(async () => {
        for await (const k of keys) assert.fail(`unexpected ${k.key}`);
      });
      assert.equal(err.name, 'PermissionDeniedError');
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
