// Cloud v2 data store entries: how ids travel in paths (reference open-api-datastores-v2.md 1.2-1.5: revision
// suffixes, `/`, `@`, `:` and `%` in keys and names, the wildcard and unscoped collections) and the listings (entries
// and revisions: filters, showDeleted, page sizes and tokens, order).
import * as assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { TestEmulator } from './support/emulator';
import { call, gatewayError, U, type Call, type Reply } from './fixtures/emulator/harness';

const START = '2024-01-15T10:00:00.000Z';
let emulator: TestEmulator;
before(async () => {
  emulator = await TestEmulator.start({ clock: START });
});
after(() => emulator.close());
beforeEach(() => emulator.reset());

const STORE = `/cloud/v2/universes/${U}/data-stores/Inv`;
const ENTRIES = (scope = 'global'): string => `${STORE}/scopes/${encodeURIComponent(scope)}/entries`;
const send = (method: string, path: string, body?: unknown, init: Call = {}): Promise<Reply> =>
  call(emulator.url, method, path, { ...init, body: body === undefined ? undefined : JSON.stringify(body) });
const create = (key: string, value: unknown = 1, scope?: string): Promise<Reply> =>
  send('POST', ENTRIES(scope), { value }, { query: { id: key } });
const list = (path: string, query: Call['query'] = {}): Promise<Reply> => send('GET', path, undefined, { query });
const ids = (r: Reply): string[] => {
  assert.equal(r.status, 200, r.text);
  return r.json.dataStoreEntries.map((e: { id: string }) => e.id);
};
const invalid = (r: Reply): void => {
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.code, 'INVALID_ARGUMENT');
};
const notFound = (r: Reply): void => {
  assert.equal(r.status, 404, r.text);
  assert.equal(r.json.code, 'NOT_FOUND');
};

describe('revision suffixes on Get', () => {
  it('@<revision> gets that revision and names it with the suffix; @latest is the plain Get (U10, U11)', async () => {
    const first = (await create('k', 'one')).json;
    const second = (await send('PATCH', `${ENTRIES()}/k`, { value: 'two' })).json;
    const old = await send('GET', `${ENTRIES()}/k@${first.revisionId}`);
    assert.equal(old.status, 200, old.text);
    assert.equal(old.json.value, 'one');
    assert.equal(old.json.id, `k@${first.revisionId}`);
    assert.equal(old.json.path, `universes/${U}/data-stores/Inv/scopes/global/entries/k@${first.revisionId}`);
    assert.equal((await send('GET', `${ENTRIES()}/k@${first.revisionId.toLowerCase()}`)).json.value, 'one');
    const latest = await send('GET', `${ENTRIES()}/k@latest`);
    assert.deepEqual(latest.json, second);
    notFound(await send('GET', `${ENTRIES()}/k@${first.revisionId.replace('.0000000001.', '.00000000FF.')}`));
    invalid(await send('GET', `${ENTRIES()}/k@not-a-revision`));
    await send('DELETE', `${ENTRIES()}/k`);
    const tombstone = (await send('GET', `${ENTRIES()}/k:listRevisions`)).json.dataStoreEntries[0].revisionId;
    notFound(await send('GET', `${ENTRIES()}/k@${tombstone}`));
    assert.equal((await send('GET', `${ENTRIES()}/k@${second.revisionId}`)).json.value, 'two');
  });

  it('@latest:<time> gets the revision current then; 404 before the key or while deleted (U12)', async () => {
    await create('k', 'one'); // 10:00
    await emulator.advanceClock(60 * 60_000);
    await send('PATCH', `${ENTRIES()}/k`, { value: 'two' }); // 11:00
    await emulator.advanceClock(60 * 60_000);
    await send('DELETE', `${ENTRIES()}/k`); // 12:00
    await emulator.advanceClock(60 * 60_000);
    await send('PATCH', `${ENTRIES()}/k`, { value: 'three' }); // 13:00
    const at = (t: string): Promise<Reply> => send('GET', `${ENTRIES()}/k@latest:${t}`);
    const mid = await at('2024-01-15T10:30:00Z');
    assert.equal(mid.json.value, 'one');
    assert.equal(mid.json.id, 'k@latest:2024-01-15T10:30:00Z');
    assert.equal((await at('2024-01-15T13:30:00.5+02:00')).json.value, 'two', 'another offset: 11:30Z');
    notFound(await at('2024-01-15T09:59:00Z'));
    notFound(await at('2024-01-15T12:30:00Z'));
    assert.equal((await at('2024-01-15T13:09:00Z')).json.value, 'three', 'up to 10 minutes ahead');
    invalid(await at('2024-01-15T13:11:00Z'));
    invalid(await at('1969-12-31T23:59:59Z'));
    invalid(await at('yesterday'));
    invalid(await at('2024-01-15T10:30:00'));
  });

  it('a key holding "@" is read through @latest; the last raw "@" splits, else the last decoded one (U9)', async () => {
    await create('a@b', 'at');
    await create('a', 'plain');
    invalid(await send('GET', `${ENTRIES()}/a@b`));
    assert.equal((await send('GET', `${ENTRIES()}/a@b@latest`)).json.value, 'at');
    assert.equal((await send('GET', `${ENTRIES()}/a%40b@latest`)).json.value, 'at');
    assert.equal((await send('GET', `${ENTRIES()}/a%40latest`)).json.value, 'plain');
    // Writes take the id literally.
    assert.equal((await send('PATCH', `${ENTRIES()}/a@b`, { value: 'set' })).json.id, 'a@b');
    assert.equal((await send('GET', `${ENTRIES()}/a@b@latest`)).json.value, 'set');
  });
});

describe('keys and names in paths', () => {
  it('decodes each segment once: %2F, %25, + and %3A are part of the key (U8)', async () => {
    for (const key of ['a/b', '100%', 'a+b', 'x:y', 'ü😀 key', 'q?r#s&t']) {
      assert.equal((await create(key, key)).status, 200, key);
      const r = await send('GET', `${ENTRIES()}/${encodeURIComponent(key)}`);
      assert.equal(r.status, 200, `${key}: ${r.text}`);
      assert.equal(r.json.value, key);
      assert.equal(r.json.id, key, 'the returned path and id are not escaped');
    }
    assert.equal((await send('GET', `${ENTRIES()}/a+b`)).json.value, 'a+b', 'a raw + is a plus');
    assert.equal((await send('GET', `${ENTRIES()}/x%3Ay`)).json.value, 'x:y');
    gatewayError(await send('GET', `${ENTRIES()}/a/b`), 404);
    invalid(await send('GET', `${ENTRIES()}/%E0%A4%A`));
  });

  it('takes store names and scopes percent-encoded, up to 50 bytes', async () => {
    const store = `/cloud/v2/universes/${U}/data-stores/${encodeURIComponent('my store/é')}`;
    const scope = encodeURIComponent('a:scope');
    const c = await send('POST', `${store}/scopes/${scope}/entries`, { value: 1 }, { query: { id: 'k' } });
    assert.equal(c.status, 200, c.text);
    assert.equal(c.json.path, `universes/${U}/data-stores/my store/é/scopes/a:scope/entries/k`);
    assert.equal((await send('GET', `${store}/scopes/${scope}/entries/k`)).json.value, 1);
    const long = `/cloud/v2/universes/${U}/data-stores/${'x'.repeat(51)}/scopes/global/entries`;
    invalid(await send('POST', long, { value: 1 }, { query: { id: 'k' } }));
    invalid(await send('GET', `${ENTRIES('x'.repeat(51))}/k`));
  });
});

describe('collections', () => {
  beforeEach(async () => {
    await create('a1', 1);
    await create('b1', 2);
    await create('a2', 3, 'other');
  });

  it('the wildcard scope lists every scope: id is the key, path names its scope; it is for listing only', async () => {
    const r = await list(ENTRIES('-'));
    assert.deepEqual(r.json.dataStoreEntries, [
      { path: `universes/${U}/data-stores/Inv/scopes/global/entries/a1`, id: 'a1' },
      { path: `universes/${U}/data-stores/Inv/scopes/global/entries/b1`, id: 'b1' },
      { path: `universes/${U}/data-stores/Inv/scopes/other/entries/a2`, id: 'a2' },
    ]);
    assert.deepEqual(ids(await list(ENTRIES('-'), { filter: 'id.startsWith("a")' })), ['a1', 'a2']);
    invalid(await send('GET', `${ENTRIES('-')}/a1`));
    invalid(await send('POST', ENTRIES('-'), { value: 1 }, { query: { id: 'k' } }));
  });

  it('the unscoped collection lists scope/key; its single entries split at the first "/" (U7)', async () => {
    const r = await list(`${STORE}/entries`);
    assert.deepEqual(ids(r), ['global/a1', 'global/b1', 'other/a2']);
    assert.equal(r.json.dataStoreEntries[2].path, `universes/${U}/data-stores/Inv/entries/other/a2`);
    assert.deepEqual(ids(await list(`${STORE}/entries`, { filter: 'id.startsWith("global/a")' })), ['global/a1']);
    assert.deepEqual(ids(await list(`${STORE}/entries`, { filter: 'id.startsWith("oth")' })), ['other/a2']);
    const plain = await send('GET', `${STORE}/entries/a1`);
    assert.deepEqual([plain.json.value, plain.json.id], [1, 'a1']);
    const scoped = await send('GET', `${STORE}/entries/other/a2`);
    assert.deepEqual([scoped.json.value, scoped.json.id], [3, 'other/a2']);
    assert.equal(scoped.json.path, `universes/${U}/data-stores/Inv/entries/other/a2`);
    notFound(await send('GET', `${STORE}/entries/global%2Fa1`)); // one segment: the global key "global/a1"
    assert.equal((await send('GET', `${STORE}/entries/other/a2@latest`)).json.value, 3);
    const made = await send('POST', `${STORE}/entries`, { value: 9 }, { query: { id: 'third/k' } });
    assert.equal(made.json.id, 'third/k');
    assert.equal((await send('GET', `${ENTRIES('third')}/k`)).json.value, 9);
    assert.equal((await send('PATCH', `${STORE}/entries/other/a2`, { value: 4 })).json.value, 4);
    assert.equal((await send('POST', `${STORE}/entries/other/n:increment`, {})).json.value, 1);
    assert.equal((await send('GET', `${STORE}/entries/other/a2:listRevisions`)).json.dataStoreEntries.length, 2);
    assert.equal((await send('DELETE', `${STORE}/entries/other/a2`)).status, 200);
    notFound(await send('GET', `${ENTRIES('other')}/a2`));
  });
});

describe('list entries', () => {
  it('pages 10 by default, clamps maxPageSize to 256, 0 is the default and a negative one 400 (U17)', async () => {
    const keys = Array.from({ length: 300 }, (_, i) => `k${String(i).padStart(3, '0')}`);
    for (const key of keys) await create(key);
    const first = await list(ENTRIES());
    assert.equal(ids(first).length, 10);
    assert.equal(ids(await list(ENTRIES(), { maxPageSize: 0 })).length, 10);
    invalid(await list(ENTRIES(), { maxPageSize: -1 }));
    invalid(await list(ENTRIES(), { maxPageSize: 'ten' }));
    const big = await list(ENTRIES(), { maxPageSize: 1000 });
    assert.deepEqual(ids(big), keys.slice(0, 256));
    const rest = await list(ENTRIES(), { max_page_size: 1000, page_token: big.json.nextPageToken });
    assert.deepEqual(ids(rest), keys.slice(256));
    assert.equal(rest.json.nextPageToken, undefined, 'the last page has no token');
  });

  it('binds a page token to the filter and the other parameters', async () => {
    for (const key of ['a1', 'a2', 'a3', 'b1']) await create(key);
    const page = await list(ENTRIES(), { maxPageSize: 2, filter: 'id.startsWith("a")' });
    assert.deepEqual(ids(page), ['a1', 'a2']);
    const token = page.json.nextPageToken;
    const next = await list(ENTRIES(), { maxPageSize: 2, filter: 'id.startsWith("a")', pageToken: token });
    assert.deepEqual(ids(next), ['a3']);
    invalid(await list(ENTRIES(), { maxPageSize: 2, filter: 'id.startsWith("b")', pageToken: token }));
    invalid(await list(ENTRIES(), { maxPageSize: 2, pageToken: token }));
    invalid(await list(ENTRIES(), { maxPageSize: 2, filter: 'id.startsWith("a")', pageToken: `${token}x` }));
    invalid(await list(ENTRIES('other'), { maxPageSize: 2, filter: 'id.startsWith("a")', pageToken: token }));
  });

  it('takes exactly id.startsWith("<prefix>") as a filter, with JSON escapes', async () => {
    for (const key of ['say "hi"', 'say', 'back\\slash', 'b']) await create(key);
    assert.deepEqual(ids(await list(ENTRIES(), { filter: 'id.startsWith("say \\"")' })), ['say "hi"']);
    assert.deepEqual(ids(await list(ENTRIES(), { filter: ' id.startsWith( "back\\\\" ) ' })), ['back\\slash']);
    for (const bad of ["id.startsWith('b')", 'id == "b"', 'startsWith("b")', 'id.startsWith("b") && id != "c"']) {
      const r = await list(ENTRIES(), { filter: bad });
      invalid(r);
      assert.equal(r.json.message, 'The provided filter is invalid.');
    }
  });

  it('hides deleted keys unless showDeleted=true, examining at most 512 keys per page', async () => {
    for (let i = 0; i < 600; i++) await create(`d${String(i).padStart(3, '0')}`);
    await create('live');
    for (let i = 0; i < 600; i++) await send('DELETE', `${ENTRIES()}/d${String(i).padStart(3, '0')}`);
    const first = await list(ENTRIES());
    assert.deepEqual(ids(first), [], 'a page can be empty and still carry a token');
    assert.ok(first.json.nextPageToken);
    const second = await list(ENTRIES(), { pageToken: first.json.nextPageToken });
    assert.deepEqual(ids(second), ['live']);
    assert.equal(second.json.nextPageToken, undefined);
    const all = await list(ENTRIES(), { showDeleted: true, maxPageSize: 256 });
    assert.equal(ids(all).length, 256);
    assert.equal(ids(await list(ENTRIES(), { show_deleted: true, filter: 'id.startsWith("l")' }))[0], 'live');
  });

  it('lists in UTF-8 byte order (U16), and an unknown data store as an empty list', async () => {
    for (const key of ['😀', '\ue000', 'z', 'A']) await create(key);
    assert.deepEqual(ids(await list(ENTRIES())), ['A', 'z', '\ue000', '😀']);
    assert.deepEqual(ids(await list(`/cloud/v2/universes/${U}/data-stores/None/scopes/global/entries`)), []);
  });
});

describe('list revisions', () => {
  it('lists newest first with the revision fields only, filtered by revision_create_time', async () => {
    const made: string[] = [];
    for (let i = 0; i < 4; i++) {
      made.push(
        (await send('PATCH', `${ENTRIES()}/k`, { value: i }, { query: { allowMissing: true } })).json.revisionId,
      );
      await emulator.advanceClock(2 * 60 * 60_000); // 10:00, 12:00, 14:00, 16:00
    }
    const r = await list(`${ENTRIES()}/k:listRevisions`);
    assert.deepEqual(
      r.json.dataStoreEntries.map((e: { revisionId: string }) => e.revisionId),
      [...made].reverse(),
    );
    const item = r.json.dataStoreEntries[0];
    assert.deepEqual(Object.keys(item).sort(), [
      'createTime',
      'etag',
      'id',
      'path',
      'revisionCreateTime',
      'revisionId',
      'state',
    ]);
    assert.equal(item.id, `k@${made[3]}`);
    assert.equal(item.path, `universes/${U}/data-stores/Inv/scopes/global/entries/k@${made[3]}`);
    assert.equal(r.json.nextPageToken, undefined);
    const window = async (filter: string): Promise<string[]> =>
      (await list(`${ENTRIES()}/k:listRevisions`, { filter })).json.dataStoreEntries.map(
        (e: { revisionId: string }) => e.revisionId,
      );
    const at12 = (await send('GET', `${ENTRIES()}/k@${made[1]}`)).json.revisionCreateTime;
    const at14 = (await send('GET', `${ENTRIES()}/k@${made[2]}`)).json.revisionCreateTime;
    assert.deepEqual(await window(`revision_create_time >= ${at12}`), [made[3], made[2], made[1]]);
    assert.deepEqual(await window(`revision_create_time <= ${at12}`), [made[1], made[0]]);
    assert.deepEqual(await window(`revision_create_time <= ${at14} && revision_create_time >= ${at12}`), [
      made[2],
      made[1],
    ]);
    for (const bad of ['revision_create_time > 2024-01-01T00:00:00Z', 'revision_create_time >= soon', 'x >= 1']) {
      invalid(await list(`${ENTRIES()}/k:listRevisions`, { filter: bad }));
    }
  });

  it('pages 10 by default and at most 100; a missing key is 404', async () => {
    for (let i = 0; i < 105; i++)
      await send('PATCH', `${ENTRIES()}/k`, { value: i }, { query: { allowMissing: true } });
    const path = `${ENTRIES()}/k:listRevisions`;
    assert.equal((await list(path)).json.dataStoreEntries.length, 10);
    const page = await list(path, { maxPageSize: 500 });
    assert.equal(page.json.dataStoreEntries.length, 100);
    const rest = await list(path, { maxPageSize: 500, pageToken: page.json.nextPageToken });
    assert.equal(rest.json.dataStoreEntries.length, 5);
    const oldest = rest.json.dataStoreEntries[4].revisionId;
    assert.equal((await send('GET', `${ENTRIES()}/k@${oldest}`)).json.value, 0);
    notFound(await list(`${ENTRIES()}/none:listRevisions`));
  });
});
