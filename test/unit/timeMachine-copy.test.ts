// "Copy to…" against the emulator: staging copied to production (two emulators, a client each), a store of one
// universe to another with other scopes, and an export file to a store. The plan is a restore plan for the target,
// run by runRestore and undone by undoRestore. Expectations come from the entries written, never from the code.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  exportDataStore,
  planCopy,
  runRestore,
  undoRestore,
  type LiveSide,
  type OpenApiClient,
  type RestoreAction,
} from '../../src/api';
import { API_KEY, makeClient } from './support/client';
import { TestEmulator } from './support/emulator';
import { readWritten, W, type Written } from './support/written';

const PROD = 1001;
const STAGING = 2002;

let production: TestEmulator;
let staging: TestEmulator;
let prod: OpenApiClient;
let stage: OpenApiClient;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-copy-'));
let stores = 0;

before(async () => {
  production = await TestEmulator.start({ apiKeys: [{ key: API_KEY }] });
  staging = await TestEmulator.start({ apiKeys: [{ key: API_KEY }] });
  prod = makeClient(production.url).client;
  stage = makeClient(staging.url).client;
});

after(async () => {
  await Promise.all([prod.close(), stage.close()]);
  await Promise.all([production.close(), staging.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

type Store = Record<string, Written | undefined>;

async function fill(client: OpenApiClient, universeId: number, store: string, entries: Store, scope?: string) {
  for (const [key, w] of Object.entries(entries)) {
    if (w) await client.datastores.setEntry({ universeId, datastoreName: store, entryKey: key, scope, ...w });
  }
}

const read = (client: OpenApiClient, universeId: number, store: string, key: string, scope?: string) =>
  readWritten(client, { universeId, datastoreName: store, entryKey: key, scope });

async function readAll(client: OpenApiClient, universeId: number, store: string, keys: string[], scope?: string) {
  const all: Store = {};
  for (const key of keys) all[key] = await read(client, universeId, store, key, scope);
  return all;
}

const lines = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** "METHOD key" of each write (Set or Delete Entry) an emulator did since `since` (a refused one is not a write). */
const writes = async (emulator: TestEmulator, since: number) =>
  ((await emulator.requests()).slice(since) as { method: string; query?: string; status: number }[])
    .filter((r) => (r.method === 'POST' || r.method === 'DELETE') && r.status < 300)
    .map((r) => `${r.method} ${new URLSearchParams(r.query ?? '').get('entryKey')}`)
    .sort();

/** Staging (the source) and production (the target), in a store of the test's own. */
const source: Store = {
  same: W('{"v":1}', [1], { t: 'x' }),
  value: W('{"n":12345678901234567890, "x":1.50}', [1]),
  attrs: W('"a"', [2], { tag: 'new' }),
  ids: W('"i"', [3, 4]),
  raced: W('"staging"'),
  fresh: W('"only in staging"', [5], { k: 1 }),
  gone: W('"deleted in production"'),
};
const target: Store = {
  same: W('{"v":1}', [1], { t: 'x' }),
  value: W('{"n":1}', [1]),
  attrs: W('"a"', [2], { tag: 'old' }),
  ids: W('"i"', [4]),
  raced: W('"production"'),
  extra: W('"only in production"', [6]),
};
const KEYS = ['attrs', 'extra', 'fresh', 'gone', 'ids', 'raced', 'same', 'value'];

async function twoStores(): Promise<string> {
  const store = `Copy${++stores}`;
  await fill(stage, STAGING, store, source);
  await fill(prod, PROD, store, { ...target, gone: W('"soon deleted"') });
  await prod.datastores.deleteEntry({ universeId: PROD, datastoreName: store, entryKey: 'gone' });
  return store;
}

const live = (client: OpenApiClient, universeId: number, datastoreName: string, more: Partial<LiveSide> = {}) => ({
  client,
  universeId,
  datastoreName,
  ...more,
});

describe('planCopy', () => {
  it('staging to production: a dry run, its run (a key changed meanwhile skipped), then its undo', async () => {
    const store = await twoStores();
    const before = await readAll(prod, PROD, store, KEYS);
    const plan = path.join(dir, `${store}.ndjson`);
    const [p0, s0] = [(await production.requests()).length, (await staging.requests()).length];
    const summary = await planCopy(live(stage, STAGING, store), live(prod, PROD, store), plan, {
      rate: { writesPerMinute: 60 },
    });
    assert.deepEqual([await writes(production, p0), await writes(staging, s0)], [[], []], 'a dry run writes nothing');
    assert.deepEqual(
      [summary.write, summary.recreate, summary.delete, summary.unchanged, summary.extra, summary.gone],
      [4, 2, 0, 1, 1, []],
    );
    const copied = ['attrs', 'fresh', 'gone', 'ids', 'raced', 'value'];
    assert.equal(
      summary.bytes,
      copied.reduce((n, k) => n + Buffer.byteLength(source[k]!.raw), 0),
    );
    assert.deepEqual([summary.writes, summary.reads, summary.estimateMs], [6, 0, 6000]);

    const [header, ...actions] = lines(plan);
    assert.deepEqual(
      { ...(header.restorePlan as Record<string, unknown>), planned: 0 },
      {
        universeId: PROD,
        datastoreName: store,
        selection: { scope: 'global' },
        planned: 0,
        copyOf: { universeId: STAGING, datastoreName: store, scope: 'global' },
      },
    );
    assert.deepEqual(
      actions.map((a) => `${a.key} ${a.action}`),
      ['attrs write', 'fresh recreate', 'gone recreate', 'ids write', 'raced write', 'value write'],
    );
    const value = actions.find((a) => a.key === 'value') as unknown as RestoreAction;
    assert.equal(value.raw, source.value!.raw, 'the exact text, big numbers included');
    const newest = await prod.datastores.listEntryVersions({
      universeId: PROD,
      datastoreName: store,
      entryKey: 'value',
      sortOrder: 'Descending',
      limit: 1,
    });
    assert.equal(value.now, newest.items[0].version, "the target's version seen");

    const theirs = W('"changed in production meanwhile"', [9]);
    await fill(prod, PROD, store, { raced: theirs });
    const p1 = (await production.requests()).length;
    const result = await runRestore(prod, plan);
    assert.deepEqual(
      [result.written, result.recreated, result.deleted, result.skipped, result.failed],
      [3, 2, 0, 1, 0],
    );
    assert.deepEqual(
      result.skippedKeys.map((s) => `${s.key} ${s.action} ${s.reason}`),
      ['raced write changed'],
    );
    assert.deepEqual(
      await writes(production, p1),
      ['POST attrs', 'POST fresh', 'POST gone', 'POST ids', 'POST value'],
      'the same key and the extra key are not written',
    );
    const after = await readAll(prod, PROD, store, KEYS);
    assert.deepEqual(after, { ...source, raced: theirs, extra: target.extra });

    const undo = await undoRestore(prod, result.auditFile);
    assert.deepEqual([undo.result.written, undo.result.deleted, undo.result.skipped], [3, 2, 0]);
    assert.deepEqual(await readAll(prod, PROD, store, KEYS), { ...before, raced: theirs });
  });

  it('deletes the keys only the target has with deleteExtra, and the undo puts them back', async () => {
    const store = await twoStores();
    const plan = path.join(dir, `${store}.ndjson`);
    const summary = await planCopy(live(stage, STAGING, store), live(prod, PROD, store), plan, { deleteExtra: true });
    assert.deepEqual([summary.write, summary.recreate, summary.delete, summary.extra], [4, 2, 1, 0]);
    assert.deepEqual([summary.writes, summary.reads], [7, 2]);
    const result = await runRestore(prod, plan);
    assert.deepEqual([result.written, result.recreated, result.deleted, result.skipped], [4, 2, 1, 0]);
    assert.deepEqual(await readAll(prod, PROD, store, KEYS), { ...source, extra: undefined });
    await undoRestore(prod, result.auditFile);
    assert.deepEqual(await read(prod, PROD, store, 'extra'), target.extra);
    assert.deepEqual(await read(prod, PROD, store, 'fresh'), undefined);
  });

  it('two stores of one universe, from one scope to another', async () => {
    const [from, to] = [`Copy${++stores}`, `Copy${++stores}`];
    await fill(prod, PROD, from, { a: W('1'), b: W('2', [1]) }, 's2');
    await fill(prod, PROD, to, { a: W('1'), b: W('20'), c: W('3') }, 's3');
    const plan = path.join(dir, `${to}.ndjson`);
    await planCopy(live(prod, PROD, from, { scope: 's2' }), live(prod, PROD, to, { scope: 's3' }), plan, {
      deleteExtra: true,
    });
    assert.deepEqual(
      lines(plan)
        .slice(1)
        .map((a) => `${a.scope as string}/${a.key as string} ${a.action as string}`),
      ['s3/b write', 's3/c delete'],
      "the target's scope",
    );
    await runRestore(prod, plan);
    assert.deepEqual(await readAll(prod, PROD, to, ['a', 'b', 'c'], 's3'), { a: W('1'), b: W('2', [1]), c: undefined });
    assert.deepEqual(await readAll(prod, PROD, to, ['a', 'b'], 's2'), { a: undefined, b: undefined });
  });

  it('an export file to a store: the values of its lines', async () => {
    const store = await twoStores();
    const file = path.join(dir, `${store}.export.ndjson`);
    await exportDataStore(stage, { universeId: STAGING, datastoreName: store, file });
    // Staging changes after its export: the copy takes the file's values, and makes no request to staging.
    await fill(stage, STAGING, store, { value: W('"later"'), fresh: W('"later"') });
    const s0 = (await staging.requests()).length;
    const plan = path.join(dir, `${store}.ndjson`);
    const summary = await planCopy({ file }, live(prod, PROD, store), plan);
    assert.equal((await staging.requests()).length, s0);
    assert.deepEqual([summary.write, summary.recreate, summary.delete, summary.unchanged], [4, 2, 0, 1]);
    assert.deepEqual((lines(plan)[0].restorePlan as Record<string, unknown>).copyOf, { file });
    const before = await readAll(prod, PROD, store, KEYS);
    const p0 = (await production.requests()).length;
    const result = await runRestore(prod, plan);
    assert.deepEqual([result.written, result.recreated, result.skipped, result.failed], [4, 2, 0, 0]);
    assert.ok(!(await writes(production, p0)).includes('POST same'));
    assert.deepEqual(await readAll(prod, PROD, store, KEYS), { ...source, extra: target.extra });
    await undoRestore(prod, result.auditFile);
    assert.deepEqual(await readAll(prod, PROD, store, KEYS), before);
  });

  it('refuses a file as the target', async () => {
    const plan = path.join(dir, 'to-file.ndjson');
    await assert.rejects(
      planCopy(live(stage, STAGING, 'S'), { file: plan } as unknown as LiveSide, plan),
      /to a live store/,
    );
  });
});
