// The dry run of an import against the real emulator over loopback: what each line would do in either mode, across
// scopes, with invalid lines, deleted and repeated keys; that it writes nothing, lists instead of reading each key,
// stops when aborted, and agrees with what the import then does.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  failuresFileFor,
  importDataStore,
  planImport,
  type ApiVersion,
  type ImportMode,
  type ImportPlan,
  type OpenApiClient,
} from '../../src/api';
import { makeClient, rejection } from './support/client';
import { sharedEmulator } from './support/emulator';

const U = 7272;
const STORE = { universeId: U, datastoreName: 'Store' };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-bulk-import-plan-'));
const shared = sharedEmulator();
after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const at = (key: string, scope = 'global') => ({ ...STORE, scope, entryKey: key });
const line = (o: object) => JSON.stringify(o);

function input(name: string, lines: string[]): string {
  const f = path.join(dir, name);
  fs.writeFileSync(f, lines.join('\n') + '\n');
  return f;
}

async function put(key: string, scope = 'global', value: unknown = 'old'): Promise<void> {
  await shared.client.datastores.setEntry({ ...at(key, scope), value });
}

/** Each action as `line scope/key action[ reason]`, easy to compare whole. */
const rows = (plan: ImportPlan): string[] =>
  plan.actions.map((a) => `${a.line} ${a.scope}/${a.key} ${a.action}${a.reason ? ` ${a.reason}` : ''}`);

/** Writes the emulator answered since `before` (any method but GET). */
async function writesSince(before: number): Promise<number> {
  return (await shared.emulator.requests()).slice(before).filter((r) => r.method !== 'GET').length;
}

const APIS: ApiVersion[] = ['v1', 'v2'];

describe('planImport', () => {
  for (const api of APIS) {
    it(`createOnly (${api}): an existing key is skipped as "exists", a new one created; nothing is written`, async () => {
      await put('a');
      await put('c');
      const f = input(`create-only-${api}.ndjson`, [
        line({ scope: 'global', key: 'a', value: 'new', attributes: {}, userIds: [] }),
        line({ scope: 'global', key: 'b', value: { n: 'ü' }, attributes: {}, userIds: [] }),
        line({ key: 'c', value: 12345 }),
      ]);
      const before = (await shared.emulator.requests()).length;
      const plan = await planImport(shared.client, { ...STORE, api }, f, 'createOnly');
      assert.deepEqual(rows(plan), ['1 global/a skip exists', '2 global/b create', '3 global/c skip exists']);
      assert.deepEqual(
        plan.actions.map((a) => a.bytes),
        [5, Buffer.byteLength('{"n":"ü"}'), 5],
        'the bytes of the value each line holds',
      );
      assert.deepEqual(plan.counts, { create: 1, overwrite: 0, skip: 2, invalid: 0, bytes: 10 });
      assert.equal(plan.mode, 'createOnly');
      assert.equal(await writesSince(before), 0, 'a dry run writes nothing');
      assert.equal((await shared.client.datastores.getEntry(at('a'))).value, 'old');
    });

    it(`overwrite (${api}): an existing key is overwritten, a new one created`, async () => {
      await put('a');
      const f = input(`overwrite-${api}.ndjson`, [line({ key: 'a', value: 1 }), line({ key: 'b', value: 22 })]);
      const plan = await planImport(shared.client, { ...STORE, api }, f, 'overwrite');
      assert.deepEqual(rows(plan), ['1 global/a overwrite', '2 global/b create']);
      assert.deepEqual(plan.counts, { create: 1, overwrite: 1, skip: 0, invalid: 0, bytes: 3 });
    });

    it(`several scopes (${api}): each line is looked up in its own scope, each scope listed once`, async () => {
      await put('k', 'global');
      await put('k', 'red');
      await put('other', 'blue');
      for (let i = 0; i < 30; i++) await put(`filler${i}`, 'red'); // listed, and checked only when the file names one
      const f = input(`scopes-${api}.ndjson`, [
        line({ scope: 'global', key: 'k', value: 1 }),
        line({ scope: 'red', key: 'k', value: 1 }),
        line({ scope: 'blue', key: 'k', value: 1 }),
        line({ scope: 'green', key: 'k', value: 1 }),
        line({ scope: 'red', key: 'filler7', value: 1 }),
        line({ scope: 'blue', key: 'other', value: 1 }),
      ]);
      const { client, logs } = makeClient(shared.emulator.url);
      try {
        const plan = await planImport(client, { ...STORE, api }, f, 'createOnly');
        assert.deepEqual(rows(plan), [
          '1 global/k skip exists',
          '2 red/k skip exists',
          '3 blue/k create',
          '4 green/k create',
          '5 red/filler7 skip exists',
          '6 blue/other skip exists',
        ]);
        const paths = logs.map((e) => e.path.split('?')[0]);
        const lists = paths.filter((p) => p.endsWith(api === 'v1' ? '/datastore/entries' : '/entries'));
        assert.equal(lists.length, 4, 'one listing per scope the file names, each of one page here');
        const other = paths.filter((p) => !lists.includes(p));
        // Through v1 each listed key the file names is checked for a deletion (List Entry Versions); v2 needs none.
        assert.equal(other.length, api === 'v1' ? 4 : 0, other.join('\n'));
        assert.ok(other.every((p) => p.endsWith('/datastore/entries/entry/versions')));
      } finally {
        await client.close();
      }
    });

    it(`a deleted key counts as absent (${api}), though v1 still lists it`, async () => {
      await put('gone');
      await put('here');
      await shared.client.datastores.deleteEntry(at('gone'));
      const v1Keys = (await shared.client.datastores.listEntries({ ...STORE, scope: 'global' })).items;
      assert.deepEqual(
        v1Keys.map((k) => k.key),
        ['gone', 'here'],
        'v1 lists the deleted key, unmarked',
      );
      const v2Keys = (await shared.client.datastoresV2.listEntries({ ...STORE, scope: 'global' })).items;
      assert.deepEqual(
        v2Keys.map((k) => k.key),
        ['here'],
        'v2 lists live keys only',
      );
      const f = input(`deleted-${api}.ndjson`, [line({ key: 'gone', value: 1 }), line({ key: 'here', value: 1 })]);
      assert.deepEqual(rows(await planImport(shared.client, { ...STORE, api }, f, 'createOnly')), [
        '1 global/gone create',
        '2 global/here skip exists',
      ]);
      assert.deepEqual(rows(await planImport(shared.client, { ...STORE, api }, f, 'overwrite')), [
        '1 global/gone create',
        '2 global/here overwrite',
      ]);
    });
  }

  it('invalid lines are "invalid" with the error the import gives them; header and blank lines have no action', async () => {
    await put('a');
    const f = input('invalid.ndjson', [
      '{"export":{"universeId":1,"datastoreName":"Elsewhere","scope":"global"}}',
      line({ key: 'a', value: 1 }),
      '{"key": "broken", "value": ',
      '',
      line({ key: 'novalue' }),
      line({ scope: 'red', value: 1 }),
      '[1, 2]',
      line({ key: 'b', value: 2, userIds: ['x'] }),
      line({ key: 'c', value: 3 }),
    ]);
    const plan = await planImport(shared.client, STORE, f, 'createOnly');
    assert.deepEqual(
      plan.actions.map((a) => [a.line, a.scope, a.key, a.action, a.bytes]),
      [
        [2, 'global', 'a', 'skip', 1],
        [3, '', '', 'invalid', 0],
        [5, 'global', 'novalue', 'invalid', 0],
        [6, 'red', '', 'invalid', 0],
        [7, '', '', 'invalid', 0],
        [8, 'global', 'b', 'invalid', 0],
        [9, 'global', 'c', 'create', 1],
      ],
    );
    assert.deepEqual(plan.counts, { create: 1, overwrite: 0, skip: 1, invalid: 5, bytes: 1 });
    assert.deepEqual(plan.header, { universeId: 1, datastoreName: 'Elsewhere', scope: 'global' });

    const result = await importDataStore(shared.client, { ...STORE, file: f, mode: 'createOnly' });
    const failures = fs
      .readFileSync(failuresFileFor(f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { line: number; error: string });
    assert.equal(result.failed, 5);
    assert.deepEqual(
      plan.actions.filter((a) => a.action === 'invalid').map((a) => [a.line, a.reason]),
      failures.map((x) => [x.line, x.error]),
      'the same lines, with the same errors, as the import fails',
    );
  });

  it('a key repeated in the file: the first line creates it, the later ones find it existing', async () => {
    const f = input('repeated.ndjson', [
      line({ key: 'twice', value: 1 }),
      line({ scope: 'red', key: 'twice', value: 1 }),
      line({ key: 'twice', value: 2 }),
    ]);
    assert.deepEqual(rows(await planImport(shared.client, STORE, f, 'createOnly')), [
      '1 global/twice create',
      '2 red/twice create',
      '3 global/twice skip exists',
    ]);
    assert.deepEqual(rows(await planImport(shared.client, STORE, f, 'overwrite')), [
      '1 global/twice create',
      '2 red/twice create',
      '3 global/twice overwrite',
    ]);
  });

  it('a store or scope name v2 cannot address is listed through v1, its keys checked for deletion', async () => {
    await put('a', 'a/b');
    await put('gone', 'a/b');
    await shared.client.datastores.deleteEntry(at('gone', 'a/b'));
    const f = input('slash.ndjson', [
      line({ scope: 'a/b', key: 'a', value: 1 }),
      line({ scope: 'a/b', key: 'gone', value: 1 }),
      line({ scope: 'a/b', key: 'new', value: 1 }),
    ]);
    assert.deepEqual(rows(await planImport(shared.client, { ...STORE, api: 'v2' }, f, 'createOnly')), [
      '1 a/b/a skip exists',
      '2 a/b/gone create',
      '3 a/b/new create',
    ]);
  });

  it('rejects with an AbortError when aborted, before or while it lists', async () => {
    const f = input('abort.ndjson', [line({ key: 'a', value: 1 })]);
    const aborted = new AbortController();
    aborted.abort();
    const early = await rejection(() => planImport(shared.client, STORE, f, 'createOnly', { signal: aborted.signal }));
    assert.equal(early.name, 'AbortError');

    await shared.emulator.fault({ method: 'GET', path: '/datastore/entries', delayMs: 5_000, times: 1 });
    const controller = new AbortController();
    const started = Date.now();
    const running = rejection(() => planImport(shared.client, STORE, f, 'createOnly', { signal: controller.signal }));
    setTimeout(() => controller.abort(), 100);
    const err = await running;
    assert.equal(err.name, 'AbortError', String(err));
    assert.ok(Date.now() - started < 2_000, 'the listing in flight is stopped, not waited for');
    await shared.emulator.clearFaults();
  });
});

describe('planImport agrees with the import', () => {
  /** The store as each scope's keys and values, to see that the plan changed nothing. */
  async function contents(client: OpenApiClient): Promise<string[]> {
    const out: string[] = [];
    for await (const k of client.datastores.listEntries({ ...STORE, allScopes: true })) {
      const e = await client.datastores.getEntry(at(k.key, k.scope)).catch(() => undefined);
      out.push(`${k.scope}/${k.key}=${e ? e.raw.toString() : '(deleted)'}`);
    }
    return out;
  }

  for (const api of APIS) {
    for (const mode of ['createOnly', 'overwrite'] as ImportMode[]) {
      it(`${mode} through ${api}: the plan's counts are what the import then does`, async () => {
        for (let i = 0; i < 40; i += 2) await put(`k${i}`, i % 4 ? 'red' : 'global');
        await shared.client.datastores.deleteEntry(at('k0'));
        const lines = ['{"export":{"universeId":7272,"datastoreName":"Store","allScopes":true}}'];
        for (let i = 0; i < 40; i++) {
          lines.push(line({ scope: i % 4 === 2 ? 'red' : 'global', key: `k${i}`, value: { i } }));
          if (i % 10 === 3) lines.push('{"key": "broken"');
          if (i % 10 === 5) lines.push(line({ scope: 'blue', key: `k${i}`, value: i, attributes: { a: 1 } }));
        }
        lines.push(line({ key: 'k1', value: 'again' }), line({ scope: 'red', key: 'k2', value: 'again' }));
        const f = input(`agree-${api}-${mode}.ndjson`, lines);

        const seen = await contents(shared.client);
        const plan = await planImport(shared.client, { ...STORE, api }, f, mode);
        assert.deepEqual(await contents(shared.client), seen, 'the plan left the store as it was');
        const result = await importDataStore(shared.client, { ...STORE, file: f, mode });
        assert.deepEqual(
          {
            written: plan.counts.create + plan.counts.overwrite,
            skipped: plan.counts.skip,
            failed: plan.counts.invalid,
          },
          { written: result.written, skipped: result.skipped, failed: result.failed },
        );
        assert.equal(plan.actions.length, lines.length - 1, 'one action per entry line');
        assert.ok(plan.counts.create > 0 && plan.counts.invalid > 0);
        assert.ok(mode === 'createOnly' ? plan.counts.skip > 0 : plan.counts.overwrite > 0);
      });
    }
  }
});

describe('a plan of 100,000 lines', () => {
  it('lists each scope in pages instead of reading each key, and holds one action per line', async () => {
    const N = 100_000;
    const EXISTING = 5_000;
    const seed = input(
      'seed.ndjson',
      Array.from({ length: EXISTING }, (_, i) => line({ key: `key${i * 20}`, value: i })),
    );
    assert.equal((await importDataStore(shared.client, { ...STORE, file: seed, mode: 'overwrite' })).written, EXISTING);
    const f = input(
      'big.ndjson',
      Array.from({ length: N }, (_, i) => line({ key: `key${i}`, value: { i, pad: 'x'.repeat(40) } })),
    );
    const { client, logs } = makeClient(shared.emulator.url);
    try {
      const started = Date.now();
      const plan = await planImport(client, { ...STORE, api: 'v2' }, f, 'createOnly');
      const ms = Date.now() - started;
      assert.equal(plan.actions.length, N);
      assert.deepEqual([plan.counts.create, plan.counts.skip], [N - EXISTING, EXISTING]);
      const bytes = Buffer.byteLength(JSON.stringify({ i: 20, pad: 'x'.repeat(40) }));
      assert.deepEqual(plan.actions[20], {
        line: 21,
        scope: 'global',
        key: 'key20',
        action: 'skip',
        bytes,
        reason: 'exists',
      });
      assert.equal(logs.length, Math.ceil(EXISTING / 256), 'one request per page of listed keys, none per key');
      console.log(`planned ${N} lines in ${ms} ms (${logs.length} requests)`);
    } finally {
      await client.close();
    }
  });
});
