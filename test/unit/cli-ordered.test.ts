// The ordered data store commands of the command line (dist/cli.js) against the emulator over loopback HTTP: list by
// value with bounds and a limit, get, set (created when missing) and increment, their --json shapes, and bad input
// answered with exit 2 before anything is sent.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { API_KEY } from './support/client';
import { buildCli, cli, CLI_KEY } from './support/cli';
import { sharedEmulator } from './support/emulator';

const U = '6262';
const shared = sharedEmulator({ apiKeys: [{ key: CLI_KEY }, { key: API_KEY }] });
before(() => buildCli());
const connection = () => ['--base-url', shared.emulator.url, '--universe', U];
const ordered = (...args: string[]) => cli(['ordered', ...args, ...connection()]);

const seed = async (scores: Record<string, number>) => {
  for (const [entryKey, value] of Object.entries(scores)) {
    await shared.client.orderedDataStores.updateEntry({
      universeId: U,
      datastoreName: 'Board',
      entryKey,
      value,
      allowMissing: true,
    });
  }
};

describe('universe-explorer ordered', () => {
  it('lists by value, highest first with --desc, within --min and --max, and says when --limit cut the list', async () => {
    await seed({ ann: 30, bob: 10, cy: 20, dee: 40 });
    const asc = await ordered('list', '--store', 'Board');
    assert.equal(asc.code, 0, asc.stderr);
    assert.equal(asc.stdout, 'bob  10\ncy   20\nann  30\ndee  40\n4 entries in ordered store Board (scope global).\n');
    const top = await ordered(
      'list',
      '--store',
      'Board',
      '--desc',
      '--min',
      '15',
      '--max',
      '35',
      '--limit',
      '1',
      '--json',
    );
    assert.equal(top.code, 0, top.stderr);
    assert.deepEqual(top.json(), {
      command: 'ordered list',
      exitCode: 0,
      universe: U,
      store: 'Board',
      scope: 'global',
      entries: [{ key: 'ann', value: 30 }],
      more: true,
    });
    const cut = await ordered('list', '--store', 'Board', '--limit', '3');
    assert.match(cut.stdout, /^3 entries in ordered store Board \(scope global\); more follow: raise --limit\.$/m);
  });

  it('gets, sets (creating a missing key) and increments; a missing key fails with exit 1 naming it', async () => {
    const set = await ordered('set', '--store', 'Board', '--scope', 's1', '--key', 'eve', '--value=-5', '--json');
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual(set.json(), {
      command: 'ordered set',
      exitCode: 0,
      universe: U,
      store: 'Board',
      scope: 's1',
      key: 'eve',
      value: -5,
    });
    const inc = await ordered('increment', '--store', 'Board', '--scope', 's1', '--key', 'eve', '--by', '12');
    assert.equal(inc.code, 0, inc.stderr);
    assert.equal(inc.stdout, 'eve: 7 in ordered store Board (scope s1).\n');
    const got = await ordered('get', '--store', 'Board', '--scope', 's1', '--key', 'eve', '--json');
    assert.deepEqual(got.json(), {
      command: 'ordered get',
      exitCode: 0,
      universe: U,
      store: 'Board',
      scope: 's1',
      key: 'eve',
      value: 7,
    });
    assert.equal((await ordered('get', '--store', 'Board', '--scope', 's1', '--key', 'eve')).stdout, 'eve: 7\n');
    const missing = await ordered('get', '--store', 'Board', '--key', 'eve');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /key "eve" is not in ordered store Board \(scope global\): check --key/);
  });

  it('bad input is a usage error (exit 2) and nothing is sent', async () => {
    for (const [args, said] of [
      [['list'], /--store is missing: give the ordered data store/],
      [['list', '--store', 'Board', '--min', '5', '--max', '1'], /--min 5 is above --max 1/],
      [['list', '--store', 'Board', '--limit', '0'], /--limit: "0" is not a whole number/],
      [['get', '--store', 'Board'], /--key is missing/],
      [['set', '--store', 'Board', '--key', 'k', '--value', '1.5'], /--value: "1.5" is not a whole number/],
      [['set', '--store', 'Board', '--key', 'k'], /--value is missing/],
      [['increment', '--store', 'Board', '--key', 'k', '--by', 'ten'], /--by: "ten" is not a whole number/],
      [['increment', '--key', 'k', '--by', '1'], /--store is missing/],
    ] as const) {
      const r = await ordered(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, said);
    }
    assert.deepEqual(await shared.emulator.requests(), []);
  });
});
