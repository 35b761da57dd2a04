// universe-explorer bans ban-many | unban-everywhere | apply (dist/cli.js) against the emulator over loopback HTTP:
// a CSV list with bad lines (listed, exit 3), a plan that writes nothing, its apply, a second apply that sends
// nothing, unban everywhere, and usage errors before anything is sent.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { API_KEY } from './support/client';
import { buildCli, cli, CLI_KEY } from './support/cli';
import { sharedEmulator } from './support/emulator';

const U = '6262';
const PLACE = '626201';
const shared = sharedEmulator({ apiKeys: [{ key: CLI_KEY }, { key: API_KEY }] });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-cli-bans-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
before(() => buildCli());

const file = (name: string) => path.join(dir, name);
const connection = () => ['--base-url', shared.emulator.url, '--universe', U];
const patches = async () => (await shared.emulator.requests({ method: 'PATCH' })).length;
const state = (userId: number, placeId?: string) =>
  shared.client.restrictions.get({ universeId: U, placeId, userId }).then((r) => r.gameJoinRestriction);

describe('universe-explorer bans ban-many, unban-everywhere, apply', () => {
  it('plans from a CSV (bad lines listed, exit 3, nothing written), applies, and a second apply sends nothing', async () => {
    fs.writeFileSync(file('raid.csv'), '\uFEFFuserId,duration,displayReason\n3001,,\n3002,1d,Spam\nabc,,\n3001,,\n');
    const before = await patches();
    const planned = await cli([
      'bans',
      'ban-many',
      ...connection(),
      '--places',
      PLACE,
      '--list',
      file('raid.csv'),
      '--duration',
      '7d',
      '--display-reason',
      'Raid',
      '--plan',
      file('raid.json'),
    ]);
    assert.equal(planned.code, 3, planned.stderr);
    assert.match(planned.stderr, /line 4: "abc" is not a user id/);
    assert.match(planned.stderr, /line 5: user 3001 is already listed on line 2/);
    assert.match(planned.stdout, /4 new ban/);
    assert.match(
      planned.stdout,
      /Planned 4 actions at 2 targets \(4 writes\); 2 lines of the list not used\. Nothing was written\./,
    );
    assert.equal(await patches(), before, 'planning writes nothing');

    const applied = await cli(['bans', 'apply', file('raid.json'), '--base-url', shared.emulator.url, '--json']);
    assert.equal(applied.code, 0, applied.stderr);
    assert.deepEqual(applied.json(), {
      command: 'bans apply',
      exitCode: 0,
      written: 4,
      earlier: 0,
      skipped: 0,
      failures: [],
    });
    const a = await state(3001);
    assert.deepEqual([a.active, a.duration, a.displayReason], [true, '604800s', 'Raid']);
    const b = await state(3002, PLACE);
    assert.deepEqual([b.active, b.duration, b.displayReason], [true, '86400s', 'Spam']);

    const sent = await patches();
    const again = await cli(['bans', 'apply', file('raid.json'), '--base-url', shared.emulator.url]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /Wrote 0 changes \(4 done by an earlier run\)/);
    assert.equal(await patches(), sent, 'the second apply sends nothing');
  });

  it('unban-everywhere finds the universe and the place, and lifts both', async () => {
    const ban = (userId: number, placeId?: string) =>
      shared.client.restrictions.update({ universeId: U, placeId, userId, gameJoinRestriction: { active: true } });
    await ban(3001);
    await ban(3001, PLACE);
    await ban(3002);
    await ban(3002, PLACE);
    const planned = await cli([
      'bans',
      'unban-everywhere',
      ...connection(),
      '--users',
      '3001,3002,3003',
      '--plan',
      file('appeal.json'),
    ]);
    assert.equal(planned.code, 0, planned.stderr);
    assert.match(planned.stdout, /Banned nowhere: 3003\./);
    assert.match(planned.stdout, /4 lift/);
    const applied = await cli(['bans', 'apply', file('appeal.json'), '--base-url', shared.emulator.url]);
    assert.equal(applied.code, 0, applied.stderr);
    for (const [user, place] of [
      [3001, undefined],
      [3001, PLACE],
      [3002, undefined],
      [3002, PLACE],
    ] as const)
      assert.equal((await state(user, place)).active, false, `${user} at ${place ?? 'the universe'}`);
  });

  it('usage errors come before anything is sent (exit 2)', async () => {
    const before = (await shared.emulator.requests()).length;
    const cases: [string[], RegExp][] = [
      [['bans', 'ban-many', ...connection(), '--plan', file('x.json')], /give the users with --list <file> or --users/],
      [
        ['bans', 'ban-many', ...connection(), '--users', '1', '--list', 'a', '--plan', file('x.json')],
        /one of the two/,
      ],
      [['bans', 'ban-many', ...connection(), '--users', '1,x', '--plan', file('x.json')], /the list names no user/],
      [
        ['bans', 'ban-many', ...connection(), '--users', '1', '--places', '5,y', '--plan', file('x.json')],
        /--places: "y" is not an id/,
      ],
      [
        ['bans', 'ban-many', ...connection(), '--users', '1', '--duration', '7 years', '--plan', file('x.json')],
        /--duration: "years" is not a unit/,
      ],
      [['bans', 'ban-many', ...connection(), '--users', '1'], /--plan is missing/],
      [['bans', 'apply', file('raid.csv'), '--base-url', shared.emulator.url], /cannot read the plan/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
    assert.equal((await shared.emulator.requests()).length, before);
  });
});
