// Every asset method of the client against the real emulator: uploads, operations, versions, archive.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  InvalidArgumentError,
  NotFoundError,
  OperationFailedError,
  OperationTimeoutError,
  type CreateAssetRequest,
  type OpenApiClient,
  type Operation,
} from '../../src/api';
import { API_KEY, makeClient, rejection } from './support/client';
import { TestEmulator } from './support/emulator';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 1)]);
/** A binary FBX header followed by filler. */
const fbx = (fill: string): Buffer =>
  Buffer.concat([Buffer.from('Kaydara FBX Binary  \x00\x1a\x00', 'latin1'), Buffer.from(fill)]);
const tmp = mkdtempSync(join(tmpdir(), 'client-assets-'));
const file = (name: string, bytes: Buffer | string): string => {
  const path = join(tmp, name);
  writeFileSync(path, bytes);
  return path;
};
const request = (assetType: string, displayName = 'Thing'): CreateAssetRequest => ({
  assetType,
  displayName,
  description: 'made by a test',
  creationContext: { creator: { userId: 1001 } },
});

let emulator: TestEmulator;
let slow: TestEmulator;
let client: OpenApiClient;
let slowClient: OpenApiClient;

before(async () => {
  emulator = await TestEmulator.start({ apiKeys: [{ key: API_KEY }] });
  slow = await TestEmulator.start({ apiKeys: [{ key: API_KEY }], operationDelayMs: 60_000 });
  client = makeClient(emulator.url).client;
  slowClient = makeClient(slow.url).client;
});
after(async () => {
  await Promise.all([client.close(), slowClient.close()]);
  await Promise.all([emulator.close(), slow.close()]);
  rmSync(tmp, { recursive: true, force: true });
});
beforeEach(() => emulator.reset());

async function createModel(displayName = 'Model'): Promise<string> {
  const op = await client.assets.create({
    request: request('Model', displayName),
    file: { path: file('m.fbx', fbx('1')) },
  });
  const done = await client.assets.waitForOperation(op, { initialDelayMs: 10 });
  return done.response!.assetId;
}

describe('assets', () => {
  it('uploads an image from disk and polls the operation to done', async () => {
    const op = await client.assets.create({ request: request('Decal', 'Logo'), file: { path: file('logo.png', PNG) } });
    assert.ok(op.path.startsWith('operations/'));
    const progress: [boolean, number][] = [];
    const done = await client.assets.waitForOperation(op.path, {
      initialDelayMs: 10,
      onProgress: (o, attempt) => progress.push([o.done, attempt]),
    });
    assert.equal(done.done, true);
    assert.deepEqual(progress.at(-1), [true, progress.length]);
    const asset = done.response!;
    assert.equal(asset.assetType, 'Decal');
    assert.equal(asset.displayName, 'Logo');
    assert.equal(typeof asset.assetId, 'string');
    assert.equal(asset.creationContext?.creator.userId, '1001');

    const read = await client.assets.get({ assetId: asset.assetId });
    assert.equal(read.displayName, 'Logo');
    assert.equal(read.state, 'Active');
    const masked = await client.assets.get({ assetId: asset.assetId, readMask: 'displayName,description' });
    assert.deepEqual(
      [masked.assetId, masked.displayName, masked.description],
      [asset.assetId, 'Logo', 'made by a test'],
    );
    const again = await client.assets.getOperation({ operationId: op.operationId });
    assert.equal(again.done, true);
  });

  it('an image/png whose bytes are not a PNG fails the operation with its Status', async () => {
    const op = await client.assets.create({
      request: request('Image'),
      file: { path: file('fake.png', 'not a png at all') },
    });
    const err = await rejection(() => client.assets.waitForOperation(op, { initialDelayMs: 10 }));
    assert.ok(err instanceof OperationFailedError, String(err));
    assert.ok(err.operationStatus.message.length > 0);
    assert.ok(err.message.includes(err.operationStatus.message));
  });

  it('updates metadata and content; versions list newest first, read and roll back', async () => {
    const assetId = await createModel('Before');
    const meta = await client.assets.update({
      assetId,
      request: { displayName: 'After', description: 'new words' },
      updateMask: 'displayName,description',
    });
    await client.assets.waitForOperation(meta, { initialDelayMs: 10 });
    const renamed = await client.assets.get({ assetId });
    assert.deepEqual([renamed.displayName, renamed.description], ['After', 'new words']);

    const content = await client.assets.update({ assetId, request: {}, file: { path: file('m2.fbx', fbx('2')) } });
    await client.assets.waitForOperation(content, { initialDelayMs: 10 });
    const versions = await client.assets.listVersions({ assetId });
    assert.deepEqual(
      versions.items.map((v) => v.versionNumber),
      ['2', '1'],
    );
    const paged = [];
    for await (const v of client.assets.listVersions({ assetId, maxPageSize: 1 })) paged.push(v.path);
    assert.deepEqual(paged, [`assets/${assetId}/versions/2`, `assets/${assetId}/versions/1`]);

    const v1 = await client.assets.getVersion({ assetId, versionNumber: 1 });
    assert.equal(v1.path, `assets/${assetId}/versions/1`);
    const rolled = await client.assets.rollback({ assetId, versionNumber: 1 });
    assert.ok(rolled.path.startsWith(`assets/${assetId}/versions/`));
  });

  it('archive and restore', async () => {
    const assetId = await createModel();
    assert.equal((await client.assets.archive({ assetId })).state, 'Archived');
    assert.equal((await client.assets.get({ assetId })).state, 'Archived');
    assert.equal((await client.assets.restore({ assetId })).state, 'Active');
  });

  it('unknown assets, versions and operations are NotFoundError; bad requests are InvalidArgumentError', async () => {
    await assert.rejects(client.assets.get({ assetId: '999999999' }), NotFoundError);
    const assetId = await createModel();
    await assert.rejects(client.assets.getVersion({ assetId, versionNumber: 99 }), NotFoundError);
    await assert.rejects(client.assets.getOperation({ operationId: 'no-such-operation' }), NotFoundError);
    const noName = await rejection(() =>
      client.assets.create({
        request: { ...request('Model'), displayName: '' },
        file: { path: file('x.fbx', fbx('x')) },
      }),
    );
    assert.ok(noName instanceof InvalidArgumentError, String(noName));
    const wrongType = await rejection(() =>
      client.assets.create({ request: request('Audio'), file: { path: file('y.fbx', fbx('y')) } }),
    );
    assert.ok(wrongType instanceof InvalidArgumentError, String(wrongType));
  });

  it('waitForOperation times out with OperationTimeoutError', async () => {
    const op = await slowClient.assets.create({ request: request('Model'), file: { path: file('s.fbx', fbx('s')) } });
    const started = Date.now();
    const polls: number[] = [];
    const err = await rejection(() =>
      slowClient.assets.waitForOperation(op, {
        timeoutMs: 400,
        initialDelayMs: 50,
        onProgress: (_o: Operation, n) => polls.push(n),
      }),
    );
    assert.ok(err instanceof OperationTimeoutError, String(err));
    assert.ok(Date.now() - started < 5_000);
    assert.ok(polls.length >= 2 && polls.length <= 6, `polled ${polls.length} times`);
  });

  it('waitForOperation stops at once when aborted', async () => {
    const op = await slowClient.assets.create({ request: request('Model'), file: { path: file('t.fbx', fbx('t')) } });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 150);
    const started = Date.now();
    const err = await rejection(() =>
      slowClient.assets.waitForOperation(op, { signal: ac.signal, initialDelayMs: 5_000 }),
    );
    assert.equal(err.name, 'AbortError');
    assert.ok(Date.now() - started < 2_000);
  });
});
