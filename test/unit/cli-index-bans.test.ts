// The query index, bans and emulator commands of the command line (dist/cli.js) against the emulator over loopback
// HTTP: index build (live and from a file) and query with DuckDB loaded from dist/query.js, bans list|ban|unban, and
// the emulator run through `universe-explorer emulator` with its own options.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { API_KEY } from './support/client';
import { buildCli, cli, CLI_KEY, spawnCli } from './support/cli';
import { sharedEmulator } from './support/emulator';

const U = '6161';
const shared = sharedEmulator({ apiKeys: [{ key: CLI_KEY }, { key: API_KEY }] });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-cli-index-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
before(() => buildCli());
const file = (name: string) => path.join(dir, name);
const connection = () => ['--base-url', shared.emulator.url, '--universe', U];

const set = (store: string, key: string, value: unknown, userIds: number[] = []) =>
  shared.client.datastores.setEntry({ universeId: U, datastoreName: store, entryKey: key, value, userIds });

describe('universe-explorer index', () => {
  it('builds stores live into the index folder and queries them; --json gives columns and rows', async () => {
    const indexDir = file('live');
    await set('PlayerData', 'Player_2001', { coins: 50 }, [2001]);
    await set('PlayerData', 'Player_2002', { coins: 70 }, [2002]);
    await set('Inventory', 'Player_2001', { items: ['sword'] }, [2001]);
    const built = await cli([
      'index',
      'build',
      ...connection(),
      '--store',
      'PlayerData',
      '--store',
      'Inventory',
      '--index-dir',
      indexDir,
      '--json',
    ]);
    assert.equal(built.code, 0, built.stderr);
    const b = built.json();
    assert.ok((b.index as string).startsWith(indexDir), b.index as string);
    assert.deepEqual(
      (b.built as { store: string; entries: number; source: string; failed: number }[]).map((x) => [
        x.store,
        x.entries,
        x.source,
        x.failed,
      ]),
      [
        ['PlayerData', 2, 'service', 0],
        ['Inventory', 1, 'service', 0],
      ],
    );
    const sql =
      "SELECT store, key, value->>'coins' AS coins FROM entries WHERE list_contains(user_ids, 2001) ORDER BY store";
    const q = await cli(['index', 'query', ...connection(), '--index-dir', indexDir, sql, '--json']);
    assert.equal(q.code, 0, q.stderr);
    assert.deepEqual(q.json(), {
      command: 'index query',
      exitCode: 0,
      universe: U,
      columns: [
        { name: 'store', type: 'VARCHAR' },
        { name: 'key', type: 'VARCHAR' },
        { name: 'coins', type: 'VARCHAR' },
      ],
      rows: [
        ['Inventory', 'Player_2001', null],
        ['PlayerData', 'Player_2001', '50'],
      ],
      truncated: false,
    });
    const human = await cli(['index', 'query', ...connection(), '--index-dir', indexDir, '--limit', '1', sql]);
    assert.equal(human.code, 0, human.stderr);
    assert.equal(
      human.stdout,
      'store      key          coins\nInventory  Player_2001  NULL\n(1 row; more follow: raise --limit)\n',
    );
  });

  it('builds from an export file without an API key; a file of another universe is a usage error', async () => {
    const indexDir = file('files');
    await set('PlayerData', 'p', { n: 1 });
    const out = file('players.ndjson');
    assert.equal((await cli(['export', ...connection(), '--store', 'PlayerData', '--out', out])).code, 0);
    const noKey = { UE_API_KEY: undefined };
    const built = await cli(['index', 'build', ...connection(), '--from-file', out, '--index-dir', indexDir], noKey);
    assert.equal(built.code, 0, built.stderr);
    assert.match(built.stdout, /^Indexed .*players\.ndjson: 1 entry of PlayerData\.$/m);
    const other = await cli(
      [
        'index',
        'build',
        '--base-url',
        shared.emulator.url,
        '--universe',
        '7',
        '--from-file',
        out,
        '--index-dir',
        indexDir,
      ],
      noKey,
    );
    assert.equal(other.code, 2);
    assert.match(other.stderr, /holds an export of universe 6161.*not of universe 7/);
  });

  it('a statement that writes, bad SQL, no index or no statement is a usage error (exit 2)', async () => {
    const indexDir = file('refuse');
    await set('S', 'k', 1);
    assert.equal((await cli(['index', 'build', ...connection(), '--store', 'S', '--index-dir', indexDir])).code, 0);
    const query = (sql: string, universe = U) =>
      cli(['index', 'query', '--base-url', shared.emulator.url, '--universe', universe, '--index-dir', indexDir, sql]);
    const write = await query('DELETE FROM entries');
    assert.equal(write.code, 2);
    assert.match(write.stderr, /the query was not run: Only statements that read run here/);
    const bad = await query('SELEKT 1');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /the query was not run: .*syntax error/i);
    const none = await query('SELECT 1', '99');
    assert.equal(none.code, 2);
    assert.match(none.stderr, /universe 99 has no index in .*: build one with universe-explorer index build/);
    const empty = await cli(['index', 'query', ...connection(), '--index-dir', indexDir]);
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /the statement is missing/);
    const neither = await cli(['index', 'build', ...connection(), '--index-dir', indexDir]);
    assert.equal(neither.code, 2);
    assert.match(neither.stderr, /give --store <name> or --from-file <file>/);
  });
});

describe('universe-explorer bans', () => {
  it('bans, lists and unbans a user; --json gives the restriction', async () => {
    const banned = await cli([
      'bans',
      'ban',
      ...connection(),
      '--user',
      '2001',
      '--duration',
      '7d',
      '--reason',
      'chargeback',
      '--display-reason',
      'Banned for a week',
      '--json',
    ]);
    assert.equal(banned.code, 0, banned.stderr);
    const { restriction, ...rest } = banned.json() as { restriction: Record<string, unknown> };
    assert.deepEqual(rest, { command: 'bans ban', exitCode: 0, universe: U });
    assert.equal(typeof restriction.startTime, 'string');
    delete restriction.startTime;
    assert.deepEqual(restriction, {
      user: '2001',
      active: true,
      duration: '604800s',
      privateReason: 'chargeback',
      displayReason: 'Banned for a week',
      excludeAltAccounts: false,
      inherited: false,
    });
    const listed = await cli(['bans', 'list', ...connection()]);
    assert.equal(listed.code, 0);
    assert.match(listed.stdout, /^user 2001: banned, 7d from \S+ \(chargeback\)\n1 banned user in universe 6161\.\n$/);
    const unbanned = await cli(['bans', 'unban', ...connection(), '--user', '2001', '--reason', 'appeal', '--json']);
    assert.equal(unbanned.code, 0, unbanned.stderr);
    assert.equal((unbanned.json().restriction as { active: boolean }).active, false);
    assert.deepEqual((await cli(['bans', 'list', ...connection(), '--json'])).json().restrictions, []);
    const all = await cli(['bans', 'list', ...connection(), '--all', '--json']);
    assert.deepEqual(
      (all.json().restrictions as { user: string; active: boolean }[]).map((r) => [r.user, r.active]),
      [['2001', false]],
    );
  });

  it('bans at a place, apart from the universe', async () => {
    const r = await cli(['bans', 'ban', ...connection(), '--place', '77', '--user', '2002']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^user 2002: banned, permanent from \S+ in place 77 of universe 6161\.\n$/);
    assert.deepEqual((await cli(['bans', 'list', ...connection(), '--json'])).json().restrictions, []);
    const atPlace = await cli(['bans', 'list', ...connection(), '--place', '77', '--json']);
    assert.deepEqual(
      (atPlace.json().restrictions as { user: string }[]).map((x) => x.user),
      ['2002'],
    );
  });

  it('a bad duration, user id or a missing --user is a usage error (exit 2), and nothing is written', async () => {
    for (const [args, said] of [
      [['--user', '2001', '--duration', '7 years'], /--duration: "years" is not a unit: use s, m, h, d or w/],
      [['--user', 'bob'], /--user: "bob" is not an id/],
      [[], /--user is missing: give the user id/],
    ] as const) {
      const r = await cli(['bans', 'ban', ...connection(), ...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, said);
    }
    assert.deepEqual(await shared.emulator.requests({ path: '/user-restrictions' }), []);
  });
});

describe('universe-explorer emulator', () => {
  it('runs the emulator with its own options, answers with the key it was given, and stops on SIGTERM', async () => {
    const run = await spawnCli(['emulator', '--port', '0', '--api-key', 'emulator-only-key']);
    let url = '';
    await new Promise<void>((resolve, reject) => {
      run.child.stdout!.on('data', (d: Buffer) => {
        const m = /listening on (http:\S+)/.exec(d.toString());
        if (m) {
          url = m[1];
          resolve();
        }
      });
      run.child.once('exit', () => reject(new Error('the emulator ended before it was ready')));
    });
    const r = await cli(['bans', 'list', '--base-url', url, '--universe', '1', '--json'], {
      UE_API_KEY: 'emulator-only-key',
    });
    assert.equal(r.code, 0, r.stderr);
    run.child.kill('SIGTERM');
    assert.equal((await run.done).code, 0);
    const bad = await cli(['emulator', '--port', 'many']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^emulator: --port: invalid value "many"/);
  });
});
