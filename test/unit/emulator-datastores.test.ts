import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/server';
import { call, DS, dsError, entry, ENTRY, start, U } from './fixtures/emulator/harness';

let emu: RunningEmulator;
before(async () => {
  emu = await start();
});
after(() => emu.close());

const md5 = (s: string | Buffer): string => createHash('md5').update(s).digest('base64');
const set = (
  store: string,
  key: string,
  value: string,
  extra: { query?: Record<string, string>; headers?: Record<string, string> } = {},
) =>
  call(emu.url, 'POST', ENTRY, {
    query: entry(store, key, extra.query),
    body: value,
    headers: { 'content-type': 'application/json', ...extra.headers },
  });
const get = (store: string, key: string, scope?: string) =>
  call(emu.url, 'GET', ENTRY, { query: entry(store, key, { scope }) });

describe('set and get', () => {
  it('round-trips the exact bytes with the entry headers and an EntryVersion answer', async () => {
    const value = '{ "coins": 5,\n "name": "Zoë" }';
    const s = await set('Basics', 'k1', value, {
      headers: {
        'platform-entry-attributes': '{"a":1}',
        'platform-entry-userids': '[7, 8]',
        'content-md5': md5(value),
      },
    });
    assert.equal(s.status, 200, s.text);
    assert.match(s.json.version, /^[0-9A-F]{16}\.[0-9A-F]{10}\.[0-9A-F]{16}\.01$/);
    assert.equal(s.json.deleted, false);
    assert.equal(s.json.contentLength, Buffer.byteLength(value));
    assert.ok(Date.parse(s.json.createdTime) && Date.parse(s.json.objectCreatedTime));
    const g = await get('Basics', 'k1');
    assert.equal(g.status, 200);
    assert.equal(g.text, value);
    assert.equal(g.headers.get('content-md5'), md5(value));
    assert.equal(g.headers.get('platform-entry-version'), s.json.version);
    assert.equal(g.headers.get('platform-entry-attributes'), '{"a":1}');
    assert.equal(g.headers.get('platform-entry-userids'), '[7,8]');
    assert.match(g.headers.get('platform-entry-created-time')!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}\+00:00$/);
    assert.match(g.headers.get('platform-entry-version-created-time')!, /\.\d{7}\+00:00$/);
  });

  it('clears attributes and user ids that a later write leaves out', async () => {
    await set('Basics', 'k2', '1', {
      headers: { 'platform-entry-attributes': '{"a":"\\u00e9"}', 'platform-entry-userids': '[1]' },
    });
    const first = await get('Basics', 'k2');
    assert.deepEqual(JSON.parse(first.headers.get('platform-entry-attributes')!), { a: 'é' });
    // UTF-8 bytes in the header are read as UTF-8 and sent back escaped; a lone byte 0xE9 is not UTF-8.
    await set('Basics', 'k3', '1', {
      headers: { 'platform-entry-attributes': Buffer.from('{"a":"é"}').toString('latin1') },
    });
    assert.equal((await get('Basics', 'k3')).headers.get('platform-entry-attributes'), '{"a":"\\u00e9"}');
    dsError(
      await set('Basics', 'k2', '1', { headers: { 'platform-entry-attributes': '{"a":"é"}' } }),
      400,
      'InvalidAttributes',
    );
    await set('Basics', 'k2', '2');
    const g = await get('Basics', 'k2');
    assert.equal(g.headers.get('platform-entry-attributes'), null);
    assert.equal(g.headers.get('platform-entry-userids'), '[]');
  });

  it('uses the configured header prefix', async () => {
    const other = await start({ entryHeaderPrefix: 'roblox' });
    try {
      const s = await call(other.url, 'POST', ENTRY, {
        query: entry('S', 'k'),
        body: '1',
        headers: { 'roblox-entry-userids': '[3]' },
      });
      assert.equal(s.status, 200);
      const g = await call(other.url, 'GET', ENTRY, { query: entry('S', 'k') });
      assert.equal(g.headers.get('roblox-entry-version'), s.json.version);
      assert.equal(g.headers.get('roblox-entry-userids'), '[3]');
      assert.equal(g.headers.get('platform-entry-version'), null);
    } finally {
      await other.close();
    }
  });

  it('404s a missing data store and a missing entry with their codes', async () => {
    dsError(await get('NoSuchStore', 'k'), 404, 'DatastoreNotFound');
    dsError(await get('Basics', 'nope'), 404, 'EntryNotFound');
  });
});

describe('preconditions', () => {
  it('412 on a matchVersion mismatch, with the current entry as Get would send it', async () => {
    const v1 = (await set('Pre', 'k', '"one"', { headers: { 'platform-entry-userids': '[5]' } })).json.version;
    const v2 = (await set('Pre', 'k', '"two"', { query: { matchVersion: v1 } })).json.version;
    assert.ok(v2 > v1);
    const r = await set('Pre', 'k', '"three"', { query: { matchVersion: v1 } });
    assert.equal(r.status, 412);
    assert.equal(r.text, '"two"');
    assert.equal(r.headers.get('platform-entry-version'), v2);
    assert.equal(r.headers.get('platform-entry-userids'), '[]');
    assert.ok(r.headers.get('platform-entry-created-time'));
    assert.ok(r.headers.get('platform-entry-version-created-time'));
    assert.equal((await get('Pre', 'k')).text, '"two"');
  });

  it('412 for exclusiveCreate on a live key, allowed on a new or deleted one', async () => {
    assert.equal((await set('Pre', 'x', '1', { query: { exclusiveCreate: 'true' } })).status, 200);
    const r = await set('Pre', 'x', '2', { query: { exclusiveCreate: 'true' } });
    assert.equal(r.status, 412);
    assert.equal(r.text, '1');
    assert.ok(r.headers.get('platform-entry-version'));
    assert.equal((await call(emu.url, 'DELETE', ENTRY, { query: entry('Pre', 'x') })).status, 204);
    assert.equal((await set('Pre', 'x', '3', { query: { exclusiveCreate: 'true' } })).status, 200);
  });

  it('412 for matchVersion on a missing key; 400 when both are set', async () => {
    const r = await set('Pre', 'missing', '1', {
      query: { matchVersion: '08D9E6A3F2188CFF.0000000001.08D9E6A3F2188CFF.01' },
    });
    dsError(r, 412, 'PreconditionFailed');
    const both = await set('Pre', 'k', '1', { query: { matchVersion: 'x', exclusiveCreate: 'true' } });
    dsError(both, 400, 'ExclusiveCreateAndMatchVersionCannotBeSet');
  });
});

describe('input checks', () => {
  it('checks content-md5', async () => {
    dsError(await set('Chk', 'k', '{"a":1}', { headers: { 'content-md5': md5('{"a":2}') } }), 400, 'ChecksumMismatch');
    dsError(await set('Chk', 'k', '{"a":1}', { headers: { 'content-md5': 'garbage' } }), 400, 'ChecksumMismatch');
    assert.equal((await set('Chk', 'k', '{"a":1}', { headers: { 'content-md5': md5('{"a":1}') } })).status, 200);
  });

  it('limits names, keys and scopes to 50 UTF-8 bytes and refuses empty ones', async () => {
    const fifty = 'é'.repeat(25); // 50 bytes
    const fiftyOne = `${fifty}a`;
    assert.equal((await set(fifty, fifty, '1', { query: { scope: fifty } })).status, 200);
    assert.equal((await get(fifty, fifty, fifty)).status, 200);
    dsError(await set(fiftyOne, 'k', '1'), 400, 'InvalidDataStoreName');
    dsError(await set('S', fiftyOne, '1'), 400, 'InvalidEntryKey');
    dsError(await set('S', 'k', '1', { query: { scope: fiftyOne } }), 400, 'InvalidDataStoreScope');
    dsError(await set('', 'k', '1'), 400, 'InvalidDataStoreName');
    dsError(await set('S', '', '1'), 400, 'InvalidEntryKey');
    dsError(await set('S', 'k', '1', { query: { scope: '' } }), 400, 'InvalidDataStoreScope');
    dsError(await call(emu.url, 'GET', ENTRY, { query: { datastoreName: 'S' } }), 400, 'InvalidEntryKey');
  });

  it('takes a value of exactly 4 MiB and refuses one byte more', async () => {
    const limit = 4 * 1024 * 1024;
    const exact = `"${'a'.repeat(limit - 2)}"`;
    assert.equal((await set('Big', 'k', exact)).status, 200);
    assert.equal((await get('Big', 'k')).text.length, limit);
    dsError(await set('Big', 'k', `"${'a'.repeat(limit - 1)}"`), 400, 'ContentTooBig');
  });

  it('refuses values that are not JSON', async () => {
    for (const bad of ['', '{', 'hello', '\ufeff1', '{"a":1} x'])
      dsError(await set('Chk', 'k', bad), 400, 'ContentNotJson');
    dsError(
      await call(emu.url, 'POST', ENTRY, { query: entry('Chk', 'k'), body: Buffer.from([0x22, 0xff, 0x22]) }),
      400,
      'ContentNotJson',
    );
  });

  it('checks the attributes and userids headers', async () => {
    const attrs = (v: string) => set('Chk', 'k', '1', { headers: { 'platform-entry-attributes': v } });
    const uids = (v: string) => set('Chk', 'k', '1', { headers: { 'platform-entry-userids': v } });
    for (const bad of ['[1]', '"x"', 'not json', `{"a":"${'x'.repeat(300)}"}`])
      dsError(await attrs(bad), 400, 'InvalidAttributes');
    assert.equal((await attrs(`{"a":"${'x'.repeat(292)}"}`)).status, 200); // 300 bytes
    for (const bad of ['[1,2,3,4,5]', '[1.5]', '["1"]', '{}', '1,2', '[-1]'])
      dsError(await uids(bad), 400, 'InvalidUserIds');
    assert.equal((await uids('[1,2,3,4]')).status, 200);
  });

  it('checks booleans, limits and universe ids in the query', async () => {
    dsError(await set('Chk', 'k', '1', { query: { exclusiveCreate: 'yes' } }), 400, 'InvalidArgument');
    dsError(
      await call(emu.url, 'GET', `${DS()}/datastore/entries`, { query: { datastoreName: 'Chk', limit: 0 } }),
      400,
      'InvalidLimit',
    );
    dsError(
      await call(emu.url, 'GET', `${DS()}/datastore/entries`, { query: { datastoreName: 'Chk', limit: 'x' } }),
      400,
      'InvalidLimit',
    );
    dsError(await call(emu.url, 'GET', `${DS('abc' as unknown as number)}`), 400, 'InvalidUniverseId');
    dsError(
      await call(emu.url, 'GET', `${DS()}/datastore/entries/entry?datastoreName=S&entryKey=%ZZ`),
      400,
      'InvalidEntryKey',
    );
  });
});

describe('hostile keys', () => {
  const keys = [
    'a/b/../c',
    '..',
    '100% sure',
    '%2F',
    'with spaces  ',
    'ключ',
    '😀 emoji',
    'x&y=z#w?q',
    'tab\tnew\nline',
    '+plus+',
  ];
  it('round-trip exactly through set, get, list and versions', async () => {
    for (const key of keys) {
      const s = await set('Hostile', key, JSON.stringify(key));
      assert.equal(s.status, 200, `${key}: ${s.text}`);
      const g = await get('Hostile', key);
      assert.equal(g.status, 200, key);
      assert.equal(JSON.parse(g.text), key);
      const v = await call(emu.url, 'GET', `${ENTRY}/versions`, { query: entry('Hostile', key) });
      assert.equal(v.json.versions.length, 1);
    }
    const list = await call(emu.url, 'GET', `${DS()}/datastore/entries`, {
      query: { datastoreName: 'Hostile', limit: 100 },
    });
    assert.deepEqual(
      list.json.keys.map((k: { key: string }) => k.key),
      [...keys].sort(),
    );
  });
});

describe('listing', () => {
  it('lists data stores with prefix, limit and cursor (default limit 1)', async () => {
    const other = await start();
    try {
      for (const name of ['Alpha', 'Beta', 'Alpine', 'Gamma']) {
        await call(other.url, 'POST', ENTRY, { query: entry(name, 'k'), body: '1' });
      }
      const first = await call(other.url, 'GET', DS());
      assert.deepEqual(
        first.json.datastores.map((d: { name: string }) => d.name),
        ['Alpha'],
      );
      assert.ok(first.json.nextPageCursor);
      assert.ok(Date.parse(first.json.datastores[0].createdTime));
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const r = await call(other.url, 'GET', DS(), { query: { prefix: 'Al', limit: 1, cursor } });
        names.push(...r.json.datastores.map((d: { name: string }) => d.name));
        cursor = r.json.nextPageCursor || undefined;
      } while (cursor);
      assert.deepEqual(names, ['Alpha', 'Alpine']);
      const empty = await call(other.url, 'GET', DS(999));
      assert.deepEqual(empty.json, { datastores: [], nextPageCursor: '' });
    } finally {
      await other.close();
    }
  });

  it('lists entries of one scope or all scopes, each key with its scope', async () => {
    await set('Scoped', 'a', '1');
    await set('Scoped', 'b', '1', { query: { scope: 'season2' } });
    await set('Scoped', 'c', '1', { query: { scope: 'archive' } });
    const list = (query: Record<string, string | number>) =>
      call(emu.url, 'GET', `${DS()}/datastore/entries`, { query: { datastoreName: 'Scoped', ...query } });
    assert.deepEqual((await list({})).json.keys, [{ scope: 'global', key: 'a' }]);
    assert.deepEqual((await list({ scope: 'season2' })).json.keys, [{ scope: 'season2', key: 'b' }]);
    const all = [
      { scope: 'archive', key: 'c' },
      { scope: 'global', key: 'a' },
      { scope: 'season2', key: 'b' },
    ];
    assert.deepEqual((await list({ allScopes: 'true' })).json.keys, all);
    assert.deepEqual((await list({ AllScopes: 'true', scope: 'global' })).json.keys, all);
    dsError(await list({ allScopes: 'true', scope: 'season2' }), 400, 'InvalidDataStoreScope');
    assert.deepEqual((await list({ prefix: 'z' })).json, { keys: [], nextPageCursor: '' });
    assert.deepEqual(
      (await call(emu.url, 'GET', `${DS()}/datastore/entries`, { query: { datastoreName: 'Never' } })).json.keys,
      [],
    );
  });

  it('refuses forged, tampered and replayed cursors', async () => {
    for (let i = 0; i < 3; i++) await set('Cursors', `k${i}`, '1');
    const list = (query: Record<string, string | number>) =>
      call(emu.url, 'GET', `${DS()}/datastore/entries`, { query: { datastoreName: 'Cursors', limit: 1, ...query } });
    const cursor: string = (await list({})).json.nextPageCursor;
    assert.equal((await list({ cursor })).json.keys[0].key, 'k1');
    const forged = Buffer.from(JSON.stringify(['global', 'k0'])).toString('base64url');
    const tampered = `${Buffer.from(JSON.stringify(['global', 'k1'])).toString('base64url')}${cursor.slice(cursor.indexOf('.'))}`;
    for (const bad of [forged, `${forged}.AAAA`, tampered, 'eyJ2ZXJzaW9uIjoxLCJjdXJzb3IiOiIzIyJ9', '%%%', '.']) {
      const r = await list({ cursor: bad });
      dsError(r, 400, 'InvalidCursor');
      assert.equal(r.json.message, 'Invalid cursor.');
    }
    dsError(await list({ cursor, prefix: 'k' }), 400, 'InvalidCursor');
    dsError(
      await call(emu.url, 'GET', `${DS()}/datastore/entries`, { query: { datastoreName: 'Other', cursor } }),
      400,
      'InvalidCursor',
    );
  });

  it('pages 1,000 keys 7 at a time, each exactly once, while keys are being written', async () => {
    const keys = Array.from({ length: 1000 }, (_, i) => `key${String(i).padStart(4, '0')}`);
    for (let i = 0; i < keys.length; i += 50)
      await Promise.all(keys.slice(i, i + 50).map((k) => set('Paging', k, '0')));
    const seen: string[] = [];
    let cursor: string | undefined;
    let extra = 0;
    do {
      const [page] = await Promise.all([
        call(emu.url, 'GET', `${DS()}/datastore/entries`, { query: { datastoreName: 'Paging', limit: 7, cursor } }),
        set('Paging', `key${String(extra++ % 1000).padStart(4, '0')}`, '1'), // rewrite an existing key
        set('Paging', `new${extra}`, '1'), // and add keys after the ones being paged
        set('Paging', `a${extra}`, '1'), // and before them
      ]);
      assert.equal(page.status, 200, page.text);
      assert.ok(page.json.keys.length <= 7);
      seen.push(...page.json.keys.map((k: { key: string }) => k.key));
      cursor = page.json.nextPageCursor || undefined;
    } while (cursor);
    const original = seen.filter((k) => k.startsWith('key'));
    assert.deepEqual(original, keys);
    assert.equal(new Set(seen).size, seen.length);
  });
});

describe('delete, tombstones and versions', () => {
  it('writes a tombstone version; get and delete of it 404; set revives the key', async () => {
    const v1 = (await set('Tomb', 'k', '{"v":1}')).json;
    assert.equal((await call(emu.url, 'DELETE', ENTRY, { query: entry('Tomb', 'k') })).status, 204);
    dsError(await get('Tomb', 'k'), 404, 'EntryNotFound');
    dsError(await call(emu.url, 'DELETE', ENTRY, { query: entry('Tomb', 'k') }), 404, 'EntryNotFound');
    dsError(await call(emu.url, 'DELETE', ENTRY, { query: entry('Tomb', 'never') }), 404, 'EntryNotFound');
    const listed = await call(emu.url, 'GET', `${DS()}/datastore/entries`, { query: { datastoreName: 'Tomb' } });
    assert.deepEqual(listed.json.keys, [{ scope: 'global', key: 'k' }]);
    const versions = (await call(emu.url, 'GET', `${ENTRY}/versions`, { query: entry('Tomb', 'k') })).json.versions;
    assert.deepEqual(
      versions.map((v: { deleted: boolean }) => v.deleted),
      [false, true],
    );
    assert.equal(versions[1].contentLength, 0);
    const tomb = await call(emu.url, 'GET', `${ENTRY}/versions/version`, {
      query: entry('Tomb', 'k', { versionId: versions[1].version }),
    });
    dsError(tomb, 404, 'EntryNotFound');
    const revived = (await set('Tomb', 'k', '{"v":3}')).json;
    assert.equal(revived.objectCreatedTime, v1.objectCreatedTime);
    assert.equal((await get('Tomb', 'k')).text, '{"v":3}');
    const old = await call(emu.url, 'GET', `${ENTRY}/versions/version`, {
      query: entry('Tomb', 'k', { versionId: v1.version }),
    });
    assert.equal(old.status, 200);
    assert.equal(old.text, '{"v":1}');
    assert.equal(old.headers.get('platform-entry-version'), v1.version);
    assert.equal(old.headers.get('content-md5'), md5('{"v":1}'));
  });

  it('keeps every write and lists versions by time, order, limit and cursor', async () => {
    const ids: string[] = [];
    const times: string[] = [];
    for (let i = 0; i < 5; i++) {
      const v = (await set('Versions', 'k', String(i))).json;
      ids.push(v.version);
      times.push(v.createdTime);
      await new Promise((r) => setTimeout(r, 5));
    }
    assert.deepEqual([...ids].sort(), ids);
    assert.equal(new Set(ids).size, 5);
    const list = (query: Record<string, string | number | undefined>) =>
      call(emu.url, 'GET', `${ENTRY}/versions`, { query: entry('Versions', 'k', query) });
    const all = async (query: Record<string, string | number>): Promise<string[]> => {
      const out: string[] = [];
      let cursor: string | undefined;
      do {
        const r = await list({ ...query, cursor });
        assert.equal(r.status, 200, r.text);
        out.push(...r.json.versions.map((v: { version: string }) => v.version));
        cursor = r.json.nextPageCursor || undefined;
      } while (cursor);
      return out;
    };
    assert.deepEqual(await all({ limit: 2 }), ids);
    assert.deepEqual(await all({ limit: 2, sortOrder: 'Descending' }), [...ids].reverse());
    assert.deepEqual(await all({ startTime: times[1], endTime: times[3] }), ids.slice(1, 4));
    assert.deepEqual(await all({ startTime: times[2], sortOrder: 'Descending', limit: 1 }), ids.slice(2).reverse());
    dsError(await list({ startTime: 'yesterday' }), 400, 'InvalidStartTime');
    dsError(await list({ endTime: '2024-13-45T00:00:00Z' }), 400, 'InvalidEndTime');
    dsError(await list({ sortOrder: 'descending' }), 400, 'InvalidSortOrder');
    const cursor = (await list({ limit: 1 })).json.nextPageCursor;
    dsError(await list({ cursor, sortOrder: 'Descending' }), 400, 'InvalidCursor');
    dsError(
      await call(emu.url, 'GET', `${ENTRY}/versions`, { query: entry('Versions', 'nope') }),
      404,
      'EntryNotFound',
    );
  });

  it('404s an unknown version and 400s a malformed id', async () => {
    const getVersion = (versionId: string) =>
      call(emu.url, 'GET', `${ENTRY}/versions/version`, { query: entry('Versions', 'k', { versionId }) });
    dsError(await getVersion('08D9E6A3F2188CFF.00000FFFFF.08D9E6A3F2188CFF.01'), 404, 'VersionNotFound');
    for (const bad of ['1', 'latest', '08D9E6A3F2188CFF.0000000001.08D9E6A3F2188CFF', '']) {
      dsError(await getVersion(bad), 400, 'InvalidVersionId');
    }
  });
});

describe('increment', () => {
  const inc = (key: string, incrementBy?: string, headers?: Record<string, string>) =>
    call(emu.url, 'POST', `${ENTRY}/increment`, { query: entry('Counters', key, { incrementBy }), headers });

  it('creates, adds, answers the new number with the entry headers, ignores content-md5', async () => {
    const first = await inc('c', '5', { 'content-md5': md5('definitely not empty') });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.text, '5');
    assert.equal(first.headers.get('content-md5'), md5('5'));
    assert.ok(first.headers.get('platform-entry-version'));
    assert.equal((await inc('c')).text, '6');
    assert.equal((await inc('c', '-10')).text, '-4');
    assert.equal((await inc('c', '2.0', { 'platform-entry-userids': '[9]' })).text, '-2');
    const g = await get('Counters', 'c');
    assert.equal(g.text, '-2');
    assert.equal(g.headers.get('platform-entry-userids'), '[9]');
  });

  it('refuses non-numbers, fractions and int64 overflow', async () => {
    await set('Counters', 'text', '"abc"');
    dsError(await inc('text', '1'), 400, 'ExistingValueNotNumeric');
    await set('Counters', 'float', '1.5');
    dsError(await inc('float', '1'), 400, 'ExistingValueNotNumeric');
    for (const bad of ['1.5', 'abc', '1e3', '']) dsError(await inc('c', bad), 400, 'InvalidArgument');
    await set('Counters', 'max', '9223372036854775806');
    assert.equal((await inc('max', '1')).text, '9223372036854775807');
    dsError(await inc('max', '1'), 400, 'IncrementValueTooLarge');
    await set('Counters', 'min', '-9223372036854775808');
    dsError(await inc('min', '-1'), 400, 'IncrementValueTooSmall');
    dsError(await inc('c', '9223372036854775808'), 400, 'IncrementValueTooLarge');
  });
});

describe('universes', () => {
  it('keeps universes apart', async () => {
    await set('Apart', 'k', '1');
    dsError(
      await call(emu.url, 'GET', `${DS(U + 1)}/datastore/entries/entry`, { query: entry('Apart', 'k') }),
      404,
      'DatastoreNotFound',
    );
  });
});
