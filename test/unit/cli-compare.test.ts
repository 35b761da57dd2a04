// `universe-explorer compare` with another store (in the universe or another) and with an export file (dist/cli.js
// against the emulator over loopback HTTP).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { API_KEY } from './support/client';
import { buildCli, cli, CLI_KEY } from './support/cli';
import { sharedEmulator } from './support/emulator';

const U = '7171';
const OTHER = '7272';
const shared = sharedEmulator({ apiKeys: [{ key: CLI_KEY }, { key: API_KEY }] });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-cli-compare-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
before(() => buildCli());
const connection = () => ['--base-url', shared.emulator.url, '--universe', U];
const set = (universe: string, store: string, key: string, value: unknown, attributes?: Record<string, unknown>) =>
  shared.client.datastores.setEntry({ universeId: universe, datastoreName: store, entryKey: key, value, attributes });

/** The stores every test starts from (the shared emulator is reset before each test). */
async function seed(): Promise<void> {
  for (const [k, v] of Object.entries({ same: 1, changed: 1, attrs: 1, mine: 1 })) await set(U, 'Live', k, v);
  await set(U, 'Staging', 'same', 1);
  await set(U, 'Staging', 'changed', 2);
  await set(U, 'Staging', 'attrs', 1, { tag: 'x' });
  await set(U, 'Staging', 'theirs', 1);
  await set(OTHER, 'Live', 'same', 1);
}

describe('universe-explorer compare with a store or a file', () => {
  beforeEach(seed);

  it('lists the keys that differ, with what differs, and counts the same ones; --json shape', async () => {
    const r = await cli(['compare', ...connection(), '--store', 'Live', '--with-store', 'Staging', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const { ms, ...rest } = r.json();
    assert.equal(typeof ms, 'number');
    assert.deepEqual(rest, {
      command: 'compare',
      exitCode: 0,
      universe: U,
      store: 'Live',
      scope: 'global',
      with: `Staging (scope global) of universe ${U}`,
      same: 1,
      different: 2,
      onlySource: 1,
      onlyTarget: 1,
      keys: [
        { scope: 'global', key: 'attrs', status: 'different', differs: ['attributes'] },
        { scope: 'global', key: 'changed', status: 'different', differs: ['value'] },
        { scope: 'global', key: 'mine', status: 'onlySource' },
        { scope: 'global', key: 'theirs', status: 'onlyTarget' },
      ],
    });
    const human = await cli([
      'compare',
      ...connection(),
      '--store',
      'Live',
      '--with-store',
      'Live',
      '--with-universe',
      OTHER,
    ]);
    assert.equal(human.code, 0, human.stderr);
    assert.match(
      human.stdout,
      new RegExp(`Live \\(scope global\\) of universe ${U} against Live \\(scope global\\) of universe ${OTHER}:`),
    );
    assert.match(human.stdout, /only here +global\/changed/);
    assert.match(human.stdout, /0 different, 3 only in Live, 0 only in the other, 1 the same\./);
  });

  it('compares with an export file, and writes the keys to --out', async () => {
    const backup = path.join(dir, 'live.ndjson');
    const exported = await cli(['export', ...connection(), '--store', 'Live', '--out', backup]);
    assert.equal(exported.code, 0, exported.stderr);
    await set(U, 'Live', 'changed', 5);
    const out = path.join(dir, 'differences.ndjson');
    const r = await cli(['compare', ...connection(), '--store', 'Live', '--with-file', backup, '--out', out, '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json().different, 1);
    assert.equal(r.json().same, 3);
    const lines = fs
      .readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { key: string; status: string; differs: string[] });
    assert.deepEqual(
      lines.map((l) => [l.key, l.status, l.differs]),
      [['changed', 'different', ['value']]],
    );
  });

  it('takes one thing to compare with; an unknown store or file is a usage error', async () => {
    const cases: [string[], RegExp][] = [
      [[], /give what to compare with: --to <time>, --with-store <name> or --with-file/],
      [['--to', '1 hour ago', '--with-store', 'Staging'], /--to and --with-store go apart/],
      [['--with-store', 'Nope'], new RegExp(`universe ${U} has no data store named "Nope"`)],
      [['--with-file', path.join(dir, 'none.ndjson')], /--with-file: .*none\.ndjson does not exist/],
      [['--with-store', 'Staging', '--with-universe', 'abc'], /--universe: "abc" is not a universe id/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(['compare', ...connection(), '--store', 'Live', ...args]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
  });
});
