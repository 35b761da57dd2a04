// v1 and cloud v2 over the same stored data, through the client and through the entry service the editor uses,
// against the real emulator over loopback HTTP.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { entryService, UnsupportedError, type Entry, type EntryService } from '../../src/api';
import { API_KEY, rejection } from './support/client';
import { sharedEmulator } from './support/emulator';

const START = Date.parse('2024-01-15T10:00:00.000Z');
const HOUR = 3_600_000;
const U = 4343;
const store = { universeId: U, datastoreName: 'Cross' };
const none = { userIds: [], attributes: {} };
const shared = sharedEmulator({ apiKeys: [{ key: API_KEY }], clock: START });
const v1 = () => shared.client.datastores;
const v2 = () => shared.client.datastoresV2;
const both = (): EntryService[] => [entryService(shared.client, 'v1'), entryService(shared.client, 'v2')];

/** What an entry read holds, the same whichever API read it (times as instants: v1 writes them .NET style). */
const held = (e: Entry | undefined) =>
  e && {
    value: e.value,
    raw: e.raw.toString(),
    version: e.version,
    createdTime: Date.parse(e.createdTime!),
    versionCreatedTime: Date.parse(e.versionCreatedTime!),
    userIds: e.userIds,
    attributes: e.attributes,
  };

describe('one store, two APIs', () => {
  it('a v1 write reads through v2 and a v2 write through v1, the version being the revisionId', async () => {
    const at = { ...store, entryKey: 'k' };
    const set = await v1().setEntry({ ...at, value: { coins: 5 }, userIds: [7, 8], attributes: { team: 'é' } });
    const read2 = await v2().getEntry(at);
    assert.equal(read2.version, set.version);
    assert.deepEqual(held(read2), held(await v1().getEntry(at)));

    const written = await v2().updateEntry({ ...at, value: { coins: 6 }, userIds: [9], attributes: { a: 1 } });
    const read1 = await v1().getEntry(at);
    assert.equal(read1.version, written.version);
    assert.deepEqual(held(read1), held(written));
    assert.equal(read1.raw.toString(), '{"coins":6}');

    const versions = (await v1().listEntryVersions({ ...at, sortOrder: 'Descending' })).items;
    const revisions = (await v2().listRevisions(at)).items;
    assert.deepEqual(
      revisions.map((r) => [r.version, r.deleted, Date.parse(r.createdTime), Date.parse(r.objectCreatedTime!)]),
      versions.map((v) => [v.version, v.deleted, Date.parse(v.createdTime), Date.parse(v.objectCreatedTime!)]),
    );
  });

  it('a v1 increment and delete are seen by v2, and the reverse', async () => {
    const at = { ...store, entryKey: 'n' };
    await v1().incrementEntry({ ...at, incrementBy: 2 });
    assert.equal((await v2().incrementEntry({ ...at, amount: 3, ...none })).value, 5);
    assert.equal((await v1().getEntry(at)).value, 5);
    await v1().deleteEntry(at);
    assert.deepEqual((await v2().listEntries({ ...store, showDeleted: true })).items, [{ scope: 'global', key: 'n' }]);
    assert.deepEqual((await v2().listEntries(store)).items, []);
    await v2().updateEntry({ ...at, value: 1, allowMissing: true, ...none });
    await v2().deleteEntry(at);
    assert.deepEqual((await v1().listEntries(store)).items, [{ scope: 'global', key: 'n' }]);
    assert.equal((await v1().listEntryVersions({ ...at, sortOrder: 'Descending' })).items[0].deleted, true);
  });
});

describe('the entry service', () => {
  it('says which API it speaks', () => {
    assert.deepEqual(
      both().map((s) => s.apiVersion),
      ['v1', 'v2'],
    );
  });

  it('entryAt gives the same answer on v1 and v2 for the same history', async () => {
    const at = { ...store, entryKey: 'k' };
    await v1().setEntry({ ...at, value: { n: 0 }, userIds: [1], attributes: { a: 'x' } });
    await shared.emulator.advanceClock(2 * HOUR);
    await v2().updateEntry({ ...at, value: { n: 1 }, userIds: [2], attributes: {} });
    await shared.emulator.advanceClock(2 * HOUR);
    await v1().deleteEntry(at);
    await shared.emulator.advanceClock(2 * HOUR);
    await v1().setEntry({ ...at, value: { n: 2 } });
    const address = { universeId: U, datastoreName: 'Cross', key: 'k' };
    const expected = [undefined, { n: 0 }, { n: 1 }, undefined, { n: 2 }];
    const times = [-HOUR, HOUR, 3 * HOUR, 5 * HOUR, 6 * HOUR + 5000].map((ms) => new Date(START + ms));
    for (const [i, time] of times.entries()) {
      const [one, two] = await Promise.all(both().map((s) => s.entryAt(address, time)));
      assert.deepEqual(held(two), held(one), time.toISOString());
      assert.deepEqual(one?.value, expected[i], time.toISOString());
    }
    const v2Reads = await shared.emulator.requests({ method: 'GET', path: '@latest:' });
    assert.equal(v2Reads.length, times.length, 'v2: one request each');
  });

  it('a key with "/" is read at a time through v1 on a v2 connection', async () => {
    await v1().setEntry({ ...store, entryKey: 'a/b', value: 'slash' });
    const entry = await entryService(shared.client, 'v2').entryAt({ ...store, key: 'a/b' }, new Date(START + 60_000));
    assert.equal(entry?.value, 'slash');
    assert.deepEqual(await shared.emulator.requests({ path: '/cloud/v2/' }), []);
  });

  it('lists stores with their state; only v2 deletes, undeletes and snapshots', async () => {
    await v1().setEntry({ ...store, entryKey: 'k', value: 1 });
    await v1().setEntry({ universeId: U, datastoreName: 'Old', entryKey: 'k', value: 1 });
    const [one, two] = both();
    for (const call of [() => one.snapshot(U), () => one.deleteStore(U, 'Old'), () => one.undeleteStore(U, 'Old')]) {
      const err = await rejection(call);
      assert.ok(err instanceof UnsupportedError, String(err));
      assert.match(err.message, /v2 data stores API/);
    }
    assert.equal((await two.deleteStore(U, 'Old')).state, 'deleted');
    const names = async (s: EntryService, showDeleted?: boolean) => {
      const out = [];
      for await (const d of s.listStores(U, { showDeleted, limit: 1 })) out.push(`${d.name}:${d.state}`);
      return out.sort();
    };
    assert.deepEqual(await names(one), ['Cross:active']);
    assert.deepEqual(await names(two), ['Cross:active']);
    assert.deepEqual(await names(two, true), ['Cross:active', 'Old:deleted']);
    assert.equal((await two.undeleteStore(U, 'Old')).state, 'active');
    assert.deepEqual(await names(one), ['Cross:active', 'Old:active']);
    assert.deepEqual(
      (await one.listStores(U, { prefix: 'O' })).items.map((d) => d.name),
      ['Old'],
    );
    assert.equal((await two.snapshot(U)).newSnapshotTaken, true);
  });

  it('listKeys: v1 shows deleted keys, v2 only with showDeleted; a scope with "/" lists through v1', async () => {
    await v1().setEntry({ ...store, entryKey: 'live', value: 1 });
    await v1().setEntry({ ...store, entryKey: 'gone', value: 1 });
    await v1().deleteEntry({ ...store, entryKey: 'gone' });
    await v1().setEntry({ ...store, scope: 'x/y', entryKey: 'k', value: 1 });
    const [one, two] = both();
    const keys = async (s: EntryService, args: { showDeleted?: boolean; scope?: string; allScopes?: boolean }) => {
      const out = [];
      for await (const k of s.listKeys({ ...store, ...args, limit: 1 })) out.push(`${k.scope}:${k.key}`);
      return out.sort();
    };
    assert.deepEqual(await keys(one, {}), ['global:gone', 'global:live']);
    assert.deepEqual(await keys(two, {}), ['global:live']);
    assert.deepEqual(await keys(two, { showDeleted: true }), ['global:gone', 'global:live']);
    assert.deepEqual(await keys(two, { allScopes: true }), ['global:live', 'x/y:k']);
    assert.deepEqual(await keys(two, { scope: 'x/y' }), ['x/y:k']);
  });
});
