// Every data store method of the client against the real emulator over loopback HTTP.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  ApiError,
  AuthError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  PreconditionFailedError,
  ServerError,
  type OpenApiClient,
} from '../../src/api';
import { API_KEY, everything, makeClient, rejection } from './support/client';
import { TestEmulator } from './support/emulator';

const READER_KEY = 'reader-key-only-reads';
const U = 555;
const store = { universeId: U, datastoreName: 'Inventory' };
let emulator: TestEmulator;
let client: OpenApiClient;

before(async () => {
  emulator = await TestEmulator.start({
    apiKeys: [{ key: API_KEY }, { key: READER_KEY, scopes: ['universe-datastores.objects:read'] }],
  });
  client = makeClient(emulator.url).client;
});
after(async () => {
  await client.close();
  await emulator.close();
});
beforeEach(() => emulator.reset());

/** Asserts a documented 400 with its datastoreErrorCode (never a 500). */
async function assertInvalid(call: () => Promise<unknown>, code: string): Promise<void> {
  const err = await rejection(call);
  assert.ok(!(err instanceof ServerError), `got a server error: ${err.message}`);
  assert.ok(err instanceof InvalidArgumentError, `${err.name}: ${err.message}`);
  assert.equal(err.code, code);
}

describe('data stores and entries', () => {
  it('set, get, list data stores with a prefix', async () => {
    const v = await client.datastores.setEntry({ ...store, entryKey: 'player1', value: { gold: 5 } });
    assert.equal(v.deleted, false);
    assert.equal(v.contentLength, Buffer.byteLength('{"gold":5}'));
    await client.datastores.setEntry({ universeId: U, datastoreName: 'Other', entryKey: 'k', value: 1 });

    const entry = await client.datastores.getEntry({ ...store, entryKey: 'player1' });
    assert.deepEqual(entry.value, { gold: 5 });
    assert.equal(entry.version, v.version);
    assert.equal(entry.raw.toString(), '{"gold":5}');
    assert.deepEqual([entry.attributes, entry.userIds], [{}, []]);
    assert.ok(entry.createdTime && entry.versionCreatedTime);

    const names = [];
    for await (const ds of client.datastores.listDataStores({ universeId: U, limit: 1 })) names.push(ds.name);
    assert.deepEqual(names.sort(), ['Inventory', 'Other']);
    const page = await client.datastores.listDataStores({ universeId: U, prefix: 'Inv' });
    assert.deepEqual(
      page.items.map((d) => d.name),
      ['Inventory'],
    );
  });

  it('pages through 1,000 keys in small pages, each exactly once', async () => {
    const keys = Array.from({ length: 1000 }, (_, i) => `key-${String(i).padStart(4, '0')}`);
    for (let i = 0; i < keys.length; i += 50) {
      await Promise.all(
        keys.slice(i, i + 50).map((entryKey) => client.datastores.setEntry({ ...store, entryKey, value: 1 })),
      );
    }
    const seen: string[] = [];
    for await (const k of client.datastores.listEntries({ ...store, limit: 37 })) {
      assert.equal(k.scope, 'global');
      seen.push(k.key);
    }
    assert.equal(seen.length, 1000);
    assert.deepEqual([...seen].sort(), keys);
    const first = await client.datastores.listEntries({ ...store, limit: 37 });
    assert.equal(first.items.length, 37);
    assert.ok(first.next);
  });

  it('lists keys by prefix and across scopes, each keeping its scope', async () => {
    await client.datastores.setEntry({ ...store, entryKey: 'User_1', value: 1 });
    await client.datastores.setEntry({ ...store, scope: 'special', entryKey: 'User_2', value: 2 });
    await client.datastores.setEntry({ ...store, entryKey: 'Other', value: 3 });
    const global = await client.datastores.listEntries({ ...store, prefix: 'User_' });
    assert.deepEqual(global.items, [{ scope: 'global', key: 'User_1' }]);
    const all = [];
    for await (const k of client.datastores.listEntries({ ...store, allScopes: true })) all.push(`${k.scope}:${k.key}`);
    assert.deepEqual(all.sort(), ['global:Other', 'global:User_1', 'special:User_2']);
  });

  it('attributes and user ids round trip; leaving them out clears them', async () => {
    const attributes = { note: 'héllo ☃', n: 1 };
    await client.datastores.setEntry({ ...store, entryKey: 'k', value: 'v', attributes, userIds: [1, 22] });
    const entry = await client.datastores.getEntry({ ...store, entryKey: 'k' });
    assert.deepEqual([entry.attributes, entry.userIds], [attributes, [1, 22]]);
    await client.datastores.setEntry({ ...store, entryKey: 'k', value: 'w' });
    const cleared = await client.datastores.getEntry({ ...store, entryKey: 'k' });
    assert.deepEqual([cleared.attributes, cleared.userIds], [{}, []]);
  });

  it('matchVersion and exclusiveCreate conflicts are 412 with the current entry', async () => {
    const v1 = await client.datastores.setEntry({ ...store, entryKey: 'k', value: 1, userIds: [7] });
    const v2 = await client.datastores.setEntry({
      ...store,
      entryKey: 'k',
      value: 2,
      matchVersion: v1.version,
      userIds: [7],
    });
    assert.notEqual(v2.version, v1.version);

    const stale = await rejection(() =>
      client.datastores.setEntry({ ...store, entryKey: 'k', value: 3, matchVersion: v1.version }),
    );
    assert.ok(stale instanceof PreconditionFailedError, String(stale));
    assert.equal(stale.status, 412);
    assert.equal(stale.current?.version, v2.version);
    assert.deepEqual(stale.current?.userIds, [7]);

    const exists = await rejection(() =>
      client.datastores.setEntry({ ...store, entryKey: 'k', value: 3, exclusiveCreate: true }),
    );
    assert.ok(exists instanceof PreconditionFailedError);
    await assertInvalid(
      () =>
        client.datastores.setEntry({
          ...store,
          entryKey: 'k',
          value: 3,
          exclusiveCreate: true,
          matchVersion: v2.version,
        }),
      'ExclusiveCreateAndMatchVersionCannotBeSet',
    );
    const created = await client.datastores.setEntry({ ...store, entryKey: 'new', value: 0, exclusiveCreate: true });
    assert.ok(created.version);
  });

  it('raw bytes are stored exactly as typed', async () => {
    const raw = '{\n  "name": "Zoë",\n  "list": [1, 2]\n}\n';
    await client.datastores.setEntry({ ...store, entryKey: 'doc', raw });
    const entry = await client.datastores.getEntry({ ...store, entryKey: 'doc' });
    assert.equal(entry.raw.toString('utf8'), raw);
    assert.deepEqual(entry.value, { name: 'Zoë', list: [1, 2] });
  });

  it('delete, then get is 404 EntryNotFound', async () => {
    await client.datastores.setEntry({ ...store, entryKey: 'gone', value: 1 });
    await client.datastores.deleteEntry({ ...store, entryKey: 'gone' });
    const err = await rejection(() => client.datastores.getEntry({ ...store, entryKey: 'gone' }));
    assert.ok(err instanceof NotFoundError);
    assert.equal(err.code, 'EntryNotFound');
    assert.match(err.message, /\(404 EntryNotFound\)$/);
  });

  it('increment creates, adds, and refuses a non-number', async () => {
    const created = await client.datastores.incrementEntry({
      ...store,
      entryKey: 'count',
      incrementBy: 5,
      userIds: [3],
    });
    assert.equal(created.value, 5);
    assert.deepEqual(created.userIds, [3]);
    const next = await client.datastores.incrementEntry({ ...store, entryKey: 'count', incrementBy: -2 });
    assert.equal(next.value, 3);
    assert.notEqual(next.version, created.version);
    await client.datastores.setEntry({ ...store, entryKey: 'text', value: 'abc' });
    await assertInvalid(
      () => client.datastores.incrementEntry({ ...store, entryKey: 'text', incrementBy: 1 }),
      'ExistingValueNotNumeric',
    );
  });

  it('versions: list in both orders, page through, read one', async () => {
    const written: string[] = [];
    for (let i = 0; i < 5; i++)
      written.push((await client.datastores.setEntry({ ...store, entryKey: 'k', value: i })).version);
    await client.datastores.deleteEntry({ ...store, entryKey: 'k' });
    const asc = [];
    for await (const v of client.datastores.listEntryVersions({ ...store, entryKey: 'k', limit: 2 })) asc.push(v);
    assert.ok(asc.length >= 2, 'at least the latest write and the tombstone are kept');
    assert.equal(asc.at(-1)?.deleted, true);
    const desc = await client.datastores.listEntryVersions({ ...store, entryKey: 'k', sortOrder: 'Descending' });
    assert.equal(desc.items[0].version, asc.at(-1)?.version);
    assert.ok(asc.some((v) => v.version === written[4]));

    const old = await client.datastores.getEntryVersion({ ...store, entryKey: 'k', versionId: written[4] });
    assert.equal(old.value, 4);
    assert.equal(old.version, written[4]);

    const other = await client.datastores.setEntry({ ...store, entryKey: 'other', value: 1 });
    const err = await rejection(() =>
      client.datastores.getEntryVersion({ ...store, entryKey: 'k', versionId: other.version }),
    );
    assert.ok(err instanceof NotFoundError, String(err));
    assert.equal(err.code, 'VersionNotFound');
  });
});

describe('hostile inputs get the documented errors, never a 500', () => {
  it('unicode, `/`, `%`, `..` and spaces in keys, names and scopes round trip', async () => {
    const names = ['ü😀 name', 'a/b', '100%', '%2F', '..', '.', ' spaced ', 'a+b&c=d?e#f'];
    for (const name of names) {
      const at = { universeId: U, datastoreName: name, scope: name, entryKey: name };
      await client.datastores.setEntry({ ...at, value: name });
      assert.equal((await client.datastores.getEntry(at)).value, name);
      const listed = await client.datastores.listEntries({ universeId: U, datastoreName: name, scope: name });
      assert.deepEqual(listed.items, [{ scope: name, key: name }]);
    }
  });

  it('50-byte keys, names and scopes pass; 51 bytes are refused', async () => {
    const fifty = 'é'.repeat(25);
    await client.datastores.setEntry({ universeId: U, datastoreName: fifty, scope: fifty, entryKey: fifty, value: 1 });
    assert.equal(
      (await client.datastores.getEntry({ universeId: U, datastoreName: fifty, scope: fifty, entryKey: fifty })).value,
      1,
    );
    const long = `${fifty}x`;
    await assertInvalid(() => client.datastores.setEntry({ ...store, entryKey: long, value: 1 }), 'InvalidEntryKey');
    await assertInvalid(() => client.datastores.getEntry({ ...store, entryKey: long }), 'InvalidEntryKey');
    await assertInvalid(
      () => client.datastores.setEntry({ universeId: U, datastoreName: long, entryKey: 'k', value: 1 }),
      'InvalidDataStoreName',
    );
    await assertInvalid(
      () => client.datastores.setEntry({ ...store, scope: long, entryKey: 'k', value: 1 }),
      'InvalidDataStoreScope',
    );
    await assertInvalid(() => client.datastores.setEntry({ ...store, entryKey: '', value: 1 }), 'InvalidEntryKey');
  });

  it('a 4 MiB value is stored; one byte more is ContentTooBig', async () => {
    const max = 4 * 1024 * 1024;
    const raw = `"${'a'.repeat(max - 2)}"`;
    await client.datastores.setEntry({ ...store, entryKey: 'big', raw });
    const entry = await client.datastores.getEntry({ ...store, entryKey: 'big' });
    assert.equal(entry.raw.length, max);
    await assertInvalid(
      () => client.datastores.setEntry({ ...store, entryKey: 'big', raw: `"${'a'.repeat(max - 1)}"` }),
      'ContentTooBig',
    );
  });

  it('raw bodies that are not JSON are ContentNotJson', async () => {
    for (const raw of ['{not json', 'undefined', "{'a':1}", Buffer.from([0xff, 0xfe, 0x00])]) {
      await assertInvalid(() => client.datastores.setEntry({ ...store, entryKey: 'k', raw }), 'ContentNotJson');
    }
    const empty = await rejection(() => client.datastores.setEntry({ ...store, entryKey: 'k', raw: '' }));
    assert.ok(empty instanceof InvalidArgumentError, String(empty));
  });

  it('a bad cursor is InvalidCursor', async () => {
    await client.datastores.setEntry({ ...store, entryKey: 'k', value: 1 });
    await assertInvalid(() => client.datastores.listEntries({ ...store, cursor: '%%not-a-cursor' }), 'InvalidCursor');
  });
});

describe('keys and permissions', () => {
  it('a wrong key is AuthError; a key without the scope is PermissionDeniedError; the key never shows', async () => {
    const wrong = makeClient(emulator.url, { apiKey: 'wrong-key-abcdef' }).client;
    const reader = makeClient(emulator.url, { apiKey: READER_KEY }).client;
    try {
      const auth = await rejection(() => wrong.datastores.getEntry({ ...store, entryKey: 'k' }));
      assert.ok(auth instanceof AuthError, String(auth));
      assert.equal(auth.status, 401);
      assert.ok(!everything(auth).includes('wrong-key-abcdef'));

      const denied = await rejection(() => reader.datastores.setEntry({ ...store, entryKey: 'k', value: 1 }));
      assert.ok(denied instanceof PermissionDeniedError, String(denied));
      assert.ok(!everything(denied).includes(READER_KEY));
      const missing = await rejection(() => reader.datastores.getEntry({ ...store, entryKey: 'nothing' }));
      assert.ok(missing instanceof ApiError && missing.status === 404, String(missing));
    } finally {
      await wrong.close();
      await reader.close();
    }
  });
});
