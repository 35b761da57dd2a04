// What the client puts on the wire and how it reads every spelling the live service has used (loopback fixtures).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, describe, it } from 'node:test';
import { assetTypesFor, mediaTypeFor, NotFoundError, ResponseShapeError } from '../../src/api';
import { rejection } from './support/client';
import { sendJson, type SeenRequest } from './support/fixture';
import { perTestClient } from './support/perTest';
import { parseMultipart } from './support/multipart';

const ENTRY = { universeId: 77, datastoreName: 'store', entryKey: 'k' };
const tmp = mkdtempSync(join(tmpdir(), 'client-wire-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const t = perTestClient();
const setup = (handler: (req: SeenRequest, res: ServerResponse, i: number) => void, path = '') =>
  t.setup(handler, {}, { path });

/** A fixture that answers every request with one JSON body. */
const answer = (body: unknown, headers: Record<string, string> = {}) =>
  setup((_r, res) => sendJson(res, 200, body, headers));

const query = (req: SeenRequest) => new URL(req.url, 'http://x').searchParams;
const entryHeaders = { 'platform-entry-version': 'v1' };

describe('encoding', () => {
  const hostile = ['a/b', 'ü😀 key', '100%', '%2F', '..', '.', 'a+b&c=d?e#f', ' spaced ', 'x'.repeat(51)];

  it('query values round trip for every hostile key, store name and scope', async () => {
    const { fixture, client } = await setup((_r, res) => sendJson(res, 200, 1, entryHeaders));
    for (const key of hostile) {
      await client.datastores.getEntry({ universeId: 1, datastoreName: key, entryKey: key, scope: key });
      const q = query(fixture.seen.at(-1)!);
      assert.deepEqual([q.get('datastoreName'), q.get('entryKey'), q.get('scope')], [key, key, key]);
    }
  });

  it('path segments are escaped, `..` included, and never fold away', async () => {
    const { fixture, client } = await setup((_r, res) => sendJson(res, 200, { assetId: '1' }));
    for (const id of hostile) {
      await client.assets.get({ assetId: id });
      const url = fixture.seen.at(-1)!.url;
      const segment = url.slice('/assets/v1/assets/'.length);
      assert.ok(url.startsWith('/assets/v1/assets/') && !segment.includes('/'), url);
      assert.ok(segment !== '..' && segment !== '.', url);
      assert.equal(decodeURIComponent(segment), id);
    }
  });

  it('keeps a base path and builds each area path', async () => {
    const { fixture, client } = await setup((_r, res) => sendJson(res, 200, { userRestrictions: [] }), '/proxy/');
    await client.restrictions.list({ universeId: 5, placeId: 6, maxPageSize: 3 });
    await client.restrictions.listLogs({ universeId: 5, user: 7, place: 'places/8' });
    assert.equal(fixture.seen[0].url, '/proxy/cloud/v2/universes/5/places/6/user-restrictions?maxPageSize=3');
    const logs = fixture.seen[1];
    assert.ok(logs.url.startsWith('/proxy/cloud/v2/universes/5/user-restrictions:listLogs?'));
    assert.equal(query(logs).get('filter'), "user == 'users/7' && place == 'places/8'");
  });
});

describe('data store requests', () => {
  it('setEntry sends the exact raw bytes with content-md5, metadata headers and preconditions', async () => {
    const raw = '{ "name" : "Zoë",\n  "n": 1.50 }';
    const { fixture, client } = await answer({
      version: 'v2',
      deleted: false,
      contentLength: 3,
      createdTime: 't',
      objectCreatedTime: 't',
    });
    const v = await client.datastores.setEntry({
      ...ENTRY,
      raw,
      matchVersion: 'v1',
      attributes: { note: 'héllo ☃' },
      userIds: [1, 2],
    });
    assert.equal(v.version, 'v2');
    const req = fixture.seen[0];
    assert.equal(req.method, 'POST');
    assert.deepEqual(req.body, Buffer.from(raw, 'utf8'));
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers['content-md5'], createHash('md5').update(Buffer.from(raw)).digest('base64'));
    assert.deepEqual(JSON.parse(String(req.headers['platform-entry-attributes'])), { note: 'héllo ☃' });
    assert.equal(req.headers['platform-entry-userids'], '[1,2]');
    assert.equal(query(req).get('matchVersion'), 'v1');

    await client.datastores.setEntry({ ...ENTRY, value: { a: [1] }, exclusiveCreate: true });
    const second = fixture.seen[1];
    assert.equal(second.body.toString(), '{"a":[1]}');
    assert.equal(query(second).get('exclusiveCreate'), 'true');
    assert.equal(second.headers['platform-entry-attributes'], undefined);
  });

  it('incrementEntry posts an empty body and always sends incrementBy', async () => {
    const { fixture, client } = await answer(0, entryHeaders);
    const entry = await client.datastores.incrementEntry({ ...ENTRY, incrementBy: 0 });
    assert.equal(entry.value, 0);
    const req = fixture.seen[0];
    assert.equal(req.headers['content-length'], '0');
    assert.equal(req.body.length, 0);
    assert.equal(query(req).get('incrementBy'), '0');
  });

  it('reads an entry from the raw body and the entry headers', async () => {
    const attributes = Buffer.from('{"who":"Zoë"}', 'utf8').toString('latin1');
    const { client } = await setup((r, res, i) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'platform-entry-version': 'v3',
        'content-md5': 'abc==',
        ...(i === 0
          ? {
              'platform-entry-created-time': '2022-02-02T23:30:06.5388799+00:00',
              'platform-entry-version-created-time': '2022-02-03T00:00:00.0000000+00:00',
              'platform-entry-attributes': attributes,
              'platform-entry-userids': '[1, 2, 3]',
            }
          : {}),
      });
      res.end(i === 0 ? '[1,  "two"]' : '"text"');
      void r;
    });
    const full = await client.datastores.getEntry(ENTRY);
    assert.deepEqual(full.value, [1, 'two']);
    assert.equal(full.raw.toString(), '[1,  "two"]');
    assert.deepEqual(
      { ...full, value: undefined, raw: undefined },
      {
        value: undefined,
        json: true,
        raw: undefined,
        version: 'v3',
        createdTime: '2022-02-02T23:30:06.5388799+00:00',
        versionCreatedTime: '2022-02-03T00:00:00.0000000+00:00',
        attributes: { who: 'Zoë' },
        userIds: [1, 2, 3],
        contentMd5: 'abc==',
      },
    );
    const bare = await client.datastores.getEntryVersion({ ...ENTRY, versionId: 'v3' });
    assert.equal(bare.value, 'text');
    assert.deepEqual([bare.attributes, bare.userIds], [{}, []]);
  });

  it('a value that is not JSON (another writer stored text) is read as its bytes, marked not JSON', async () => {
    const { client } = await setup((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'platform-entry-version': 'v1' });
      res.end('plain text, {not json');
    });
    const entry = await client.datastores.getEntry(ENTRY);
    assert.equal(entry.json, false);
    assert.equal(entry.value, undefined);
    assert.equal(entry.raw.toString(), 'plain text, {not json');
  });

  it('a missing version header or bad metadata is a ResponseShapeError naming the header', async () => {
    const { client } = await setup((_r, res, i) =>
      sendJson(res, 200, 1, i === 0 ? {} : { ...entryHeaders, 'platform-entry-userids': '["x"]' }),
    );
    const a = await rejection(() => client.datastores.getEntry(ENTRY));
    assert.ok(a instanceof ResponseShapeError);
    assert.equal(a.field, 'header platform-entry-version');
    const b = await rejection(() => client.datastores.getEntry(ENTRY));
    assert.ok(b instanceof ResponseShapeError);
    assert.equal(b.field, 'header platform-entry-userids[0]');
  });

  it('a 204 for a deleted entry is a NotFoundError', async () => {
    const { client } = await setup((_r, res) => res.writeHead(204).end());
    await assert.rejects(client.datastores.getEntry(ENTRY), NotFoundError);
  });
});

describe('both spellings of every response', () => {
  it('datastores or data, and every end-of-list marker', async () => {
    const bodies = [
      { datastores: [{ name: 'a', createdTime: 't' }], nextPageCursor: 'c1' },
      { data: [{ name: 'b', createdTime: null }], nextPageCursor: '' },
      { datastores: [], nextPageCursor: null },
      { datastores: [] },
    ];
    const { client } = await setup((_r, res, i) => sendJson(res, 200, bodies[i]));
    const page = async () => {
      const { items, next } = await client.datastores.listDataStores({ universeId: 1 });
      return { items, next };
    };
    assert.deepEqual(await page(), { items: [{ name: 'a', createdTime: 't' }], next: 'c1' });
    assert.deepEqual(await page(), { items: [{ name: 'b', createdTime: undefined }], next: undefined });
    for (let i = 0; i < 2; i++) assert.equal((await page()).next, undefined);
  });

  it('keys as objects or bare strings', async () => {
    const { client } = await answer({ keys: [{ scope: 's1', key: 'a' }, { key: 'b' }, 'c'], nextPageCursor: '' });
    const page = await client.datastores.listEntries({ ...ENTRY, scope: 'mine' });
    assert.deepEqual(page.items, [
      { scope: 's1', key: 'a' },
      { scope: 'mine', key: 'b' },
      { scope: 'mine', key: 'c' },
    ]);
  });

  it('a wrong shape names the field', async () => {
    const { client } = await answer({ datastores: [{ name: 5 }] });
    const err = await rejection(() => client.datastores.listDataStores({ universeId: 1 }));
    assert.ok(err instanceof ResponseShapeError);
    assert.equal(err.field, 'datastores[0].name');
    assert.match(err.message, /datastores\[0\]\.name: expected string/);
  });

  it('a 200 body that is not JSON', async () => {
    const { client } = await setup((_r, res) => res.writeHead(200).end('<html>'));
    const err = await rejection(() => client.assets.get({ assetId: 1 }));
    assert.ok(err instanceof ResponseShapeError);
    assert.equal(err.field, '(body)');
  });

  it('log ids bare or prefixed', async () => {
    const log = { createTime: 't', active: true, privateReason: 'p', displayReason: 'd', excludeAltAccounts: false };
    const { client } = await answer({
      logs: [
        { ...log, user: '156', place: '456', moderator: { platformUser: 45348281 } },
        { ...log, user: 'users/157', place: '', moderator: { gameServerScript: {} } },
      ],
    });
    const { items: logs, next } = await client.restrictions.listLogs({ universeId: 1 });
    assert.equal(next, undefined);
    assert.deepEqual(
      logs.map((l) => [l.user, l.place, l.moderator.platformUser]),
      [
        ['users/156', 'places/456', 'users/45348281'],
        ['users/157', '', undefined],
      ],
    );
  });

  it('asset enums, ids as numbers, legacy spellings', async () => {
    const { client } = await answer({
      assetId: 2205400862,
      assetType: 'ASSET_TYPE_DECAL',
      creationContext: { creator: { userId: 11112938575 } },
      moderationResult: { moderationState: 'MODERATION_STATE_APPROVED' },
      state: 'Active',
      displayName: 'Name',
      extra: { kept: true },
    });
    const asset = await client.assets.get({ assetId: 2205400862 });
    assert.equal(asset.assetId, '2205400862');
    assert.equal(asset.assetType, 'Decal');
    assert.equal(asset.creationContext?.creator.userId, '11112938575');
    assert.equal(asset.moderationResult?.moderationState, 'Approved');
    assert.equal(asset.description, '');
    assert.deepEqual(asset.extra, { kept: true });
  });

  it('operations: done missing is pending; a bare asset from update is a done operation', async () => {
    const { client } = await setup((_r, res, i) =>
      sendJson(res, 200, i === 0 ? { path: 'operations/abc' } : { assetId: 9, displayName: 'new' }),
    );
    const op = await client.assets.getOperation({ operationId: 'abc' });
    assert.deepEqual([op.done, op.operationId], [false, 'abc']);
    const updated = await client.assets.update({
      assetId: 9,
      request: { displayName: 'new' },
      updateMask: 'displayName',
    });
    assert.equal(updated.done, true);
    assert.equal(updated.response?.assetId, '9');
  });

  it('asset versions as a wrapper or a bare array', async () => {
    const v = (n: number) => ({ path: `assets/9/versions/${n}`, moderationResult: { moderationState: 'Reviewing' } });
    const { client } = await setup((_r, res, i) =>
      sendJson(
        res,
        200,
        [{ assetVersions: [v(3)], nextPageToken: 't' }, { assetVersions: [v(2)], nextPageCursor: 'u' }, [v(1)]][i],
      ),
    );
    const all = [];
    for await (const version of client.assets.listVersions({ assetId: 9 })) all.push(version.versionNumber);
    assert.deepEqual(all, ['3', '2', '1']);
  });
});

describe('asset uploads', () => {
  it('media types and the asset types a file fits', () => {
    assert.equal(mediaTypeFor('a.PNG'), 'image/png');
    assert.equal(mediaTypeFor('a.rbxmx'), 'model/x-rbxm');
    assert.equal(mediaTypeFor('a.txt'), undefined);
    assert.deepEqual(assetTypesFor('x.jpeg'), ['Decal', 'Image']);
    assert.deepEqual(assetTypesFor('x.ogg'), ['Audio']);
    assert.deepEqual(assetTypesFor('x.glb'), ['Model']);
    assert.deepEqual(assetTypesFor('x.rbxm'), ['Model', 'Animation']);
    assert.deepEqual(assetTypesFor('x.mov'), ['Video']);
    assert.deepEqual(assetTypesFor('x.zip'), []);
  });

  const request = {
    assetType: 'Decal',
    displayName: 'd',
    description: '',
    creationContext: { creator: { userId: 1 } },
  };

  it('create streams a file from disk as multipart with an exact content-length', async () => {
    const file = join(tmp, 'pic.png');
    const bytes = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(100_000, 7)]);
    writeFileSync(file, bytes);
    const { fixture, client } = await answer({ path: 'operations/op1', done: false });
    const op = await client.assets.create({ request, file: { path: file } });
    assert.equal(op.operationId, 'op1');
    const req = fixture.seen[0];
    assert.equal(Number(req.headers['content-length']), req.body.length);
    const parts = await parseMultipart(req.headers, req.body);
    assert.deepEqual(JSON.parse(parts.find((p) => p.name === 'request')!.value.toString()), request);
    const content = parts.find((p) => p.name === 'fileContent')!;
    assert.deepEqual([content.filename, content.mimeType], ['pic.png', 'image/png']);
    assert.deepEqual(content.value, bytes);
  });

  it('a caller stream of unknown size goes chunked; update adds the assetId to the request', async () => {
    const { fixture, client } = await answer({ path: 'operations/op2' });
    const stream = Readable.from(
      (async function* () {
        yield Buffer.from('abc');
        await new Promise((r) => setTimeout(r, 50));
        yield Buffer.from('def');
      })(),
    );
    await client.assets.update({
      assetId: 12,
      request: {},
      file: { stream, contentType: 'model/fbx', filename: 'm.fbx' },
    });
    const req = fixture.seen[0];
    assert.equal(req.method, 'PATCH');
    assert.equal(req.headers['transfer-encoding'], 'chunked');
    const parts = await parseMultipart(req.headers, req.body);
    assert.deepEqual(JSON.parse(parts[0].value.toString()), { assetId: '12' });
    assert.equal(parts[1].value.toString(), 'abcdef');
  });

  it('a 200 MB upload never holds the file in memory', async () => {
    const file = join(tmp, 'big.fbx');
    writeFileSync(file, '');
    const { truncateSync } = await import('node:fs');
    truncateSync(file, 200 * 1024 * 1024);
    const { fixture, client } = await t.setup(
      (_r, res) => sendJson(res, 200, { path: 'operations/big' }),
      {},
      {
        discardBody: true,
      },
    );
    const base = process.memoryUsage();
    let peak = 0;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.arrayBuffers - base.arrayBuffers + (m.heapUsed - base.heapUsed));
    }, 5);
    await client.assets.create({ request: { ...request, assetType: 'Model' }, file: { path: file } });
    clearInterval(sampler);
    assert.equal(fixture.seen[0].size, Number(fixture.seen[0].headers['content-length']));
    assert.ok(fixture.seen[0].size > 200 * 1024 * 1024);
    assert.ok(peak < 64 * 1024 * 1024, `peak extra memory ${Math.round(peak / 1048576)} MB`);
  });
});
