// What a restore keeps of what it replaced, and what it is for: the service keeps only the last write of an hour once
// the hour is over, so a game write in the restore's own hour is gone from the history afterwards. Undo puts it back
// from the audit's record; an audit without the record falls back to the history (and then finds it gone). And a
// delete that raced another writer: the raced keys, the version they lost, and the put-back of that value.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  auditFileFor,
  bytesOf,
  planPutBack,
  planRestore,
  planUndo,
  putBackRaced,
  racedDeletes,
  readAudit,
  readPlanHeader,
  runRestore,
  undoRestore,
  type AuditLine,
  type RestoreAction,
} from '../../src/api';
import { recordOf } from '../../src/api/timeMachine/restoreFormat';
import { clockedEmulator } from './support/emulator';
import { readWritten, type Written } from './support/written';

const U = 5353;
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

const service = clockedEmulator('2024-03-01T10:00:00.000Z', 'restore-record');
const { dir } = service;
let stores = 0;

const at = (store: string, key: string) => ({ universeId: U, datastoreName: store, entryKey: key });
const put = (store: string, key: string, w: Written) => service.client.datastores.setEntry({ ...at(store, key), ...w });

const read = (store: string, key: string) => readWritten(service.client, at(store, key));

const versions = async (store: string, key: string) =>
  (await service.client.datastores.listEntryVersions({ ...at(store, key), limit: 100 })).items.map((v) => v.version);

const auditOf = async (file: string): Promise<AuditLine[]> => {
  const lines: AuditLine[] = [];
  for await (const l of readAudit(file)) lines.push(l);
  return lines;
};

/** A copy of an audit file without the records, as an older version of the extension wrote it. */
function withoutRecords(auditFile: string, name: string): string {
  const file = path.join(dir, `${name}.audit.ndjson`);
  const lines = fs
    .readFileSync(auditFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const o = JSON.parse(l) as Record<string, unknown>;
      delete o.replaced;
      return JSON.stringify(o);
    });
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const THEN: Written = { raw: '{"coins":1}', attributes: { tag: 'then' }, userIds: [1] };
const GAME: Written = { raw: '{"coins": 50,  "n":12345678901234567890}', attributes: { tag: 'game' }, userIds: [5, 6] };

describe('Undo a Restore within the hour of a game write', () => {
  it('puts back the game value, attributes and user ids from the audit after the hour thinned the history', async () => {
    const store = `Record${++stores}`;
    await put(store, 'k', THEN);
    const then = new Date(Date.parse(await service.emulator.advanceClock(HOUR))); // 11:00
    await service.emulator.advanceClock(20 * MINUTE);
    const game = await put(store, 'k', GAME); // 11:20, the hour of the restore
    const created = await put(store, 'c', GAME); // created since the moment: a delete planned
    const plan = path.join(dir, `${store}.ndjson`);
    const summary = await planRestore(service.client, { universeId: U, datastoreName: store }, then, plan);
    assert.deepEqual([summary.write, summary.delete], [1, 1]);
    const header = await readPlanHeader(plan);
    assert.equal(header.undoRecord?.file, auditFileFor(plan));
    assert.match(header.undoRecord?.kept ?? '', /as long as that file is kept/);

    await service.emulator.advanceClock(10 * MINUTE); // 11:30
    const result = await runRestore(service.client, plan);
    assert.deepEqual([result.written, result.deleted], [1, 1]);
    assert.deepEqual(await read(store, 'k'), THEN);
    const audit = await auditOf(auditFileFor(plan));
    const byKey = new Map(audit.map((l) => [l.key, l]));
    assert.deepEqual([byKey.get('k')!.before, byKey.get('c')!.before], [game.version, created.version]);
    for (const key of ['k', 'c']) {
      const r = byKey.get(key)!.replaced!;
      assert.deepEqual([r.raw, r.attributes, r.userIds], [GAME.raw, GAME.attributes, GAME.userIds], key);
    }

    // While the hour lasts, an audit without the records still works from the history.
    const old = withoutRecords(auditFileFor(plan), `${store}-old`);
    const fromHistory = await planUndo(service.client, old, path.join(dir, `${store}-old-undo.ndjson`));
    assert.deepEqual([fromHistory.write, fromHistory.recreate, fromHistory.gone], [1, 1, []]);

    await service.emulator.advanceClock(2 * HOUR); // 13:30: hour 11 is over; only its last writes are kept
    assert.equal((await versions(store, 'k')).includes(game.version), false, 'the game write was thinned');
    assert.equal((await versions(store, 'c')).includes(created.version), false, 'the game write was thinned');
    const late = await planUndo(service.client, old, path.join(dir, `${store}-late-undo.ndjson`));
    assert.deepEqual(
      late.gone.map((g) => g.key).sort(),
      ['c', 'k'],
      'without the records, the history no longer has them',
    );

    const { plan: undo, result: undone } = await undoRestore(service.client, auditFileFor(plan));
    assert.deepEqual([undo.write, undo.recreate, undo.gone], [1, 1, []]);
    assert.deepEqual([undone.written, undone.recreated, undone.skipped], [1, 1, 0]);
    assert.deepEqual(await read(store, 'k'), GAME, 'exact text, attributes and user ids');
    assert.deepEqual(await read(store, 'c'), GAME);
  });

  it('still skips a key changed after the restore', async () => {
    const store = `Record${++stores}`;
    await put(store, 'k', THEN);
    const then = new Date(Date.parse(await service.emulator.advanceClock(HOUR)));
    await put(store, 'k', GAME);
    const plan = path.join(dir, `${store}.ndjson`);
    await planRestore(service.client, { universeId: U, datastoreName: store }, then, plan);
    await runRestore(service.client, plan);
    const later: Written = { raw: '"later"', attributes: {}, userIds: [] };
    await put(store, 'k', later);
    const { result } = await undoRestore(service.client, auditFileFor(plan));
    assert.deepEqual(
      result.skippedKeys.map((s) => `${s.key} ${s.reason}`),
      ['k changed'],
    );
    assert.deepEqual(await read(store, 'k'), later);
  });
});

describe('the record of a value', () => {
  it('keeps UTF-8 JSON as its text and other bytes as base64, both given back exactly', () => {
    const json = Buffer.from('{"name":"Zoë", "big":12345678901234567890}');
    assert.deepEqual(recordOf({ raw: json, attributes: { a: 1 }, userIds: [2] }), {
      raw: json.toString(),
      attributes: { a: 1 },
      userIds: [2],
    });
    for (const bytes of [Buffer.from([0x22, 0xff, 0xfe, 0x22]), Buffer.from('not json')]) {
      const r = recordOf({ raw: bytes, attributes: {}, userIds: [] });
      assert.equal(r.raw, undefined);
      assert.deepEqual(Buffer.from(bytesOf(r)), bytes);
    }
  });
});

describe('a delete that raced another writer', () => {
  const THEIRS: Written = { raw: '"written in the gap"', attributes: { by: 'game' }, userIds: [5] };

  /** A restore whose delete of `c` meets THEIRS written between its check and the delete. */
  async function raced(): Promise<{ store: string; plan: string; theirs: string }> {
    const store = `Raced${++stores}`;
    await put(store, 'k', THEN);
    const then = new Date(Date.parse(await service.emulator.advanceClock(HOUR)));
    await put(store, 'k', GAME); // a write planned beside the delete: not raced, not put back
    await put(store, 'c', { raw: '"created since"', attributes: {}, userIds: [] });
    const plan = path.join(dir, `${store}.ndjson`);
    await planRestore(service.client, { universeId: U, datastoreName: store }, then, plan);
    // The delete is held 2 s on its way in; the other writer writes once the run has checked c's version (the gate:
    // that read in the emulator's log), so its value lands between the check and the delete.
    const mark = (await service.emulator.requests()).length;
    await service.emulator.fault({ method: 'DELETE', path: '/entries/entry', delayMs: 2000 });
    const running = runRestore(service.client, plan);
    const checked = async () =>
      (await service.emulator.requests())
        .slice(mark)
        .some((r) => r.method === 'GET' && r.path.includes('/entries/entry/versions'));
    for (const end = Date.now() + 10_000; !(await checked()); await new Promise((r) => setTimeout(r, 10)))
      assert.ok(Date.now() < end, "the run never read c's versions");
    const theirs = await put(store, 'c', THEIRS);
    const result = await running;
    await service.emulator.clearFaults();
    assert.deepEqual(
      result.raced.map((l) => [l.key, l.before]),
      [['c', theirs.version]],
    );
    return { store, plan, theirs: theirs.version };
  }

  it('lists the raced keys with the version lost, and puts it back after the hour from the record', async () => {
    const { store, plan, theirs } = await raced();
    const [line] = await racedDeletes(auditFileFor(plan));
    assert.deepEqual([line.key, line.before, line.raced], ['c', theirs, true]);
    assert.deepEqual(line.replaced, THEIRS);
    const putBack = await planPutBack(service.client, auditFileFor(plan));
    const actions = fs
      .readFileSync(putBack.planFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .slice(1)
      .map((l) => JSON.parse(l) as RestoreAction);
    assert.deepEqual(
      actions.map((a) => [a.action, a.key, a.then, a.now]),
      [['recreate', 'c', theirs, line.written]],
    );
    assert.equal((await readPlanHeader(putBack.planFile)).putBackOf, auditFileFor(plan));
    fs.rmSync(putBack.planFile);

    await service.emulator.advanceClock(3 * HOUR);
    assert.equal((await versions(store, 'c')).includes(theirs), false, 'the raced write was thinned');
    const { result } = await putBackRaced(service.client, auditFileFor(plan));
    assert.deepEqual([result.recreated, result.skipped], [1, 0]);
    assert.deepEqual(await read(store, 'c'), THEIRS);
  });

  it('puts back nothing over a key written again since the delete', async () => {
    const { store, plan } = await raced();
    const again: Written = { raw: '"again"', attributes: {}, userIds: [9] };
    await put(store, 'c', again);
    const { result } = await putBackRaced(service.client, auditFileFor(plan));
    assert.deepEqual(
      result.skippedKeys.map((s) => `${s.key} ${s.reason}`),
      ['c exists'],
    );
    assert.deepEqual(await read(store, 'c'), again);
  });

  it('an audit without the record reads the version lost from the history', async () => {
    const { store, plan } = await raced();
    const old = withoutRecords(auditFileFor(plan), `${store}-old`);
    const { result } = await putBackRaced(service.client, old);
    assert.equal(result.recreated, 1);
    assert.deepEqual(await read(store, 'c'), THEIRS);
  });
});
