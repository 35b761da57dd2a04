// The hand-checked readers of List Entries and List Entry Versions pages and of v2 entries (bulk engines read
// thousands): the schemas' output for every shape they take, and through the client the schemas' ResponseShapeError
// for a bad one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResponseShapeError } from '../../src/api';
import { toEntry } from '../../src/api/datastoresV2Wire';
import { plainEntriesPage, plainFields, plainKeysPage, plainVersionsPage } from '../../src/api/read';
import { EntryBodySchema, ListEntriesV2Schema } from '../../src/api/schemasV2';
import { ListEntriesSchema, ListEntryVersionsSchema } from '../../src/api/schemas';
import { rejection } from './support/client';
import { sharedEmulator } from './support/emulator';

const U = 77;
const VERSIONS_PATH = '/datastore/entries/entry/versions';
const version = {
  version: '08DC1A2B3C4D5E6F.0000000001.08DC1A2B3C4D5E6F.01',
  deleted: false,
  contentLength: 12,
  createdTime: '2024-01-15T10:00:00.000Z',
  objectCreatedTime: '2024-01-14T10:00:00.000Z',
};
const without = (name: keyof typeof version): Record<string, unknown> =>
  Object.fromEntries(Object.entries(version).filter(([k]) => k !== name));

/** The same items as the schema gives, with the same keys in the same order. */
function assertSame(actual: unknown[], expected: unknown[]): void {
  assert.deepStrictEqual(actual, expected);
  assert.deepEqual(
    actual.map((v) => Object.keys(v as object)),
    expected.map((v) => Object.keys(v as object)),
  );
}

describe('hand-checked pages', () => {
  it('read versions as the schema does: deleted defaulted, a null objectCreatedTime, other key orders', () => {
    const pages = [
      { versions: [version], nextPageCursor: '' },
      { versions: [{ ...version, objectCreatedTime: null, deleted: true }], nextPageCursor: null },
      { versions: [without('deleted'), without('objectCreatedTime')], nextPageCursor: 'next' },
      { versions: [Object.fromEntries(Object.entries(version).reverse())], more: 1 },
      { versions: [] },
    ];
    for (const page of pages) {
      const plain = plainVersionsPage(page);
      const parsed = ListEntryVersionsSchema.parse(page);
      assert.ok(plain, JSON.stringify(page));
      assertSame(plain.items, parsed.versions);
      assert.equal(plain.next, parsed.nextPageCursor);
    }
  });

  it('leave versions with another field, or a bad one, to the schema', () => {
    const pages = [
      { versions: [{ ...version, extra: 1 }] },
      { versions: [{ ...version, version: 1 }] },
      { versions: [{ ...version, deleted: null }] },
      { versions: [{ ...version, objectCreatedTime: 5 }] },
      { versions: [without('contentLength')] },
      { versions: [version], nextPageCursor: 3 },
      { versions: {} },
      [],
    ];
    for (const page of pages) assert.equal(plainVersionsPage(page), undefined, JSON.stringify(page));
  });

  it('read keys as the schema does, with the scope asked for when a key has none', () => {
    const page = { keys: ['a', { key: 'b' }, { scope: 's', key: 'c', extra: 1 }], nextPageCursor: 'n' };
    const parsed = ListEntriesSchema.parse(page);
    assert.deepStrictEqual(plainKeysPage(page, 'global'), {
      items: parsed.keys.map((k) => ({ scope: k.scope ?? 'global', key: k.key })),
      next: 'n',
    });
    for (const bad of [{ keys: [{ key: 1 }] }, { keys: [{ scope: null, key: 'a' }] }, { keys: [null] }, {}]) {
      assert.equal(plainKeysPage(bad, 'global'), undefined, JSON.stringify(bad));
    }
  });
});

describe('bad pages through the client', () => {
  const shared = sharedEmulator();
  const entry = { universeId: U, datastoreName: 'S', entryKey: 'k' };

  it('a version with a bad field is a ResponseShapeError naming it, paged or not', async () => {
    const body = JSON.stringify({ versions: [version, { ...version, contentLength: '12' }], nextPageCursor: '' });
    await shared.emulator.fault({ method: 'GET', path: VERSIONS_PATH, status: 200, body, times: 2 });
    for (const read of [
      () => shared.client.datastores.listEntryVersions(entry),
      () => shared.client.datastores.listEntryVersionItems(entry),
    ]) {
      const err = await rejection(read);
      assert.ok(err instanceof ResponseShapeError, String(err));
      assert.equal(err.field, 'versions[1].contentLength');
      assert.match(err.message, /versions\[1\]\.contentLength: expected number/);
    }
  });

  it('a version with a field the client does not know keeps it', async () => {
    const body = JSON.stringify({ versions: [{ ...version, extra: 'kept' }] });
    await shared.emulator.fault({ method: 'GET', path: VERSIONS_PATH, status: 200, body });
    assert.deepStrictEqual(await shared.client.datastores.listEntryVersionItems(entry), [
      { ...version, extra: 'kept' },
    ]);
  });

  it('a key with a bad field is a ResponseShapeError naming it', async () => {
    await shared.emulator.fault({
      method: 'GET',
      path: '/datastore/entries',
      status: 200,
      body: '{"keys":[{"key":"a"},{"key":7}],"nextPageCursor":""}',
    });
    const err = await rejection(() => shared.client.datastores.listEntries({ universeId: U, datastoreName: 'S' }));
    assert.ok(err instanceof ResponseShapeError, String(err));
    assert.equal(err.field, 'keys[1].key');
  });
});

describe('hand-checked v2 entry answers', () => {
  const body = {
    path: 'universes/1/data-stores/S/scopes/global/entries/k',
    createTime: '2024-07-22T19:06:55.829Z',
    revisionId: '08DCAA81744A406E.0000000001.08DCAA81744A406E.01',
    revisionCreateTime: '2024-07-22T19:06:55.829Z',
    state: 'ACTIVE',
    etag: '08DCAA81744A406E.0000000001.08DCAA81744A406E.01',
    value: { Iron: 50, list: [1, 'two', null] },
    id: 'k',
    users: ['users/45348281'],
    attributes: { tag: 'vip' },
  };
  const drop = (...names: string[]) => Object.fromEntries(Object.entries(body).filter(([k]) => !names.includes(k)));

  it('give the entry the schema gives: users and attributes left out, values of every kind, fields unknown', () => {
    const bodies = [
      body,
      drop('users', 'attributes'),
      drop('createTime', 'revisionCreateTime', 'state', 'etag', 'id'),
      { ...body, value: null },
      { ...body, value: 'text' },
      { ...body, value: 0, users: [] },
      { ...body, extra: { more: true } },
    ];
    for (const b of bodies) {
      const plain = plainFields(b);
      assert.ok(plain, JSON.stringify(b));
      assert.deepStrictEqual(toEntry(plain), toEntry(EntryBodySchema.parse(b)));
    }
  });

  it('leave any other shape to the schema', () => {
    const bodies = [
      drop('value'),
      drop('revisionId'),
      { ...body, users: null },
      { ...body, users: ['45348281'] },
      { ...body, users: ['users/99999999999999999999'] },
      { ...body, attributes: null },
      { ...body, attributes: [] },
      { ...body, etag: null },
      { ...body, createTime: 5 },
      [],
    ];
    for (const b of bodies) assert.equal(plainFields(b), undefined, JSON.stringify(b));
  });
});

describe('hand-checked v2 List Entries pages', () => {
  const item = { path: 'universes/1/data-stores/S/scopes/global/entries/k', id: 'k' };
  const read = (page: { dataStoreEntries: { path: string; id?: string }[]; nextPageToken?: string }) => ({
    items: page.dataStoreEntries.map((e) => [e.path, e.id]),
    next: page.nextPageToken,
  });

  it('give the paths, ids and token the schema gives', () => {
    const pages = [
      { dataStoreEntries: [item], nextPageToken: 'next' },
      { dataStoreEntries: [item, { path: item.path }], nextPageToken: '' },
      { dataStoreEntries: [], nextPageToken: null },
      {},
    ];
    for (const page of pages) {
      const plain = plainEntriesPage(page);
      assert.ok(plain, JSON.stringify(page));
      assert.deepStrictEqual(read(plain), read(ListEntriesV2Schema.parse(page)));
    }
  });

  it('leave any other shape to the schema', () => {
    const pages = [
      { dataStoreEntries: [{ ...item, users: ['users/1'] }] },
      { dataStoreEntries: [{ ...item, id: 5 }] },
      { dataStoreEntries: [{ id: 'k' }] },
      { dataStoreEntries: {} },
      { dataStoreEntries: [item], nextPageToken: 3 },
      [],
    ];
    for (const page of pages) assert.equal(plainEntriesPage(page), undefined, JSON.stringify(page));
  });
});
