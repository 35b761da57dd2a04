// Comparing two stores against the emulator: one store in two universes on two emulators ("production" and
// "staging", each with its own client), two stores of one universe, and a store against an export file.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  compareStores,
  exportDataStore,
  type CompareSide,
  type LiveSide,
  type CompareStoresOptions,
  type OpenApiClient,
  type StoresComparison,
} from '../../src/api';
import { API_KEY, makeClient } from './support/client';
import { TestEmulator } from './support/emulator';

const PROD = 1001;
const STAGING = 2002;
const STORE = 'Players';

let production: TestEmulator;
let staging: TestEmulator;
let prod: OpenApiClient;
let stage: OpenApiClient;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-compare-stores-'));

interface Write {
  raw: string;
  attributes?: Record<string, unknown>;
  userIds?: number[];
  scope?: string;
}

async function fill(client: OpenApiClient, universeId: number, store: string, entries: Record<string, Write>) {
  for (const [key, w] of Object.entries(entries)) {
    await client.datastores.setEntry({ universeId, datastoreName: store, entryKey: key, ...w });
  }
}

const common = {
  a: { raw: '{"v":1}' },
  b: { raw: '{"v":2}', attributes: { x: 1, y: 2 } },
  d: { raw: '[1,2]' },
  e: { raw: '"e"', userIds: [1, 2] },
  E: { raw: '"upper"' },
  nl: { raw: '{\n  "a": 1\n}\n' },
  ключ: { raw: '"unicode"' },
};

before(async () => {
  production = await TestEmulator.start({ apiKeys: [{ key: API_KEY }] });
  staging = await TestEmulator.start({ apiKeys: [{ key: API_KEY }] });
  prod = makeClient(production.url).client;
  stage = makeClient(staging.url).client;
  await fill(prod, PROD, STORE, { ...common, c: { raw: '"only in production"' }, g: { raw: '{"v":1}' } });
  await fill(stage, STAGING, STORE, {
    ...common,
    b: { raw: '{"v":2}', attributes: { y: 2, x: 3 } },
    d: { raw: '[1,3]', userIds: [5] },
    e: { raw: '"e"', userIds: [2, 1] },
    f: { raw: '"only in staging"' },
    g: { raw: '{"v": 1}' },
  });
  // Two stores of one universe, with two scopes each.
  await fill(prod, PROD, 'Old', { a: { raw: '1' }, b: { raw: '2' }, s: { raw: '3', scope: 's2' } });
  await fill(prod, PROD, 'New', { a: { raw: '1' }, b: { raw: '20' }, s: { raw: '3', scope: 's3' } });
});

after(async () => {
  await Promise.all([prod.close(), stage.close()]);
  await Promise.all([production.close(), staging.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const live = (client: OpenApiClient, universeId: number, more: Partial<LiveSide> = {}): CompareSide => ({
  client,
  universeId,
  datastoreName: STORE,
  ...more,
});

async function compare(source: CompareSide, target: CompareSide, opts: CompareStoresOptions = {}) {
  const results: StoresComparison[] = [];
  const it = compareStores(source, target, opts);
  for (let r = await it.next(); ; r = await it.next()) {
    if (r.done) return { results, summary: r.value };
    results.push(r.value);
  }
}

/** "scope/key status [what differs]". */
const lines = (results: StoresComparison[]) =>
  results.map(
    (r) =>
      `${r.scope === 'global' ? '' : `${r.scope}/`}${r.key} ${r.status}${r.differs ? ` ${r.differs.join(',')}` : ''}`,
  );

describe('compareStores', () => {
  it('production against staging: same, different (value, attributes, user ids), only on one side', async () => {
    const { results, summary } = await compare(
      live(prod, PROD, { pageSize: 2 }),
      live(stage, STAGING, { pageSize: 3 }),
    );
    assert.deepEqual(lines(results), [
      'E same',
      'a same',
      'b different attributes',
      'c onlySource',
      'd different value,userIds',
      'e same',
      'f onlyTarget',
      'g different value',
      'nl same',
      'ключ same',
    ]);
    assert.deepEqual({ ...summary, ms: 0 }, { same: 5, different: 3, onlySource: 1, onlyTarget: 1, gone: 0, ms: 0 });
    const c = results.find((r) => r.key === 'c')!;
    assert.equal(c.target, undefined);
    assert.equal(c.source?.bytes, Buffer.byteLength('"only in production"'));
    const f = results.find((r) => r.key === 'f')!;
    assert.equal(f.source, undefined);
    assert.equal(typeof f.target?.version, 'string');
    const g = results.find((r) => r.key === 'g')!;
    assert.deepEqual([g.source?.bytes, g.target?.bytes], [7, 8]);
  });

  it('reads each key once per side and lists each side once per page', async () => {
    const [p0, s0] = [(await production.requests()).length, (await staging.requests()).length];
    await compare(live(prod, PROD, { prefix: 'a' }), live(stage, STAGING));
    const [p, s] = [(await production.requests()).slice(p0), (await staging.requests()).slice(s0)];
    assert.deepEqual(
      p.map((r) => r.path.split('/').at(-1)),
      ['entries', 'entry'],
    );
    assert.equal(s.filter((r) => r.path.endsWith('/entries')).length, 1);
    assert.equal(s.filter((r) => r.path.endsWith('/entry')).length, 9);
  });

  it('two stores of one universe, one scope each or all scopes each', async () => {
    const side = (datastoreName: string, more: Partial<LiveSide> = {}) => live(prod, PROD, { datastoreName, ...more });
    assert.deepEqual(lines((await compare(side('Old'), side('New'))).results), ['a same', 'b different value']);
    assert.deepEqual(
      lines((await compare(side('Old', { scope: 's2' }), side('New', { scope: 's3' }))).results),
      ['s2/s same'],
      'one scope against another: matched by key',
    );
    assert.deepEqual(
      lines((await compare(side('Old', { allScopes: true }), side('New', { allScopes: true }))).results),
      ['a same', 'b different value', 's2/s onlySource', 's3/s onlyTarget'],
    );
    await assert.rejects(compare(side('Old', { allScopes: true }), side('New')), /one scope with one scope/);
  });

  it('a store against its export file, then after changes', async () => {
    const file = path.join(dir, 'production.ndjson');
    const exported = await exportDataStore(prod, { universeId: PROD, datastoreName: STORE, file });
    assert.equal(exported.exported, 9);
    const same = await compare(live(prod, PROD), { file });
    assert.deepEqual(
      lines(same.results).filter((l) => !l.endsWith(' same')),
      [],
    );
    assert.equal(same.summary.same, 9);
    assert.deepEqual(same.results[0].source, same.results[0].target, 'the same version and size');

    await fill(prod, PROD, STORE, { a: { raw: '{"v":9}' }, h: { raw: '"new"' }, e: { raw: '"e"', userIds: [1] } });
    await prod.datastores.deleteEntry({ universeId: PROD, datastoreName: STORE, entryKey: 'c' });
    try {
      const { results } = await compare({ file }, live(prod, PROD));
      assert.deepEqual(lines(results), [
        'E same',
        'a different value',
        'b same',
        'c onlySource',
        'd same',
        'e different userIds',
        'g same',
        'h onlyTarget',
        'nl same',
        'ключ same',
      ]);
      assert.deepEqual(lines((await compare({ file, prefix: 'n' }, { file, prefix: 'n' })).results), ['nl same']);
      // Staging against the production export: two emulators, one side a file.
      const { summary } = await compare(live(stage, STAGING), { file });
      assert.deepEqual({ ...summary, ms: 0 }, { same: 5, different: 3, onlySource: 1, onlyTarget: 1, gone: 0, ms: 0 });
    } finally {
      await fill(prod, PROD, STORE, { a: common.a, e: common.e, c: { raw: '"only in production"' } });
      await prod.datastores.deleteEntry({ universeId: PROD, datastoreName: STORE, entryKey: 'h' });
    }
  });

  it('refuses a file that is not an export; compares one whose lines are in no order', async () => {
    const notExport = path.join(dir, 'plain.ndjson');
    fs.writeFileSync(notExport, '{"scope":"global","key":"a","value":1}\n');
    await assert.rejects(compare({ file: notExport }, live(prod, PROD)), /not an export file/);
    const unsorted = path.join(dir, 'unsorted.ndjson');
    fs.writeFileSync(
      unsorted,
      '{"export":{"universeId":1,"datastoreName":"S","scope":"global"}}\n' +
        '{"scope":"global","key":"b","value":1}\n{"scope":"global","key":"a","value":1}\n',
    );
    // The service promises no order (docs/SERVICE.md, "Paging cursors"): a file out of order is compared all the same.
    const { results } = await compare({ file: unsorted }, live(prod, PROD, { prefix: 'a' }));
    assert.deepEqual(lines(results), ['a different value', 'b onlySource']);
    const broken = path.join(dir, 'broken.ndjson');
    fs.writeFileSync(broken, '{"export":{"universeId":1,"datastoreName":"S","scope":"global"}}\n{"key":1}\n');
    await assert.rejects(compare(live(prod, PROD), { file: broken }), /broken\.ndjson line 2: "key" must be/);
  });

  it('stops when the reader stops', async () => {
    const mark = (await staging.requests()).length;
    for await (const r of compareStores(live(prod, PROD), live(stage, STAGING, { pageSize: 1 }), { concurrency: 1 })) {
      assert.equal(r.key, 'E');
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
    const made = (await staging.requests()).length - mark;
    assert.ok(made < 12, `${made} requests to staging`);
  });
});
