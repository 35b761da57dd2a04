// The data store commands of the command line (dist/cli.js) against the emulator over loopback HTTP: export (and a
// killed export resumed), import (a dry run unless --apply), restore (plan, apply with a key changed meanwhile, undo)
// and compare, with their --json shapes and exit codes.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { API_KEY, until } from './support/client';
import { buildCli, cli, CLI_KEY, holdingProxy, spawnCli } from './support/cli';
import { sharedEmulator } from './support/emulator';

const U = '5151';
const shared = sharedEmulator({ apiKeys: [{ key: CLI_KEY }, { key: API_KEY }] });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-cli-datastores-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
before(() => buildCli());
const file = (name: string) => path.join(dir, name);
const connection = (url = shared.emulator.url) => ['--base-url', url, '--universe', U];

/** The complete entry lines of an export file, parsed (its header line, and a last line cut short, left out). */
const entries = (f: string) =>
  fs
    .readFileSync(f, 'utf8')
    .split('\n')
    .slice(0, -1)
    .filter((l) => l && !l.startsWith('{"export":'))
    .map((l) => JSON.parse(l) as { scope: string; key: string; value: unknown });

const set = (store: string, key: string, value: unknown, scope = 'global') =>
  shared.client.datastores.setEntry({ universeId: U, datastoreName: store, scope, entryKey: key, value });
const get = async (store: string, key: string) =>
  (await shared.client.datastores.getEntry({ universeId: U, datastoreName: store, entryKey: key })).value;

describe('universe-explorer export', () => {
  it('writes the store to a file; --json says what it did; exporting again continues the same file', async () => {
    await set('Players', 'p1', { coins: 1 });
    await set('Players', 'p2', { coins: 2 });
    await set('Players', 'other', { x: true }, 'season2');
    const out = file('players.ndjson');
    const r = await cli(['export', ...connection(), '--store', 'Players', '--out', out, '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const { ms, ...rest } = r.json();
    assert.equal(typeof ms, 'number');
    assert.deepEqual(rest, {
      command: 'export',
      exitCode: 0,
      universe: U,
      store: 'Players',
      scope: 'global',
      file: out,
      exported: 2,
      resumed: 0,
      skipped: 0,
      failed: 0,
    });
    assert.deepEqual(
      entries(out).map((e) => [e.key, e.value]),
      [
        ['p1', { coins: 1 }],
        ['p2', { coins: 2 }],
      ],
    );
    const again = await cli(['export', ...connection(), '--store', 'Players', '--out', out, '--json']);
    assert.deepEqual([again.json().exported, again.json().resumed], [0, 2]);
    const all = await cli([
      'export',
      ...connection(),
      '--store',
      'Players',
      '--all-scopes',
      '--out',
      file('all.ndjson'),
    ]);
    assert.equal(all.code, 0);
    assert.match(all.stdout, /^Exported 3 entries of Players \(all scopes\) of universe 5151 to /);
    assert.equal(entries(file('all.ndjson')).length, 3);
  });

  it('an unknown store, a missing --out or --scope with --all-scopes is a usage error (exit 2)', async () => {
    await set('Players', 'p1', 1);
    const unknown = await cli(['export', ...connection(), '--store', 'Playres', '--out', file('typo.ndjson')]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /universe 5151 has no data store named "Playres": check --store/);
    assert.ok(!fs.existsSync(file('typo.ndjson')), 'no file made');
    const noOut = await cli(['export', ...connection(), '--store', 'Players']);
    assert.equal(noOut.code, 2);
    assert.match(noOut.stderr, /--out is missing: give the file to write/);
    const both = await cli([
      'export',
      ...connection(),
      '--store',
      'Players',
      '--scope',
      'a',
      '--all-scopes',
      '--out',
      'x',
    ]);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--scope and --all-scopes go apart/);
  });

  const n = 400;
  const big = 'x'.repeat(2000); // 400 entries of ~2 KB: the export writes the file in parts as it goes

  /** Starts an export of 400 entries whose read of k0300 is never answered, and waits until the file has parts. */
  async function exportHeld(out: string) {
    for (let i = 0; i < n; i++) await set('Big', `k${String(i).padStart(4, '0')}`, { i, big });
    const proxy = await holdingProxy(shared.emulator.url, (url) => url.includes('entryKey=k0300'));
    const run = await spawnCli(['export', ...connection(proxy.url), '--store', 'Big', '--out', out, '--json']);
    await proxy.held;
    await until(() => fs.existsSync(out) && fs.statSync(out).size >= 256 * 1024, 60_000);
    return { ...run, proxy };
  }

  /** Exports again into `out`: every entry once, the ones in the file from before kept. */
  async function resumeInto(out: string, before: number): Promise<void> {
    const resumed = await cli(['export', ...connection(), '--store', 'Big', '--out', out, '--json']);
    assert.equal(resumed.code, 0, resumed.stderr);
    const r = resumed.json();
    assert.ok((r.resumed as number) >= before && (r.resumed as number) > 0, JSON.stringify(r));
    assert.equal((r.resumed as number) + (r.exported as number), n);
    const keys = entries(out).map((e) => e.key);
    assert.equal(keys.length, n);
    assert.equal(new Set(keys).size, n, 'each key once');
    assert.ok(entries(out).every((e) => (e.value as { big: string }).big === big));
  }

  it('a killed export is resumed by running it again into the same file: every entry once', async () => {
    const out = file('big.ndjson');
    const held = await exportHeld(out);
    try {
      held.child.kill('SIGKILL');
      const killed = await held.done;
      assert.equal(killed.code, null);
      assert.equal(killed.stdout, '', 'killed before its result');
    } finally {
      await held.proxy.close();
    }
    const before = entries(out).length; // complete lines only; a line cut short is dropped by the resume
    assert.ok(before > 0 && before < n, `${before} entries before the kill`);
    await resumeInto(out, before);
  });

  it('Ctrl+C stops an export with exit 1 and says how to go on; running it again continues', async () => {
    const out = file('interrupted.ndjson');
    const held = await exportHeld(out);
    let stopped;
    try {
      held.child.kill('SIGINT');
      stopped = await held.done;
    } finally {
      await held.proxy.close();
    }
    assert.equal(stopped.code, 1);
    assert.match(
      stopped.stderr,
      /^Stopped; run the same command again to continue interrupted\.ndjson where it stopped\.$/m,
    );
    assert.equal(stopped.json().exitCode, 1);
    const before = entries(out).length;
    assert.ok(before > 0 && before < n, `${before} entries before the stop`);
    await resumeInto(out, before);
  });
});

describe('universe-explorer import', () => {
  const source = () => {
    const f = file('source.ndjson');
    fs.writeFileSync(
      f,
      [
        '{"scope":"global","key":"a","value":{"n":1},"attributes":{},"userIds":[]}',
        '{"scope":"global","key":"b","value":{"n":2},"attributes":{},"userIds":[]}',
        '',
      ].join('\n'),
    );
    return f;
  };

  it('is a dry run unless --apply: it says what would happen and writes nothing', async () => {
    await set('Target', 'a', { n: 0 });
    const r = await cli(['import', ...connection(), '--store', 'Target', source(), '--json']);
    assert.equal(r.code, 0, r.stderr);
    const { ms: _, ...rest } = r.json();
    assert.deepEqual(rest, {
      command: 'import',
      exitCode: 0,
      dryRun: true,
      universe: U,
      store: 'Target',
      file: source(),
      mode: 'createOnly',
      create: 1,
      overwrite: 0,
      skip: 1,
      invalid: 0,
      bytes: 7,
      invalidLines: [],
    });
    assert.deepEqual(await get('Target', 'a'), { n: 0 });
    await assert.rejects(get('Target', 'b'), { name: 'NotFoundError' });
    const human = await cli(['import', ...connection(), '--store', 'Target', '--in', source()]);
    assert.match(human.stdout, /nothing was written/);
    assert.match(human.stdout, /Run again with --apply to write\./);
  });

  it('--apply writes create-only (a key that exists is skipped); --overwrite replaces it', async () => {
    await set('Target', 'a', { n: 0 });
    const created = await cli(['import', ...connection(), '--store', 'Target', source(), '--apply', '--json']);
    assert.equal(created.code, 0, created.stderr);
    const { ms: _, ...rest } = created.json();
    assert.deepEqual(rest, {
      command: 'import',
      exitCode: 0,
      dryRun: false,
      universe: U,
      store: 'Target',
      file: source(),
      mode: 'createOnly',
      written: 1,
      skipped: 1,
      failed: 0,
      lastLine: 2,
    });
    assert.deepEqual([await get('Target', 'a'), await get('Target', 'b')], [{ n: 0 }, { n: 2 }]);
    const over = await cli(['import', ...connection(), '--store', 'Target', source(), '--apply', '--overwrite']);
    assert.equal(over.code, 0, over.stderr);
    assert.match(over.stdout, /2 entries written, 0 skipped/);
    assert.deepEqual(await get('Target', 'a'), { n: 1 });
  });

  it('invalid lines: a dry run lists them and --apply writes the rest, both exit 3; a missing file is exit 2', async () => {
    const f = file('bad.ndjson');
    fs.writeFileSync(f, '{"scope":"global","key":"ok","value":1,"attributes":{},"userIds":[]}\nnot json\n');
    const dry = await cli(['import', ...connection(), '--store', 'T2', f, '--json']);
    assert.equal(dry.code, 3);
    const lines = dry.json().invalidLines as { line: number; reason: string }[];
    assert.deepEqual(
      lines.map((l) => l.line),
      [2],
    );
    const applied = await cli(['import', ...connection(), '--store', 'T2', f, '--apply']);
    assert.equal(applied.code, 3);
    assert.match(applied.stdout, /1 entry written, 0 skipped \(they exist\), 1 failed\./);
    assert.match(applied.stdout, /The failed lines are in .*bad\.ndjson\.failures\.ndjson/);
    const missing = await cli(['import', ...connection(), '--store', 'T2', file('nope.ndjson')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nope\.ndjson is not a file: check the path/);
  });
});

describe('universe-explorer restore and compare', () => {
  it('compare lists what changed since a time; a bad time is a usage error', async () => {
    await set('Settings', 'a', 1);
    await set('Settings', 'b', 1);
    const t = Date.now();
    await until(() => Date.now() > t + 1);
    await set('Settings', 'a', 2);
    await set('Settings', 'c', 1);
    const r = await cli([
      'compare',
      ...connection(),
      '--store',
      'Settings',
      '--to',
      new Date(t).toISOString(),
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const { ms: _, ...rest } = r.json();
    assert.deepEqual(rest, {
      command: 'compare',
      exitCode: 0,
      universe: U,
      store: 'Settings',
      scope: 'global',
      time: new Date(t).toISOString(),
      unchanged: 1,
      changed: 1,
      created: 1,
      deleted: 0,
      keys: [
        { scope: 'global', key: 'a', status: 'changed' },
        { scope: 'global', key: 'c', status: 'created' },
      ],
    });
    const human = await cli(['compare', ...connection(), '--store', 'Settings', '--to', '1 hour ago']);
    assert.equal(human.code, 0);
    assert.match(human.stdout, /0 changed, 3 created, 0 deleted, 0 unchanged\./);
    for (const [to, said] of [
      ['soon', /--to: "soon" is not a time: use a time with its zone/],
      ['40 days ago', /--to: .* is too long ago: the service keeps superseded versions for 30 days/],
    ] as const) {
      const bad = await cli(['compare', ...connection(), '--store', 'Settings', '--to', to]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, said);
    }
  });

  it('restore plans (writing nothing), --apply skips and lists a key changed meanwhile (exit 3), --undo puts back', async () => {
    for (const k of ['a', 'b', 'c']) await set('Inv', k, { v: 1 });
    const t = Date.now();
    await until(() => Date.now() > t + 1);
    for (const k of ['a', 'b', 'c']) await set('Inv', k, { v: 2 });
    const plan = file('inv-plan.ndjson');
    const to = new Date(t).toISOString();
    const planned = await cli(['restore', ...connection(), '--store', 'Inv', '--to', to, '--out', plan, '--json']);
    assert.equal(planned.code, 0, planned.stderr);
    const { ms: _, estimateMs, bytes, ...rest } = planned.json();
    assert.ok((estimateMs as number) > 0 && (bytes as number) > 0);
    assert.deepEqual(rest, {
      command: 'restore',
      exitCode: 0,
      action: 'plan',
      universe: U,
      store: 'Inv',
      scope: 'global',
      time: to,
      plan,
      write: 3,
      recreate: 0,
      delete: 0,
      unchanged: 0,
      gone: [],
    });
    assert.deepEqual(await get('Inv', 'a'), { v: 2 }, 'a plan writes nothing');
    // Another writer changes b after the plan: the run leaves it alone and says so.
    await set('Inv', 'b', { v: 3 });
    const applied = await cli(['restore', '--base-url', shared.emulator.url, '--apply', plan, '--json']);
    assert.equal(applied.code, 3, applied.stderr);
    const a = applied.json();
    assert.deepEqual([a.action, a.written, a.skipped, a.failed], ['apply', 2, 1, 0]);
    assert.deepEqual(
      (a.skippedKeys as { key: string; reason: string }[]).map((k) => [k.key, k.reason]),
      [['b', 'changed']],
    );
    assert.deepEqual(
      [await get('Inv', 'a'), await get('Inv', 'b'), await get('Inv', 'c')],
      [{ v: 1 }, { v: 3 }, { v: 1 }],
    );
    // Applying again does nothing new, and still says what was skipped.
    const again = await cli(['restore', '--base-url', shared.emulator.url, '--apply', plan]);
    assert.equal(again.code, 3);
    assert.match(again.stdout, /0 written, .*\(3 done by an earlier run\)/);
    assert.match(again.stdout, /^ {2}global\/b: changed$/m);
    const undone = await cli(['restore', '--base-url', shared.emulator.url, '--undo', plan, '--json']);
    assert.equal(undone.code, 0, undone.stderr);
    assert.deepEqual([undone.json().action, undone.json().write], ['undo', 2]);
    const undo = await cli(['restore', '--base-url', shared.emulator.url, '--apply', undone.json().plan as string]);
    assert.equal(undo.code, 0, undo.stderr);
    assert.deepEqual([await get('Inv', 'a'), await get('Inv', 'c')], [{ v: 2 }, { v: 2 }]);
  });

  it('restore refuses what does not fit: no --to, a plan that is not one, --apply with --store, another universe', async () => {
    await set('Inv', 'a', 1);
    const noTo = await cli(['restore', ...connection(), '--store', 'Inv']);
    assert.equal(noTo.code, 2);
    assert.match(noTo.stderr, /--to is missing: give a time/);
    fs.writeFileSync(file('not-a-plan.ndjson'), '{"hello":1}\n');
    const notPlan = await cli(['restore', ...connection(), '--apply', file('not-a-plan.ndjson')]);
    assert.equal(notPlan.code, 2);
    assert.match(notPlan.stderr, /is not a restore plan: .*give a plan written by universe-explorer restore/);
    const mixed = await cli(['restore', ...connection(), '--apply', file('not-a-plan.ndjson'), '--store', 'Inv']);
    assert.equal(mixed.code, 2);
    assert.match(mixed.stderr, /--store does not go with --apply: the plan names its store/);
    const plan = file('other-plan.ndjson');
    const made = await cli(['restore', ...connection(), '--store', 'Inv', '--to', '1m', '--out', plan]);
    assert.equal(made.code, 0, made.stderr);
    const other = await cli(['restore', '--base-url', shared.emulator.url, '--universe', '9', '--apply', plan]);
    assert.equal(other.code, 2);
    assert.match(other.stderr, /--universe 9 is not the universe the file names \(5151\)/);
  });
});
