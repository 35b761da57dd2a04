// Metadata is never lost: an entry written with user ids and attributes keeps them exactly after each API-level
// write path that changes its value (import, Restore to Time, its undo, Copy Differences, cloud v2 update and
// increment), against the emulator over real HTTP. The service clears the attributes and user ids a write leaves
// out (open-api.md, v1 Set/Increment headers; open-api-datastores-v2.md §3.2), so each path must send them. Every
// test also checks that the value really changed: a path that wrote nothing would keep the metadata for free.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  exportDataStore,
  importDataStore,
  planCopy,
  planRestore,
  planUndo,
  runRestore,
  type OpenApiClient,
} from '../../src/api';
import { API_KEY } from './support/client';
import { sharedEmulator } from './support/emulator';

const U = 8383;
const START = Date.parse('2024-05-01T10:00:00.000Z');
const HOUR = 60 * 60 * 1000;
const USERS = [1234, 5678];
const ATTRIBUTES = { tier: 'gold', n: 1 };
const META = { userIds: USERS, attributes: ATTRIBUTES };

const shared = sharedEmulator({ apiKeys: [{ key: API_KEY }], clock: START });
const client = (): OpenApiClient => shared.client;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-metadata-'));
after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

let files = 0;
const file = (name: string) => path.join(dir, `${++files}-${name}`);
const at = (datastoreName: string, key: string) => ({ universeId: U, datastoreName, scope: 'global', entryKey: key });

/** Writes the entry with the test's user ids and attributes; returns its raw value as the service holds it. */
async function seed(datastoreName: string, key: string, value: unknown): Promise<string> {
  await client().datastores.setEntry({ ...at(datastoreName, key), value, ...META });
  const e = await client().datastores.getEntry(at(datastoreName, key));
  assert.deepEqual([e.userIds, e.attributes], [USERS, ATTRIBUTES], 'the seed did not keep its own metadata');
  return e.raw.toString();
}

/** The entry now holds `raw` (not `before`: the value really changed) and exactly the seeded metadata, v1 and v2. */
async function assertKept(datastoreName: string, key: string, before: string, raw: string): Promise<void> {
  const e = await client().datastores.getEntry(at(datastoreName, key));
  assert.notEqual(e.raw.toString(), before, `${key}: the value did not change, so nothing was written`);
  assert.equal(e.raw.toString(), raw, `${key}: not the value written`);
  assert.deepEqual(
    { userIds: e.userIds, attributes: e.attributes },
    { userIds: USERS, attributes: ATTRIBUTES },
    `${key}: metadata lost or changed (v1 read)`,
  );
  const v2 = await client().datastoresV2.getEntry({ universeId: U, datastoreName, entryKey: key });
  assert.deepEqual(
    { userIds: v2.userIds, attributes: v2.attributes },
    { userIds: USERS, attributes: ATTRIBUTES },
    `${key}: metadata lost or changed (v2 read)`,
  );
}

function ndjson(name: string, lines: object[]): string {
  const f = file(name);
  fs.writeFileSync(f, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return f;
}

describe('import keeps metadata', () => {
  it('overwrite: a line with a key and a value only changes the value and keeps user ids and attributes', async () => {
    const before = await seed('Import', 'plain', { coins: 1 });
    const result = await importDataStore(client(), {
      universeId: U,
      datastoreName: 'Import',
      file: ndjson('plain.ndjson', [{ scope: 'global', key: 'plain', value: { coins: 2 } }]),
      mode: 'overwrite',
    });
    assert.deepEqual([result.written, result.skipped, result.failed], [1, 0, 0]);
    await assertKept('Import', 'plain', before, '{"coins":2}');
  });

  it('overwrite: a line naming only its attributes keeps the user ids; one naming only user ids keeps the attributes', async () => {
    const a = await seed('Import', 'onlyAttributes', 1);
    const u = await seed('Import', 'onlyUsers', 1);
    const result = await importDataStore(client(), {
      universeId: U,
      datastoreName: 'Import',
      file: ndjson('partial.ndjson', [
        { key: 'onlyAttributes', value: 2, attributes: { tier: 'silver' } },
        { key: 'onlyUsers', value: 2, userIds: [42] },
      ]),
      mode: 'overwrite',
    });
    assert.deepEqual([result.written, result.failed], [2, 0]);
    const ea = await client().datastores.getEntry(at('Import', 'onlyAttributes'));
    assert.notEqual(ea.raw.toString(), a);
    assert.deepEqual([ea.raw.toString(), ea.attributes], ['2', { tier: 'silver' }], 'the line names its attributes');
    assert.deepEqual(ea.userIds, USERS, 'the line names no user ids: the entry keeps its own');
    const eu = await client().datastores.getEntry(at('Import', 'onlyUsers'));
    assert.notEqual(eu.raw.toString(), u);
    assert.deepEqual([eu.raw.toString(), eu.userIds], ['2', [42]], 'the line names its user ids');
    assert.deepEqual(eu.attributes, ATTRIBUTES, 'the line names no attributes: the entry keeps its own');
  });

  it('overwrite: an export line, which names both, writes the metadata it carries', async () => {
    const before = await seed('Import', 'exported', 'old');
    const result = await importDataStore(client(), {
      universeId: U,
      datastoreName: 'Import',
      file: ndjson('exported.ndjson', [
        { export: { universeId: U, datastoreName: 'Import', scope: 'global' } },
        { scope: 'global', key: 'exported', value: 'new', attributes: ATTRIBUTES, userIds: USERS },
      ]),
      mode: 'overwrite',
    });
    assert.deepEqual([result.written, result.failed], [1, 0]);
    await assertKept('Import', 'exported', before, '"new"');
  });

  it('create only: an existing key is skipped and left exactly as it was (no write at all)', async () => {
    await seed('Import', 'exists', 'old');
    const before = await client().datastores.getEntry(at('Import', 'exists'));
    const result = await importDataStore(client(), {
      universeId: U,
      datastoreName: 'Import',
      file: ndjson('create.ndjson', [{ key: 'exists', value: 'new' }]),
      mode: 'createOnly',
    });
    assert.deepEqual([result.written, result.skipped, result.failed], [0, 1, 0]);
    const now = await client().datastores.getEntry(at('Import', 'exists'));
    assert.equal(now.version, before.version, 'create only wrote an existing key');
    assert.deepEqual([now.raw.toString(), now.userIds, now.attributes], ['"old"', USERS, ATTRIBUTES]);
  });
});

describe('the time machine keeps metadata', () => {
  /**
   * Hour 0: "changed" and "gone" written with the metadata. Hour 2 (the moment restored is hour 1): "changed" gets
   * a new value with the same metadata, "gone" is deleted. Returns the values of hour 0 and hour 2 and the moment.
   */
  async function history(store: string): Promise<{ then: Date; changed0: string; changed2: string; gone0: string }> {
    const changed0 = await seed(store, 'changed', { level: 1 });
    const gone0 = await seed(store, 'gone', { level: 7 });
    const then = new Date(Date.parse(await shared.emulator.advanceClock(HOUR)));
    await shared.emulator.advanceClock(HOUR);
    const changed2 = await seed(store, 'changed', { level: 2 });
    await client().datastores.deleteEntry(at(store, 'gone'));
    await shared.emulator.advanceClock(HOUR);
    return { then, changed0, changed2, gone0 };
  }

  it('Restore to Time: a changed key gets its value back and a deleted key is re-created, both with the metadata of the moment', async () => {
    const h = await history('Restore');
    const plan = file('restore.ndjson');
    const summary = await planRestore(client(), { universeId: U, datastoreName: 'Restore' }, h.then, plan);
    assert.deepEqual([summary.write, summary.recreate, summary.delete], [1, 1, 0]);
    const result = await runRestore(client(), plan);
    assert.deepEqual([result.written, result.recreated, result.skipped, result.failed], [1, 1, 0, 0]);
    await assertKept('Restore', 'changed', h.changed2, h.changed0);
    const gone = await client().datastores.getEntry(at('Restore', 'gone'));
    assert.deepEqual(
      [gone.raw.toString(), gone.userIds, gone.attributes],
      [h.gone0, USERS, ATTRIBUTES],
      'the re-created key has the value and metadata of the moment',
    );
  });

  it('Undo of a restore (planUndo + runRestore): the value after the restore is back, with the metadata', async () => {
    const h = await history('Undo');
    const plan = file('undo-restore.ndjson');
    await planRestore(client(), { universeId: U, datastoreName: 'Undo' }, h.then, plan);
    const restored = await runRestore(client(), plan);
    assert.deepEqual([restored.written, restored.recreated], [1, 1]);
    await shared.emulator.advanceClock(HOUR);
    const undo = await planUndo(client(), restored.auditFile);
    assert.deepEqual([undo.write, undo.delete], [1, 1]);
    const result = await runRestore(client(), undo.planFile);
    assert.deepEqual([result.written, result.deleted, result.skipped, result.failed], [1, 1, 0, 0]);
    await assertKept('Undo', 'changed', h.changed0, h.changed2);
  });

  it('Copy Differences from another store (planCopy + runRestore): the source value, with the metadata', async () => {
    const before = await seed('CopyTarget', 'k', { coins: 100 });
    await seed('CopySource', 'k', { coins: 5 });
    const plan = file('copy.ndjson');
    const live = (datastoreName: string) => ({ client: client(), universeId: U, datastoreName });
    const summary = await planCopy(live('CopySource'), live('CopyTarget'), plan);
    assert.deepEqual([summary.write, summary.recreate, summary.delete], [1, 0, 0]);
    const result = await runRestore(client(), plan);
    assert.deepEqual([result.written, result.skipped, result.failed], [1, 0, 0]);
    await assertKept('CopyTarget', 'k', before, '{"coins":5}');
  });

  it('Copy Differences from an export file: the value in the file, with the metadata', async () => {
    const before = await seed('FileTarget', 'k', { coins: 100 });
    await seed('FileSource', 'k', { coins: 5 });
    const exported = file('source-export.ndjson');
    await exportDataStore(client(), { universeId: U, datastoreName: 'FileSource', file: exported, resume: false });
    const plan = file('copy-file.ndjson');
    const summary = await planCopy(
      { file: exported },
      { client: client(), universeId: U, datastoreName: 'FileTarget' },
      plan,
    );
    assert.deepEqual([summary.write, summary.recreate, summary.delete], [1, 0, 0]);
    const result = await runRestore(client(), plan);
    assert.deepEqual([result.written, result.skipped, result.failed], [1, 0, 0]);
    await assertKept('FileTarget', 'k', before, '{"coins":5}');
  });
});

describe('cloud v2 writes keep metadata when given it', () => {
  const v2At = (key: string) => ({ universeId: U, datastoreName: 'V2', entryKey: key });

  it('updateEntry with the entry’s users and attributes changes the value and keeps them', async () => {
    const before = await seed('V2', 'updated', { coins: 1 });
    const current = await client().datastoresV2.getEntry(v2At('updated'));
    const written = await client().datastoresV2.updateEntry({
      ...v2At('updated'),
      value: { coins: 2 },
      userIds: current.userIds,
      attributes: current.attributes,
    });
    assert.deepEqual([written.userIds, written.attributes], [USERS, ATTRIBUTES], 'the answer to the update');
    await assertKept('V2', 'updated', before, '{"coins":2}');
  });

  it('incrementEntry with the entry’s users and attributes adds and keeps them', async () => {
    const before = await seed('V2', 'counter', 10);
    const current = await client().datastoresV2.getEntry(v2At('counter'));
    const written = await client().datastoresV2.incrementEntry({
      ...v2At('counter'),
      amount: 5,
      userIds: current.userIds,
      attributes: current.attributes,
    });
    assert.equal(written.value, 15);
    assert.deepEqual([written.userIds, written.attributes], [USERS, ATTRIBUTES], 'the answer to the increment');
    await assertKept('V2', 'counter', before, '15');
  });
});
