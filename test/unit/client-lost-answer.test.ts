// Calls whose answer is lost after the service applied them (a proxy in front of the emulator closes the connection
// instead of answering, so the transport tries again): the client reports what really happened.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { NetworkError, NotFoundError, PreconditionFailedError, type OpenApiClient } from '../../src/api';
import { API_KEY, makeClient, rejection } from './support/client';
import { TestEmulator } from './support/emulator';
import { firstOf, startLosingProxy, type LosingProxy } from './support/proxy';

const U = 808;
const entry = { universeId: U, datastoreName: 'Lost', entryKey: 'k' };
/** A binary FBX header, so the emulator takes the upload as a model. */
const FBX = Buffer.from('Kaydara FBX Binary  \x00\x1a\x00model', 'latin1');

let emulator: TestEmulator;
let direct: OpenApiClient;
let proxy: LosingProxy | undefined;
let client: OpenApiClient | undefined;

before(async () => {
  emulator = await TestEmulator.start({ apiKeys: [{ key: API_KEY }] });
  direct = makeClient(emulator.url).client;
});
after(async () => {
  await direct.close();
  await emulator.close();
});
beforeEach(() => emulator.reset());
afterEach(async () => {
  await client?.close();
  await proxy?.close();
  client = proxy = undefined;
});

/** A client whose first `method` request to a path including `path` is applied but its answer lost. */
async function losing(method: string, path: string, beforeLoss?: () => Promise<void>): Promise<OpenApiClient> {
  proxy = await startLosingProxy(emulator.url, firstOf(method, path), beforeLoss);
  client = makeClient(proxy.url).client;
  return client;
}

async function createModel(): Promise<string> {
  const { Readable } = await import('node:stream');
  const op = await direct.assets.create({
    request: { assetType: 'Model', displayName: 'm', description: '', creationContext: { creator: { userId: 1 } } },
    file: { stream: Readable.from([FBX]), contentType: 'model/fbx', filename: 'm.fbx', size: FBX.length },
  });
  return (await direct.assets.waitForOperation(op, { initialDelayMs: 10 })).response!.assetId;
}

const statuses = async (method: string, path: string) =>
  (await emulator.requests({ method, path })).map((r) => r.status);

describe('a lost answer, then a retry', () => {
  it('a delete whose retry finds nothing is done', async () => {
    await direct.datastores.setEntry({ ...entry, value: 1 });
    const c = await losing('DELETE', '/entries/entry');
    await c.datastores.deleteEntry(entry);
    assert.deepEqual(proxy!.lost.length, 1);
    assert.deepEqual(await statuses('DELETE', '/entries/entry'), [204, 404]);
    await assert.rejects(direct.datastores.getEntry(entry), NotFoundError);
  });

  it('a delete of a key that is not there, answered at once, is still NotFound', async () => {
    await direct.datastores.setEntry({ ...entry, entryKey: 'other', value: 1 });
    await assert.rejects(direct.datastores.deleteEntry(entry), NotFoundError);
  });

  it('an archive whose retry finds the asset archived is done, and so is a restore', async () => {
    const assetId = await createModel();
    const archived = await (await losing('POST', ':archive')).assets.archive({ assetId });
    assert.equal(archived.state, 'Archived');
    assert.equal(archived.assetId, assetId);
    assert.deepEqual(await statuses('POST', ':archive'), [200, 400]);
    await client!.close();
    await proxy!.close();

    const restored = await (await losing('POST', ':restore')).assets.restore({ assetId });
    assert.equal(restored.state, 'Active');
    assert.deepEqual(await statuses('POST', ':restore'), [200, 400]);
  });

  it('an archive of an archived asset, answered at once, is still refused', async () => {
    const assetId = await createModel();
    await direct.assets.archive({ assetId });
    const err = await rejection(() => direct.assets.archive({ assetId }));
    assert.equal((err as NotFoundError).status, 400, String(err));
  });

  it('a rollback is not sent again after a lost answer: one new version, not two', async () => {
    const assetId = await createModel();
    const before = (await direct.assets.listVersions({ assetId })).items.length;
    const err = await rejection(async () =>
      (await losing('POST', 'versions:rollback')).assets.rollback({ assetId, versionNumber: 1 }),
    );
    assert.ok(err instanceof NetworkError, String(err));
    assert.equal((await statuses('POST', 'versions:rollback')).length, 1);
    assert.equal((await direct.assets.listVersions({ assetId })).items.length, before + 1);
  });

  it('a save with matchVersion whose retry meets its own write is saved, with that version', async () => {
    const base = await direct.datastores.setEntry({ ...entry, value: 1 });
    const c = await losing('POST', '/entries/entry');
    const saved = await c.datastores.setEntry({
      ...entry,
      raw: '{"gold": 2}',
      matchVersion: base.version,
      attributes: { by: 'me' },
      userIds: [5],
    });
    assert.deepEqual(await statuses('POST', '/entries/entry'), [200, 200, 412]);
    const now = await direct.datastores.getEntry(entry);
    assert.equal(now.raw.toString(), '{"gold": 2}');
    assert.equal(saved.version, now.version);
    assert.equal(saved.createdTime, now.versionCreatedTime);
    assert.equal(saved.contentLength, Buffer.byteLength('{"gold": 2}'));
    assert.equal(saved.deleted, false);
  });

  it('a save with matchVersion whose retry meets another write is still a conflict', async () => {
    const base = await direct.datastores.setEntry({ ...entry, value: 1 });
    const c = await losing('POST', '/entries/entry', async () => {
      await direct.datastores.setEntry({ ...entry, value: 'theirs' });
    });
    const err = await rejection(() => c.datastores.setEntry({ ...entry, value: 'mine', matchVersion: base.version }));
    assert.ok(err instanceof PreconditionFailedError, String(err));
    assert.equal((await direct.datastores.getEntry(entry)).value, 'theirs');
  });

  it('the same bytes with other metadata are still a conflict', async () => {
    const base = await direct.datastores.setEntry({ ...entry, value: 1 });
    const c = await losing('POST', '/entries/entry', async () => {
      await direct.datastores.setEntry({ ...entry, value: 'same', userIds: [9] });
    });
    const err = await rejection(() => c.datastores.setEntry({ ...entry, value: 'same', matchVersion: base.version }));
    assert.ok(err instanceof PreconditionFailedError, String(err));
  });

  it('the same bytes and user ids with other attributes are still a conflict', async () => {
    const base = await direct.datastores.setEntry({ ...entry, value: 1 });
    const c = await losing('POST', '/entries/entry', async () => {
      await direct.datastores.setEntry({ ...entry, value: 'same', attributes: { by: 'them' }, userIds: [5] });
    });
    const err = await rejection(() =>
      c.datastores.setEntry({
        ...entry,
        value: 'same',
        attributes: { by: 'me' },
        userIds: [5],
        matchVersion: base.version,
      }),
    );
    assert.ok(err instanceof PreconditionFailedError, String(err));
    assert.deepEqual((await direct.datastores.getEntry(entry)).attributes, { by: 'them' });
  });
});
