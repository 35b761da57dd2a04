// Comparing and copying stores whose keys mix scripts after a common prefix (player names: an emoji, full-width and
// half-width forms, an accent), with sides listed in different orders: the service promises no order (SERVICE.md,
// "Paging cursors"), the emulator lists by UTF-8 bytes, and an export file may hold its lines in any order.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  compareStores,
  exportDataStore,
  planCopy,
  runRestore,
  type CompareSide,
  type LiveSide,
  type OpenApiClient,
  type StoresComparison,
} from '../../src/api';
import { utf8Order } from '../../src/api/timeMachine/compareStores';
import { API_KEY, makeClient } from './support/client';
import { TestEmulator } from './support/emulator';

const PROD = 1001;
const STAGING = 2002;
const STORE = 'Names';

let production: TestEmulator;
let staging: TestEmulator;
let prod: OpenApiClient;
let stage: OpenApiClient;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-compare-order-'));

interface Write {
  raw: string;
  attributes?: Record<string, unknown>;
}

const source: Record<string, Write> = {
  'player_😀': { raw: '{"level":1}' },
  player_ｱｲ: { raw: '{"level":2}' },
  player_ｶ: { raw: '{"level":3}' },
  player_Ａ: { raw: '{"level":4}' },
  player_a: { raw: '{"level":5}', attributes: { team: 'red' } },
  player_é: { raw: '{"level":6}' },
};
const target: Record<string, Write> = {
  'player_😀': { raw: '{"level":1}' },
  player_ｱｲ: { raw: '{"level":20}' },
  player_Ａ: { raw: '{"level":4}' },
  player_a: { raw: '{"level":5}', attributes: { team: 'blue' } },
  player_é: { raw: '{"level":6}' },
  'player_🎮': { raw: '{"level":7}' },
};
const KEYS = [...new Set([...Object.keys(source), ...Object.keys(target)])];

/** What the two sides hold, key by key, in UTF-8 byte order. */
const EXPECTED = [
  'player_a different attributes',
  'player_é same',
  'player_Ａ same',
  'player_ｱｲ different value',
  'player_ｶ onlySource',
  'player_🎮 onlyTarget',
  'player_😀 same',
];
const EXPECTED_COUNTS = { same: 3, different: 2, onlySource: 1, onlyTarget: 1, gone: 0 };

async function fill(client: OpenApiClient, universeId: number, store: string, entries: Record<string, Write>) {
  for (const [key, w] of Object.entries(entries)) {
    await client.datastores.setEntry({ universeId, datastoreName: store, entryKey: key, ...w });
  }
}

before(async () => {
  production = await TestEmulator.start({ apiKeys: [{ key: API_KEY }] });
  staging = await TestEmulator.start({ apiKeys: [{ key: API_KEY }] });
  prod = makeClient(production.url).client;
  stage = makeClient(staging.url).client;
  await fill(prod, PROD, STORE, source);
  await fill(stage, STAGING, STORE, target);
});

after(async () => {
  await Promise.all([prod.close(), stage.close()]);
  await Promise.all([production.close(), staging.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const live = (client: OpenApiClient, universeId: number, datastoreName = STORE, pageSize = 2): LiveSide => ({
  client,
  universeId,
  datastoreName,
  pageSize,
});

async function compare(a: CompareSide, b: CompareSide) {
  const results: StoresComparison[] = [];
  const it = compareStores(a, b);
  for (let r = await it.next(); ; r = await it.next()) {
    if (r.done) return { results, summary: { ...r.value, ms: 0 } };
    results.push(r.value);
  }
}

const lines = (results: StoresComparison[]) =>
  results.map((r) => `${r.key} ${r.status}${r.differs ? ` ${r.differs.join(',')}` : ''}`);

/** An export of `store`, rewritten with its entry lines in `order` (the header stays first). */
async function exportIn(
  client: OpenApiClient,
  universeId: number,
  name: string,
  order: (lines: string[]) => string[],
): Promise<string> {
  const file = path.join(dir, `${name}.ndjson`);
  await exportDataStore(client, { universeId, datastoreName: STORE, file, resume: false });
  const [header, ...entries] = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
  fs.writeFileSync(file, [header, ...order(entries)].map((l) => `${l}\n`).join(''));
  return file;
}

/** Lines in the JavaScript string order of their keys (UTF-16 code units), not the emulator's. */
const byCodeUnits = (entries: string[]) =>
  [...entries].sort((x, y) => {
    const [a, b] = [JSON.parse(x).key as string, JSON.parse(y).key as string];
    return a < b ? -1 : a > b ? 1 : 0;
  });

describe('utf8Order', () => {
  it('orders strings as their UTF-8 bytes, where JavaScript order differs', () => {
    const words = ['player_😀', 'player_ｱｲ', 'player_ｶ', 'player_Ａ', 'player_a', 'player_é', 'player_', '\uffff', '𐀀'];
    for (let i = 0; i < 200; i++) {
      const units = Array.from(
        { length: 1 + (i % 4) },
        (_, n) => [0x61, 0xe9, 0xff71, 0xd83d, 0xfffd][(i * 7 + n) % 5],
      );
      // A lone high surrogate becomes a pair, so every string is valid UTF-16 (bytes compare the same way).
      words.push(String.fromCharCode(...units).replace(/\ud83d(?![\udc00-\udfff])/g, '😀'));
    }
    const bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
    for (const a of words) for (const b of words) assert.equal(Math.sign(utf8Order(a, b)), bytes(a, b), `${a} ${b}`);
    const [emoji, kana] = words;
    assert.ok(emoji < kana && utf8Order(emoji, kana) > 0, 'the case JavaScript sorts the other way');
  });
});

describe('compareStores whatever order the sides list their keys in', () => {
  it('store against store on the emulator: every key once, the counts adding up', async () => {
    const { results, summary } = await compare(live(prod, PROD), live(stage, STAGING, STORE, 3));
    assert.deepEqual(lines(results), EXPECTED);
    assert.deepEqual(summary, { ...EXPECTED_COUNTS, ms: 0 });
    const { same, different, onlySource, onlyTarget } = summary;
    assert.equal(same + different + onlySource + onlyTarget, KEYS.length);
  });

  it('store against a file, file against store, and file against file, each file in another order', async () => {
    const reversed = await exportIn(stage, STAGING, 'reversed', (l) => l.reverse());
    const utf16 = await exportIn(stage, STAGING, 'utf16', byCodeUnits);
    for (const file of [reversed, utf16]) {
      const storeFile = await compare(live(prod, PROD), { file });
      assert.deepEqual(lines(storeFile.results), EXPECTED, file);
      assert.deepEqual(storeFile.summary, { ...EXPECTED_COUNTS, ms: 0 });
    }
    const sourceFile = await exportIn(prod, PROD, 'source', byCodeUnits);
    const fileStore = await compare({ file: sourceFile }, live(stage, STAGING));
    assert.deepEqual(lines(fileStore.results), EXPECTED);
    const fileFile = await compare({ file: sourceFile }, { file: reversed });
    assert.deepEqual(lines(fileFile.results), EXPECTED);
    const itself = await compare({ file: reversed }, { file: utf16 });
    assert.deepEqual(
      lines(itself.results),
      KEYS.filter((k) => k in target)
        .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
        .map((k) => `${k} same`),
    );
  });

  it('refuses a file that holds a key twice, naming both lines', async () => {
    const twice = await exportIn(stage, STAGING, 'twice', (l) => [...l, l[1]]);
    await assert.rejects(compare({ file: twice }, live(prod, PROD)), /twice\.ndjson lines 3 and 8 both hold/);
  });
});

describe('planCopy of mixed-script keys', () => {
  it('copies exactly the differences, from a store or from a file in another order', async () => {
    for (const from of ['store', 'file'] as const) {
      const store = `Copy_${from}`;
      await fill(stage, STAGING, store, target);
      const sourceSide =
        from === 'store' ? live(prod, PROD) : { file: await exportIn(prod, PROD, 'copy-source', (l) => l.reverse()) };
      const plan = path.join(dir, `${store}.plan.ndjson`);
      const summary = await planCopy(sourceSide, live(stage, STAGING, store), plan);
      assert.deepEqual(
        [summary.write, summary.recreate, summary.delete, summary.unchanged, summary.extra],
        [2, 1, 0, 3, 1],
        from,
      );
      const actions = fs
        .readFileSync(plan, 'utf8')
        .split('\n')
        .filter(Boolean)
        .slice(1)
        .map((l) => JSON.parse(l) as { key: string; action: string; raw: string });
      assert.deepEqual(actions.map((a) => `${a.key} ${a.action} ${a.raw}`).sort(), [
        `player_a write ${source.player_a.raw}`,
        `player_ｱｲ write ${source['player_ｱｲ'].raw}`,
        `player_ｶ recreate ${source['player_ｶ'].raw}`,
      ]);
      const result = await runRestore(stage, plan);
      assert.deepEqual([result.written, result.recreated, result.skipped, result.failed], [2, 1, 0, 0]);
      const after = await compare(live(prod, PROD), live(stage, STAGING, store));
      assert.deepEqual(lines(after.results), [
        'player_a same',
        'player_é same',
        'player_Ａ same',
        'player_ｱｲ same',
        'player_ｶ same',
        'player_🎮 onlyTarget',
        'player_😀 same',
      ]);
    }
  });
});
