// The client's write guard against the real emulator: every write function of data stores v1 and v2, restrictions
// and assets is refused for a read-only universe (or, for assets, while the guard locks them) before a request is
// made, counted at the emulator; reads still work; other universes are written as before.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { WriteRefusedError, type OpenApiClient, type WriteTarget } from '../../src/api';
import { AssetsApi } from '../../src/api/assets';
import { DataStoresApi } from '../../src/api/datastores';
import { DataStoresV2Api } from '../../src/api/datastoresV2';
import { RestrictionsApi } from '../../src/api/restrictions';
import { API_KEY, makeClient, rejection } from './support/client';
import { TestEmulator } from './support/emulator';

const LOCKED = 5001;
const OPEN = 5002;
const STORE = 'Players';
const tmp = mkdtempSync(join(tmpdir(), 'client-guard-'));
const png = join(tmp, 'logo.png');
writeFileSync(png, Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'));

let emulator: TestEmulator;
let client: OpenApiClient;
let setup: OpenApiClient;
let assetsLocked = false;
const asked: WriteTarget[] = [];

before(async () => {
  emulator = await TestEmulator.start({ apiKeys: [{ key: API_KEY }] });
  client = makeClient(emulator.url, {
    writeGuard: (target) => {
      asked.push(target);
      if ('assets' in target) return assetsLocked ? 'assets are locked: allow writes on universe 5001' : undefined;
      return target.universeId === LOCKED ? 'universe 5001 is read-only: allow writes on its row' : undefined;
    },
  }).client;
  setup = makeClient(emulator.url).client;
});
after(async () => {
  await Promise.all([client.close(), setup.close()]);
  await emulator.close();
  rmSync(tmp, { recursive: true, force: true });
});
beforeEach(async () => {
  await emulator.reset();
  asked.length = 0;
  assetsLocked = false;
});

const entry = (universeId: number, entryKey = 'k') => ({ universeId, datastoreName: STORE, scope: 'global', entryKey });
const meta = { userIds: [], attributes: {} };
const restriction = { active: true, privateReason: 'test', displayReason: 'test' };
const upload = {
  assetType: 'Decal',
  displayName: 'Logo',
  description: '',
  creationContext: { creator: { userId: 1 } },
};

/** Every write function of the client, by group and name, made against universe `u`. */
function writesTo(u: number, assetId: string): Record<string, () => Promise<unknown>> {
  return {
    'datastores.setEntry': () => client.datastores.setEntry({ ...entry(u), value: 1 }),
    'datastores.deleteEntry': () => client.datastores.deleteEntry(entry(u)),
    'datastores.incrementEntry': () => client.datastores.incrementEntry({ ...entry(u), incrementBy: 1 }),
    'datastoresV2.createEntry': () => client.datastoresV2.createEntry({ ...entry(u, 'new'), ...meta, value: 1 }),
    'datastoresV2.updateEntry': () => client.datastoresV2.updateEntry({ ...entry(u), ...meta, value: 2 }),
    'datastoresV2.incrementEntry': () => client.datastoresV2.incrementEntry({ ...entry(u), ...meta, amount: 1 }),
    'datastoresV2.deleteEntry': () => client.datastoresV2.deleteEntry(entry(u)),
    'datastoresV2.deleteDataStore': () => client.datastoresV2.deleteDataStore({ universeId: u, datastoreName: STORE }),
    'datastoresV2.undeleteDataStore': () =>
      client.datastoresV2.undeleteDataStore({ universeId: u, datastoreName: STORE }),
    'restrictions.update': () =>
      client.restrictions.update({ universeId: u, userId: 77, gameJoinRestriction: restriction }),
    'assets.create': () => client.assets.create({ request: upload, file: { path: png } }),
    'assets.update': () => client.assets.update({ assetId, request: { description: 'x' }, updateMask: 'description' }),
    'assets.archive': () => client.assets.archive({ assetId }),
    'assets.restore': () => client.assets.restore({ assetId }),
    'assets.rollback': () => client.assets.rollback({ assetId, versionNumber: 1 }),
  };
}

/** Every read function, against universe `u` (the snapshot too: it keeps what the stores hold, changing none). */
function readsOf(u: number, assetId: string): Record<string, () => Promise<unknown>> {
  return {
    'datastores.listDataStores': () => client.datastores.listDataStores({ universeId: u }),
    'datastores.listEntries': () => client.datastores.listEntries({ universeId: u, datastoreName: STORE }),
    'datastores.getEntry': () => client.datastores.getEntry(entry(u)),
    'datastores.getEntryBytes': () => client.datastores.getEntryBytes(entry(u)),
    'datastores.getEntryVersion': async () => {
      const [v] = await client.datastores.listEntryVersionItems(entry(u));
      return client.datastores.getEntryVersion({ ...entry(u), versionId: v.version });
    },
    'datastores.listEntryVersions': () => client.datastores.listEntryVersions(entry(u)),
    'datastores.listEntryVersionItems': () => client.datastores.listEntryVersionItems(entry(u)),
    'datastoresV2.listDataStores': () => client.datastoresV2.listDataStores({ universeId: u }),
    'datastoresV2.snapshot': () => client.datastoresV2.snapshot(u),
    'datastoresV2.getEntry': () => client.datastoresV2.getEntry(entry(u)),
    'datastoresV2.getEntryText': () => client.datastoresV2.getEntryText(entry(u)),
    'datastoresV2.getEntryRevision': async () => {
      const [r] = (await client.datastoresV2.listRevisions(entry(u))).items;
      return client.datastoresV2.getEntryRevision({ ...entry(u), revisionId: r.version });
    },
    'datastoresV2.getEntryAt': () => client.datastoresV2.getEntryAt({ ...entry(u), time: new Date() }),
    'datastoresV2.listEntries': () => client.datastoresV2.listEntries({ universeId: u, datastoreName: STORE }),
    'datastoresV2.listRevisions': () => client.datastoresV2.listRevisions(entry(u)),
    'restrictions.list': () => client.restrictions.list({ universeId: u }),
    'restrictions.get': () => client.restrictions.get({ universeId: u, userId: 77 }),
    'restrictions.listLogs': () => client.restrictions.listLogs({ universeId: u }),
    'assets.get': () => client.assets.get({ assetId }),
    'assets.getVersion': () => client.assets.getVersion({ assetId, versionNumber: 1 }),
    'assets.listVersions': () => client.assets.listVersions({ assetId }),
    'assets.getOperation': async () => client.assets.getOperation({ operationId: await uploaded() }),
    'assets.waitForOperation': async () => client.assets.waitForOperation(await uploaded(), { initialDelayMs: 5 }),
  };
}

/** An entry in both universes, a ban in the locked one, an asset: what the reads and writes act on. */
async function arrange(): Promise<string> {
  for (const u of [LOCKED, OPEN]) await setup.datastores.setEntry({ ...entry(u), value: 1 });
  await setup.restrictions.update({ universeId: LOCKED, userId: 77, gameJoinRestriction: restriction });
  const op = await setup.assets.waitForOperation(await uploadedBy(setup), { initialDelayMs: 5 });
  return op.response!.assetId;
}

async function uploadedBy(c: OpenApiClient): Promise<string> {
  return (await c.assets.create({ request: upload, file: { path: png } })).path;
}
const uploaded = () => uploadedBy(setup);

describe('the write guard', () => {
  it('lists every public function of the client as a read or a write (a new one must be sorted here)', () => {
    const names = (group: string, proto: object) =>
      Object.getOwnPropertyNames(proto)
        .filter((n) => n !== 'constructor' && typeof (proto as Record<string, unknown>)[n] === 'function')
        .map((n) => `${group}.${n}`);
    const all = [
      ...names('datastores', DataStoresApi.prototype),
      ...names('datastoresV2', DataStoresV2Api.prototype),
      ...names('restrictions', RestrictionsApi.prototype),
      ...names('assets', AssetsApi.prototype),
    ];
    // Private helpers are functions of the prototype too; TypeScript's `private` is not seen at run time.
    const helpers = new Set([
      'datastores.path',
      'datastores.entryQuery',
      'datastores.metadataHeaders',
      'datastores.readEntry',
      'datastores.entryFrom',
      'datastores.bytesFrom',
      'datastores.getEntrySpec',
      'datastores.versionsSpec',
      'datastores.versionsPage',
      'datastoresV2.storesPath',
      'datastoresV2.storePath',
      'datastoresV2.entriesPath',
      'datastoresV2.entryPath',
      'datastoresV2.readEntry',
      'datastoresV2.readFields',
      'datastoresV2.post',
      'restrictions.collection',
      'assets.assetPath',
      'assets.stateChange',
    ]);
    const sorted = [...Object.keys(writesTo(0, '')), ...Object.keys(readsOf(0, ''))];
    assert.deepEqual(all.filter((n) => !helpers.has(n) && !sorted.includes(n)).sort(), []);
    assert.deepEqual(sorted.filter((n) => !all.includes(n)).sort(), []);
  });

  it('refuses every write to a read-only universe before sending it, with the reason given', async () => {
    const assetId = await arrange();
    assetsLocked = true;
    const before = (await emulator.requests()).length;
    for (const [name, write] of Object.entries(writesTo(LOCKED, assetId))) {
      const error = await rejection(write);
      assert.ok(error instanceof WriteRefusedError, `${name}: ${error.name}: ${error.message}`);
      const assets = name.startsWith('assets.');
      assert.equal(
        error.message,
        assets
          ? 'assets are locked: allow writes on universe 5001'
          : 'universe 5001 is read-only: allow writes on its row',
        name,
      );
      assert.equal(error.universeId, assets ? undefined : LOCKED, name);
    }
    assert.deepEqual(await emulator.requests().then((r) => r.slice(before)), []);
    assert.equal(asked.length, Object.keys(writesTo(LOCKED, assetId)).length);
    // Nothing changed: the entry and the ban are as they were.
    assert.equal((await setup.datastores.getEntry(entry(LOCKED))).value, 1);
    assert.equal((await setup.restrictions.get({ universeId: LOCKED, userId: 77 })).gameJoinRestriction.active, true);
  });

  it('lets every read of a read-only universe through, and asks the guard about none of them', async () => {
    const assetId = await arrange();
    assetsLocked = true;
    for (const [name, read] of Object.entries(readsOf(LOCKED, assetId))) {
      const result = await read();
      assert.notEqual(result, undefined, name);
    }
    assert.deepEqual(asked, []);
  });

  it('writes to another universe (and assets the guard leaves open) as before', async () => {
    const assetId = await arrange();
    const before = (await emulator.requests()).length;
    for (const [name, write] of Object.entries(writesTo(OPEN, assetId))) {
      await write().catch((error: unknown) => {
        // Only the service's own answers: a rollback to the version the asset is at, a restore of an active asset.
        assert.ok(!(error instanceof WriteRefusedError), `${name} was refused: ${String(error)}`);
      });
    }
    const sent = (await emulator.requests()).slice(before);
    assert.ok(sent.length >= Object.keys(writesTo(OPEN, assetId)).length, `${sent.length} requests`);
    assert.deepEqual(
      asked.filter((t) => 'universeId' in t && t.universeId !== OPEN),
      [],
    );
  });
});
