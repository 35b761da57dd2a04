// Restore to Time against the emulator: a history over simulated days in a store of each test's own, a plan (the
// dry run), its run, a writer changing keys meanwhile, a stopped run continued, an undo, and a rate-limited run.
// Expectations come from the writes recorded while building the history, never from the code under test.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  auditFileFor,
  planRestore,
  runRestore,
  RestoreStoppedError,
  skippedFileFor,
  StoppedError,
  undoRestore,
  type AuditLine,
  type RestoreAction,
} from '../../src/api';
import { makeClient, rejection } from './support/client';
import { clockedEmulator, limitedAfter } from './support/emulator';
import { readWritten, W, type Written } from './support/written';

const U = 5151;
const START = Date.parse('2024-03-01T10:00:00.000Z');
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

const service = clockedEmulator(new Date(START).toISOString(), 'restore');
const { dir } = service;
let stores = 0;

/** A store of the test's own and what it held at `then` and holds now, per key (undefined: no entry). */
interface History {
  store: string;
  then: Date;
  at: Map<string, Written | undefined>;
  now: Map<string, Written | undefined>;
}

/**
 * Day 0: a, b, d, e (and p1, p2 for player 7). Day 1: a and b changed (new attributes and user ids), d deleted,
 * c created, p1 changed. The moment restored is between the two days.
 */
async function history(): Promise<History> {
  const store = `Restore${++stores}`;
  const day0: [string, Written][] = [
    ['a', W('{"v":1}', [1], { tag: 'a1' })],
    ['b', W('"b1"', [2])],
    ['d', W('{"n":12345678901234567890, "x":1.50}', [1], { keep: true })],
    ['e', W('"e1"', [2])],
    ['p1', W('{"coins":10}', [7])],
    ['p2', W('{"coins":20}', [7])],
  ];
  const at = new Map<string, Written | undefined>(day0);
  const now = new Map(at);
  for (const [key, w] of day0) await put(store, key, w);
  const then = new Date(Date.parse(await service.emulator.advanceClock(12 * HOUR)));
  await service.emulator.advanceClock(12 * HOUR);
  const day1: [string, Written][] = [
    ['a', W('{"v":2}', [1, 3], { tag: 'a2' })],
    ['b', W('"b2"', [])],
    ['c', W('"c1"', [1])],
    ['p1', W('{"coins":0}', [7])],
  ];
  for (const [key, w] of day1) {
    await put(store, key, w);
    now.set(key, w);
  }
  await service.client.datastores.deleteEntry({ universeId: U, datastoreName: store, entryKey: 'd' });
  now.set('d', undefined);
  at.set('c', undefined);
  await service.emulator.advanceClock(DAY);
  return { store, then, at, now };
}

function put(store: string, key: string, w: Written) {
  return service.client.datastores.setEntry({ universeId: U, datastoreName: store, entryKey: key, ...w });
}

/** What a key holds now, as written; undefined when it has no entry. */
const read = (store: string, key: string, c = service.client) =>
  readWritten(c, { universeId: U, datastoreName: store, entryKey: key });

const lines = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const planFile = (name: string) => path.join(dir, `${name}.ndjson`);
const writes = async (since: number) =>
  (await service.emulator.requests()).slice(since).filter((r) => r.method === 'POST' || r.method === 'DELETE') as {
    method: string;
    query?: string;
    status: number;
  }[];
const keyOf = (query = '') => new URLSearchParams(query).get('entryKey');

describe('planRestore', () => {
  it('writes a dry run: one action per key that differs, with its versions and bytes, and writes nothing', async () => {
    const h = await history();
    const start = (await service.emulator.requests()).length;
    const plan = planFile('dry');
    const summary = await planRestore(service.client, { universeId: U, datastoreName: h.store }, h.then, plan, {
      rate: { writesPerMinute: 60, readsPerMinute: 120 },
    });
    assert.deepEqual(await writes(start), [], 'a dry run writes nothing');
    assert.deepEqual(
      [summary.write, summary.recreate, summary.delete, summary.unchanged, summary.gone],
      [3, 1, 1, 2, []],
    );
    const bytes = ['a', 'b', 'd', 'p1'].reduce((n, k) => n + Buffer.byteLength(h.at.get(k)!.raw), 0);
    assert.equal(summary.bytes, bytes);
    assert.deepEqual([summary.writes, summary.reads], [5, 2], 'a delete checks its version before and after');
    assert.equal(summary.estimateMs, 5000, '5 writes at 60 a minute');

    const [header, ...actions] = lines(plan);
    const h0 = header.restorePlan as Record<string, unknown>;
    assert.deepEqual([h0.universeId, h0.datastoreName, h0.time], [U, h.store, h.then.toISOString()]);
    assert.ok(typeof h0.planned === 'string');
    const byKey = new Map(actions.map((a) => [a.key, a as unknown as RestoreAction]));
    assert.deepEqual(
      actions.map((a) => `${a.n} ${a.key} ${a.action}`),
      ['1 a write', '2 b write', '3 c delete', '4 d recreate', '5 p1 write'],
    );
    const versions = async (key: string) =>
      (await service.client.datastores.listEntryVersions({ universeId: U, datastoreName: h.store, entryKey: key }))
        .items;
    const [a0, a1] = await versions('a');
    assert.deepEqual([byKey.get('a')!.then, byKey.get('a')!.now], [a0.version, a1.version]);
    assert.equal(byKey.get('d')!.raw, h.at.get('d')!.raw, 'the exact text, big numbers included');
    assert.equal(byKey.get('d')!.now, (await versions('d'))[1].version, 'the deletion');
    assert.deepEqual([byKey.get('c')!.bytes, byKey.get('c')!.raw], [0, undefined]);
  });
});

describe('runRestore', () => {
  it('puts back values, attributes and user ids of the moment, re-creates and deletes, and writes an audit', async () => {
    const h = await history();
    const plan = planFile('full');
    await planRestore(service.client, { universeId: U, datastoreName: h.store }, h.then, plan);
    const result = await runRestore(service.client, plan);
    assert.deepEqual(
      [result.written, result.recreated, result.deleted, result.skipped, result.failed],
      [3, 1, 1, 0, 0],
    );
    for (const key of ['a', 'b', 'c', 'd', 'e', 'p1', 'p2']) {
      assert.deepEqual(await read(h.store, key), h.at.get(key), key);
    }
    const audit = lines(auditFileFor(plan));
    assert.deepEqual(audit[0], { restoreAudit: { universeId: U, datastoreName: h.store, plan } });
    const planned = lines(plan).slice(1);
    assert.deepEqual(
      audit
        .slice(1)
        .map((l) => `${l.n} ${l.key} ${l.action}`)
        .sort(),
      ['1 a write', '2 b write', '3 c delete', '4 d recreate', '5 p1 write'],
    );
    for (const line of audit.slice(1)) {
      assert.equal(line.before, planned[(line.n as number) - 1].now);
      const newest = await service.client.datastores.listEntryVersions({
        universeId: U,
        datastoreName: h.store,
        entryKey: line.key as string,
        sortOrder: 'Descending',
        limit: 1,
      });
      assert.equal(line.written, newest.items[0].version, `${line.key as string}: the version written`);
    }
    assert.equal(fs.existsSync(skippedFileFor(plan)), false);
  });

  it('skips and lists keys another writer changed after planning, keeping their values', async () => {
    const h = await history();
    const plan = planFile('meanwhile');
    await planRestore(service.client, { universeId: U, datastoreName: h.store }, h.then, plan);
    const theirs = W('"theirs"', [9]);
    await put(h.store, 'a', theirs); // a write planned
    await put(h.store, 'c', theirs); // a delete planned
    await put(h.store, 'd', theirs); // a re-creation planned
    const result = await runRestore(service.client, plan);
    assert.deepEqual([result.written, result.recreated, result.deleted, result.skipped], [2, 0, 0, 3]);
    assert.deepEqual(
      result.skippedKeys.map((s) => `${s.key} ${s.action} ${s.reason}`),
      ['a write changed', 'c delete changed', 'd recreate exists'],
    );
    for (const key of ['a', 'c', 'd']) assert.deepEqual(await read(h.store, key), theirs, key);
    assert.deepEqual(await read(h.store, 'b'), h.at.get('b'));
    assert.deepEqual(
      lines(skippedFileFor(plan)).map((s) => s.key),
      ['a', 'c', 'd'],
    );
    const again = await runRestore(service.client, plan);
    assert.deepEqual([again.written, again.skipped, again.earlier], [0, 0, 5], 'a second run has nothing left');
  });

  it('a stopped run continues where it stopped: every key written once', async () => {
    const store = `Restore${++stores}`;
    const keys = Array.from({ length: 30 }, (_, i) => `k${String(i).padStart(2, '0')}`);
    for (const key of keys) await put(store, key, W(`"${key} then"`, [1]));
    const then = new Date(Date.parse(await service.emulator.advanceClock(HOUR)));
    await service.emulator.advanceClock(HOUR);
    for (const key of keys) await put(store, key, W(`"${key} now"`));
    const plan = planFile('stopped');
    await planRestore(service.client, { universeId: U, datastoreName: store }, then, plan);
    const start = (await service.emulator.requests()).length;
    await service.emulator.fault({ method: 'POST', path: '/entries/entry', delayMs: 15, times: 1000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 120);
    const stopped = (await rejection(() =>
      runRestore(service.client, plan, { signal: controller.signal, concurrency: 2 }),
    )) as Error & { result: { written: number } };
    await service.emulator.clearFaults();
    assert.equal(stopped.name, 'AbortError');
    assert.ok(stopped instanceof RestoreStoppedError && stopped instanceof StoppedError);
    assert.ok(stopped.result.written > 0 && stopped.result.written < 30, `${stopped.result.written} written`);
    const rest = await runRestore(service.client, plan);
    assert.equal(rest.failed, 0);
    assert.equal(rest.earlier + rest.written, 30);
    const ok = (await writes(start)).filter((r) => r.status === 200).map((r) => keyOf(r.query));
    assert.deepEqual(ok.sort(), keys, 'each key written exactly once');
    const audit = lines(auditFileFor(plan)).slice(1);
    assert.deepEqual(
      audit.map((l) => l.n).sort((x, y) => (x as number) - (y as number)),
      keys.map((_, i) => i + 1),
    );
    for (const key of keys) assert.deepEqual(await read(store, key), W(`"${key} then"`, [1]));
  });

  it('selects one player by user id and touches only their entries', async () => {
    const h = await history();
    const plan = planFile('player');
    const summary = await planRestore(
      service.client,
      { universeId: U, datastoreName: h.store, userId: 7 },
      h.then,
      plan,
    );
    assert.deepEqual([summary.write, summary.recreate, summary.delete, summary.unchanged], [1, 0, 0, 1]);
    const start = (await service.emulator.requests()).length;
    const result = await runRestore(service.client, plan);
    assert.equal(result.written, 1);
    assert.deepEqual(
      (await writes(start)).map((r) => keyOf(r.query)),
      ['p1'],
    );
    assert.deepEqual(await read(h.store, 'p1'), h.at.get('p1'));
    for (const key of ['a', 'b', 'c', 'd']) assert.deepEqual(await read(h.store, key), h.now.get(key), key);
  });

  it('reports a delete that met another writer between its check and the delete, and undo puts that back', async () => {
    const h = await history();
    const plan = planFile('race');
    await planRestore(service.client, { universeId: U, datastoreName: h.store, keys: ['c'] }, h.then, plan);
    await service.emulator.fault({ method: 'DELETE', path: '/entries/entry', delayMs: 200 });
    const running = runRestore(service.client, plan);
    await new Promise((r) => setTimeout(r, 80));
    const theirs = W('"written in the gap"', [5]);
    await put(h.store, 'c', theirs);
    const result = await running;
    assert.equal(result.deleted, 1);
    assert.deepEqual(
      result.raced.map((l) => l.key),
      ['c'],
    );
    const { result: undone } = await undoRestore(service.client, auditFileFor(plan));
    assert.equal(undone.recreated, 1);
    assert.deepEqual(await read(h.store, 'c'), theirs);
  });
});

describe('undoRestore', () => {
  it('puts back the versions before from the audit file, skipping a key changed after the restore', async () => {
    const h = await history();
    const plan = planFile('undo');
    await planRestore(service.client, { universeId: U, datastoreName: h.store }, h.then, plan);
    await runRestore(service.client, plan);
    const later = W('"changed after the restore"');
    await put(h.store, 'b', later);
    const { plan: summary, result } = await undoRestore(service.client, auditFileFor(plan));
    assert.deepEqual([summary.write, summary.recreate, summary.delete], [3, 1, 1]);
    assert.deepEqual([result.written, result.recreated, result.deleted, result.skipped], [2, 1, 1, 1]);
    assert.deepEqual(
      result.skippedKeys.map((s) => `${s.key} ${s.reason}`),
      ['b changed'],
    );
    assert.deepEqual(await read(h.store, 'b'), later);
    for (const key of ['a', 'c', 'd', 'e', 'p1', 'p2']) {
      assert.deepEqual(await read(h.store, key), h.now.get(key), key);
    }
    const undoAudit = lines(auditFileFor(result.auditFile.replace(/\.audit\.ndjson$/, ''))).slice(1);
    assert.equal((undoAudit as unknown as AuditLine[]).length, 4);
  });
});

describe('a restore under the rate limits', () => {
  // Its speed (at most 1.1 x writes / limit) is a benchmark's to measure, not a test's: tests assert no wall-clock time.
  it('restores 300 keys paced by the limits, another writer changing 20 of them meanwhile: those skipped, none overwritten', async () => {
    // History and plan without limits; the run on the same data with 150 writes per 1-second window.
    const keys = Array.from({ length: 300 }, (_, i) => `k${String(i).padStart(3, '0')}`);
    const plan = planFile('limited');
    const limited = await limitedAfter(fs.mkdtempSync(path.join(dir, 'data-')), 0.5, async (seedClient) => {
      const put300 = async (text: string, userIds: number[]) => {
        for (let i = 0; i < keys.length; i += 20) {
          await Promise.all(
            keys.slice(i, i + 20).map((key) =>
              seedClient.datastores.setEntry({
                universeId: U,
                datastoreName: 'Limited',
                entryKey: key,
                raw: `"${key} ${text}"`,
                userIds,
              }),
            ),
          );
        }
      };
      await put300('then', [1]);
      await new Promise((r) => setTimeout(r, 5));
      const then = new Date();
      await new Promise((r) => setTimeout(r, 5));
      await put300('now', []);
      const summary = await planRestore(seedClient, { universeId: U, datastoreName: 'Limited' }, then, plan);
      assert.equal(summary.write, 300);
    });
    const runner = makeClient(limited.url).client;
    const writer = makeClient(limited.url, { retry: { maxAttempts: 10, baseDelayMs: 50, maxDelayMs: 1000 } }).client;
    try {
      const planned = new Map(
        lines(plan)
          .slice(1)
          .map((a) => [a.key as string, a.now as string]),
      );
      const theirs = keys.slice(-20);
      const running = runRestore(runner, plan);
      // The other writer: conditioned on the version it read, so its service.client may repeat it after a 429.
      await Promise.all(
        theirs.map((key) =>
          writer.datastores.setEntry({
            universeId: U,
            datastoreName: 'Limited',
            entryKey: key,
            value: 'theirs',
            matchVersion: planned.get(key),
          }),
        ),
      );
      const result = await running;
      assert.deepEqual([result.written, result.skipped, result.failed], [280, 20, 0]);
      assert.deepEqual(result.skippedKeys.map((s) => s.key).sort(), theirs);
      const seen = await limited.requests();
      const sent = seen.filter((r) => r.method === 'POST' && r.status !== 429).length;
      assert.equal(sent, 320, 'ours and theirs, each once');
      for (const key of theirs) assert.equal((await read('Limited', key, runner))?.raw, '"theirs"', key);
      for (const key of keys.slice(0, 280)) assert.equal((await read('Limited', key, runner))?.raw, `"${key} then"`);
    } finally {
      await runner.close();
      await writer.close();
      await limited.close();
    }
  });
});
