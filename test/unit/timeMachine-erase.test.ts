// Erase Player Data against the emulator: the plan's action for each kind of candidate key (tied by its key's name,
// tied by its user ids alone, shared, not the player's, a near-miss id, no live entry), its run by runRestore (tied
// entries deleted, the id taken out of shared ones with their exact bytes and attributes), a key changed between plan
// and run (skipped, never overwritten), Undo putting everything back, and the receipt (what happened, no values).
// Expectations come from the entries written here and the versions the emulator lists, never from the code under test.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  auditFileFor,
  eraseReceipt,
  keyNamesUser,
  planErase,
  planRestore,
  planUndo,
  playerTie,
  readAudit,
  readPlanHeader,
  runRestore,
  type AuditLine,
  type EntryKey,
  type EraseProgress,
  type RestoreAction,
} from '../../src/api';
import { rejection } from './support/client';
import { clockedEmulator } from './support/emulator';
import { readWritten, W, type Written } from './support/written';

const U = 5454;
const USER = 2001;
const OTHER = 3000;

const service = clockedEmulator('2024-03-01T10:00:00.000Z', 'erase');
const { dir } = service;
let stores = 0;

/** The entries of a store, by `scope/key`; every value and attribute holds a `V-` or `A-` marker no receipt may show. */
const ENTRIES: [EntryKey, Written][] = [
  [{ scope: 'global', key: 'Player_2001' }, W('{"coins":5, "note":"V-player"}', [], { tag: 'A-player' })],
  [{ scope: 'global', key: '2001' }, W('"V-bare"', [OTHER])], // its key names the user: deleted though shared
  [{ scope: 'global', key: 'u:2001:inv' }, W('[1, 2,  3, "V-inv"]', [USER])],
  [{ scope: 'global', key: 'inventory_a' }, W('{"V":"V-sole"}', [USER], { tag: 'A-sole' })],
  [
    { scope: 'global', key: 'guild_7' },
    W('{"members": [2001, 3000],  "big":12345678901234567890, "x":1.50, "V":"V-guild"}', [OTHER, USER, 4000], {
      role: 'A-guild',
      nested: { list: [1, 'A-n'] },
    }),
  ],
  [{ scope: 'global', key: 'Player_12001' }, W('"V-near1"', [12001])],
  [{ scope: 'global', key: 'Player_20010' }, W('"V-near2"', [20010, OTHER])],
  [{ scope: 'global', key: 'settings' }, W('"V-settings"', [OTHER])],
  [{ scope: 'global', key: 'gone_2001' }, W('"V-gone"', [USER])], // deleted before the plan
  [{ scope: 'inventory', key: 'slot_2001' }, W('{"V":"V-slot"}', [], { tag: 'A-slot' })],
];
const CANDIDATES: EntryKey[] = [
  ...ENTRIES.map(([k]) => k),
  { scope: 'global', key: 'never_2001' }, // never written
  { scope: 'global', key: 'Player_2001' }, // a repeat: read once
];
const TIED = ['Player_2001', '2001', 'u:2001:inv', 'inventory_a', 'slot_2001'];
const NOT_TIED = ['Player_12001', 'Player_20010', 'settings'];

const at = (store: string, { scope, key }: EntryKey) => ({ universeId: U, datastoreName: store, scope, entryKey: key });

const read = (store: string, k: EntryKey) => readWritten(service.client, at(store, k));

const newest = async (store: string, k: EntryKey) =>
  (await service.client.datastores.listEntryVersions({ ...at(store, k), sortOrder: 'Descending', limit: 1 })).items[0];

/** A store of the test's own holding ENTRIES (gone_2001 deleted), and the version of each entry written. */
async function filled(): Promise<{ store: string; versions: Map<string, string> }> {
  const store = `Erase${++stores}`;
  const versions = new Map<string, string>();
  for (const [k, w] of ENTRIES) {
    versions.set(k.key, (await service.client.datastores.setEntry({ ...at(store, k), ...w })).version);
  }
  await service.client.datastores.deleteEntry(at(store, { scope: 'global', key: 'gone_2001' }));
  return { store, versions };
}

const planFile = (name: string) => path.join(dir, `${name}.ndjson`);
const planLines = (file: string): RestoreAction[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(1)
    .map((l) => JSON.parse(l) as RestoreAction);
const byKey = <T extends { key: string }>(items: T[]) => new Map(items.map((i) => [i.key, i]));
const entryOf = (key: string) => ENTRIES.find(([k]) => k.key === key)!;
const written = (key: string) => entryOf(key)[1];

async function auditOf(file: string): Promise<AuditLine[]> {
  const lines: AuditLine[] = [];
  for await (const l of readAudit(file)) lines.push(l);
  return lines;
}

async function* slowly(keys: EntryKey[]): AsyncGenerator<EntryKey> {
  for (const k of keys) {
    await new Promise((r) => setImmediate(r));
    yield k;
  }
}

describe('keyNamesUser and playerTie', () => {
  it('a key names the user only with the id as a whole run of digits', () => {
    const yes = ['Player_2001', '2001', 'u:2001:inv', 'a2001b', '2001_2001', '12001_2001', 'x-2001', '2001.5'];
    const no = ['12001', '20010', 'Player_02001', '120012001', 'Player_200', 'Player_2002', '', 'Player'];
    for (const key of yes) assert.equal(keyNamesUser(key, USER), true, key);
    for (const key of no) assert.equal(keyNamesUser(key, USER), false, key);
    for (const bad of [0, -2001, 1.5, NaN, 2 ** 53]) assert.throws(() => keyNamesUser('2001', bad), RangeError);
  });

  it('tied by the key, by user ids that are the player alone, shared, or not the player', () => {
    assert.equal(playerTie('Player_2001', [OTHER], USER), 'key');
    assert.equal(playerTie('inv', [USER], USER), 'userIds');
    assert.equal(playerTie('inv', [USER, USER], USER), 'userIds');
    assert.equal(playerTie('inv', [OTHER, USER], USER), 'shared');
    assert.equal(playerTie('inv_12001', [12001, 20010], USER), undefined);
    assert.equal(playerTie('inv', [], USER), undefined);
  });
});

describe('planErase', () => {
  it('deletes the tied, takes the id out of the shared, leaves out the rest with why, and writes nothing', async () => {
    const { store, versions } = await filled();
    const start = (await service.emulator.requests()).length;
    const plan = planFile(`${store}-plan`);
    const summary = await planErase(service.client, { universeId: U, datastoreName: store }, USER, CANDIDATES, plan, {
      rate: { writesPerMinute: 60, readsPerMinute: 600 },
      stores: [
        { universeId: U, datastoreName: store },
        { universeId: U, datastoreName: 'Elsewhere' },
      ],
    });
    const sent = (await service.emulator.requests()).slice(start);
    assert.deepEqual(
      sent.filter((r) => r.method !== 'GET'),
      [],
      'a dry run writes nothing',
    );

    assert.deepEqual(
      [summary.delete, summary.write, summary.recreate, summary.unchanged, summary.candidates],
      [5, 1, 0, 3, 11],
    );
    assert.deepEqual(summary.tied, { key: 4, userIds: 1 });
    assert.deepEqual(
      summary.left.map((l) => `${l.key} ${l.reason} ${l.why}`),
      [
        'Player_12001 notTied not tied to user 2001',
        'Player_20010 notTied not tied to user 2001',
        'settings notTied not tied to user 2001',
        'gone_2001 deleted already deleted',
        'never_2001 missing no such key',
      ],
    );
    const tomb = await newest(store, { scope: 'global', key: 'gone_2001' });
    assert.equal(byKey(summary.left).get('gone_2001')!.version, tomb.version);
    assert.equal(byKey(summary.left).get('settings')!.version, versions.get('settings'));
    assert.deepEqual(
      summary.gone.map((g) => g.key),
      ['gone_2001', 'never_2001'],
    );
    const guild = written('guild_7');
    assert.equal(summary.bytes, Buffer.byteLength(guild.raw));
    assert.deepEqual([summary.writes, summary.reads], [6, 10], 'a delete checks its version before and after');
    assert.equal(summary.estimateMs, 6000, '6 writes at 60 a minute');

    const header = await readPlanHeader(plan);
    assert.deepEqual(header.erase, {
      userId: USER,
      stores: [
        { universeId: U, datastoreName: store },
        { universeId: U, datastoreName: 'Elsewhere' },
      ],
    });
    assert.deepEqual(
      [header.universeId, header.datastoreName, header.selection],
      [U, store, { userId: USER, keys: true }],
    );
    assert.equal(header.undoRecord?.file, auditFileFor(plan));

    const actions = planLines(plan);
    assert.deepEqual(
      actions.map((a) => `${a.n} ${a.scope}/${a.key} ${a.action}`),
      [
        '1 global/Player_2001 delete',
        '2 global/2001 delete',
        '3 global/u:2001:inv delete',
        '4 global/inventory_a delete',
        '5 global/guild_7 write',
        '6 inventory/slot_2001 delete',
      ],
      'in the order of the candidates, each key once',
    );
    for (const a of actions) {
      const w = written(a.key);
      assert.equal(a.now, versions.get(a.key), `${a.key}: conditioned on the version read`);
      assert.deepEqual(a.replaces, { raw: w.raw, attributes: w.attributes, userIds: w.userIds }, `${a.key} replaces`);
    }
    const g = byKey(actions).get('guild_7')!;
    assert.deepEqual(
      [g.then, g.raw, g.attributes, g.userIds, g.bytes],
      [versions.get('guild_7'), guild.raw, guild.attributes, [OTHER, 4000], Buffer.byteLength(guild.raw)],
      'the same exact text and attributes, without the id',
    );
    for (const a of actions.filter((x) => x.action === 'delete')) assert.deepEqual([a.bytes, a.raw], [0, undefined]);
  });

  it('takes candidates from an async iterable, reports progress, and refuses what is no user id', async () => {
    const { store } = await filled();
    const plan = planFile(`${store}-async`);
    const reports: (EraseProgress & { ratePerSecond: number })[] = [];
    const summary = await planErase(
      service.client,
      { universeId: U, datastoreName: store },
      USER,
      slowly(CANDIDATES),
      plan,
      { onProgress: (p) => reports.push(p) },
    );
    assert.deepEqual([summary.delete, summary.write, summary.left.length], [5, 1, 5]);
    const { ratePerSecond: _, ...last } = reports.at(-1)!;
    assert.deepEqual(last, { read: 11, delete: 5, write: 1, left: 5 }, 'the last report counts every candidate');
    assert.deepEqual((await readPlanHeader(plan)).erase, {
      userId: USER,
      stores: [{ universeId: U, datastoreName: store }],
    });
    const refused = await rejection(() =>
      planErase(service.client, { universeId: U, datastoreName: store }, 0, CANDIDATES, planFile(`${store}-zero`)),
    );
    assert.match(refused.message, /0 is not a user id/);
  });
});

describe('runRestore of an erase plan', () => {
  it('deletes the tied entries and takes the id out of the shared one, keeping its bytes and attributes', async () => {
    const { store, versions } = await filled();
    const plan = planFile(`${store}-run`);
    await planErase(service.client, { universeId: U, datastoreName: store }, USER, CANDIDATES, plan);
    const result = await runRestore(service.client, plan);
    assert.deepEqual([result.deleted, result.written, result.skipped, result.failed], [5, 1, 0, 0]);
    for (const key of TIED) assert.equal(await read(store, entryOf(key)[0]), undefined, `${key} deleted`);
    const guild = written('guild_7');
    assert.deepEqual(await read(store, entryOf('guild_7')[0]), { ...guild, userIds: [OTHER, 4000] });
    const raw = await service.client.datastores.getEntryBytes(at(store, entryOf('guild_7')[0]));
    assert.deepEqual(raw.raw, Buffer.from(guild.raw), 'byte for byte');
    for (const key of NOT_TIED) {
      assert.deepEqual(await read(store, entryOf(key)[0]), written(key), key);
      assert.equal((await newest(store, entryOf(key)[0])).version, versions.get(key), `${key}: not written`);
    }
    const audit = byKey(await auditOf(auditFileFor(plan)));
    for (const key of [...TIED, 'guild_7']) {
      const l = audit.get(key)!;
      const w = written(key);
      assert.equal(l.before, versions.get(key), key);
      assert.equal(l.written, (await newest(store, entryOf(key)[0])).version, key);
      assert.deepEqual(l.replaced, { raw: w.raw, attributes: w.attributes, userIds: w.userIds }, key);
      assert.ok(!Number.isNaN(Date.parse(l.at ?? '')), `${key}: when`);
    }
  });

  it('skips a key changed between the plan and the run, never overwriting it', async () => {
    const { store } = await filled();
    const plan = planFile(`${store}-changed`);
    await planErase(service.client, { universeId: U, datastoreName: store }, USER, CANDIDATES, plan);
    const theirs = W('"V-theirs"', [USER, OTHER], { by: 'A-game' });
    const changed = ['guild_7', 'inventory_a']; // a write and a delete planned
    for (const key of changed) await service.client.datastores.setEntry({ ...at(store, entryOf(key)[0]), ...theirs });
    const result = await runRestore(service.client, plan);
    assert.deepEqual([result.deleted, result.written, result.skipped], [4, 0, 2]);
    assert.deepEqual(result.skippedKeys.map((s) => `${s.key} ${s.reason}`).sort(), [
      'guild_7 changed',
      'inventory_a changed',
    ]);
    for (const key of changed) assert.deepEqual(await read(store, entryOf(key)[0]), theirs, key);

    const receipt = await eraseReceipt(plan);
    assert.deepEqual(
      receipt.notErased.map((k) => `${k.key} ${k.step} ${k.reason}`),
      ['inventory_a delete changed', 'guild_7 removeId changed'],
    );
    for (const k of receipt.notErased) assert.equal(k.current, (await newest(store, entryOf(k.key)[0])).version);
    assert.deepEqual(receipt.counts, { deleted: 4, idRemoved: 0, notErased: 2, failed: 0, notRun: 0, putBack: 0 });
  });
});

describe('Undo of an erase', () => {
  it('puts back every value, its attributes and user ids', async () => {
    const { store } = await filled();
    const plan = planFile(`${store}-undo`);
    await planErase(service.client, { universeId: U, datastoreName: store }, USER, CANDIDATES, plan);
    await runRestore(service.client, plan);
    const undo = await planUndo(service.client, auditFileFor(plan));
    assert.deepEqual([undo.recreate, undo.write, undo.gone], [5, 1, []]);
    const undone = await runRestore(service.client, undo.planFile);
    assert.deepEqual([undone.recreated, undone.written, undone.skipped, undone.failed], [5, 1, 0, 0]);
    for (const [k, w] of ENTRIES) {
      if (k.key !== 'gone_2001') assert.deepEqual(await read(store, k), w, k.key);
    }
    const guild = await service.client.datastores.getEntryBytes(at(store, entryOf('guild_7')[0]));
    assert.deepEqual(guild.raw, Buffer.from(written('guild_7').raw), 'byte for byte');

    const receipt = await eraseReceipt(plan);
    assert.deepEqual(receipt.erased, [], 'everything was put back');
    assert.deepEqual(receipt.putBack.map((k) => k.key).sort(), [...TIED, 'guild_7'].sort());
    const undoAudit = byKey(await auditOf(auditFileFor(undo.planFile)));
    for (const k of receipt.putBack) assert.equal(k.putBack.version, undoAudit.get(k.key)!.written, k.key);
  });
});

describe('eraseReceipt', () => {
  it('lists what was erased, when, on which versions, and what remains, without any value', async () => {
    const { store, versions } = await filled();
    const plan = planFile(`${store}-receipt`);
    await planErase(service.client, { universeId: U, datastoreName: store }, USER, CANDIDATES, plan);

    const before = await eraseReceipt(plan);
    assert.deepEqual(before.erased, []);
    assert.equal(before.notRun.length, 6, 'planned, not run yet');

    const result = await runRestore(service.client, plan);
    assert.equal(result.failed, 0);
    const made = new Date('2024-03-02T00:00:00.000Z');
    const receipt = await eraseReceipt(plan, { now: made });
    const audit = byKey(await auditOf(auditFileFor(plan)));
    assert.deepEqual(
      [receipt.receipt, receipt.made, receipt.userId, receipt.universeId, receipt.datastoreName, receipt.plan],
      ['erasePlayerData', made.toISOString(), USER, U, store, plan],
    );
    assert.deepEqual(receipt.stores, [{ universeId: U, datastoreName: store }]);
    assert.equal(receipt.planned, (await readPlanHeader(plan)).planned);
    assert.deepEqual(
      receipt.erased.map((k) => `${k.scope}/${k.key} ${k.step}`),
      [
        'global/Player_2001 delete',
        'global/2001 delete',
        'global/u:2001:inv delete',
        'global/inventory_a delete',
        'global/guild_7 removeId',
        'inventory/slot_2001 delete',
      ],
    );
    for (const k of receipt.erased) {
      assert.equal(k.conditionedOn, versions.get(k.key), k.key);
      assert.equal(k.written, audit.get(k.key)!.written, k.key);
      assert.equal(k.at, audit.get(k.key)!.at, k.key);
    }
    assert.deepEqual(receipt.counts, { deleted: 5, idRemoved: 1, notErased: 0, failed: 0, notRun: 0, putBack: 0 });
    assert.deepEqual([receipt.notErased, receipt.failed, receipt.notRun, receipt.putBack], [[], [], [], []]);

    const last = Math.max(...receipt.erased.map((k) => Date.parse(k.at!)));
    assert.equal(receipt.remains.length, 5);
    assert.equal(receipt.remains[0].until, new Date(last + 30 * 24 * 60 * 60 * 1000).toISOString());
    assert.match(receipt.remains.map((r) => r.what).join('\n'), /30 days[\s\S]*stores searched[\s\S]*Undo/);

    const text = JSON.stringify(receipt);
    assert.deepEqual(JSON.parse(text), receipt, 'JSON-serialisable as it is');
    for (const marker of ['V-', 'A-', '12345678901234567890', 'coins', 'members']) {
      assert.equal(text.includes(marker), false, `no value or attribute in the receipt: ${marker}`);
    }
    const fields = new Set<string>();
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          fields.add(k);
          walk(x);
        }
      }
    };
    walk(receipt);
    for (const f of ['raw', 'base64', 'attributes', 'userIds', 'replaced', 'replaces', 'value']) {
      assert.equal(fields.has(f), false, f);
    }
  });

  it('refuses a plan that is no erase plan', async () => {
    const { store } = await filled();
    const plan = planFile(`${store}-restore`);
    await planRestore(service.client, { universeId: U, datastoreName: store }, new Date(), plan);
    const refused = await rejection(() => eraseReceipt(plan));
    assert.match(refused.message, /not a plan of Erase Player Data/);
  });
});
