// Bans of many users against the emulator over HTTP: the plan's rules (new, longer, shorter, changed, the same way
// skipped; an unban where there is none or where the ban is the universe's skipped), a run that writes each action
// once, a run stopped and run again, a second run that sends nothing, and pacing under the emulator's limits with no
// 429 (its windows shortened 20 times, as the run is told).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  applyBans,
  countChanges,
  parseBanList,
  planBans,
  planUnbanEverywhere,
  type BanPlan,
  type OpenApiClient,
} from '../../src/api';
import { API_KEY, makeClient } from './support/client';
import { TestEmulator } from './support/emulator';

const U = 5151;
const P1 = 515101;
const P2 = 515102;
const DAY = 86_400;
let emulator: TestEmulator;
let client: OpenApiClient;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-bans-'));
let runs = 0;
const journal = () => path.join(dir, `journal-${++runs}.ndjson`);

const restriction = (userId: number, placeId?: number) =>
  client.restrictions.get({ universeId: U, placeId, userId }).then((r) => r.gameJoinRestriction);

const ban = (
  userId: number,
  g: { duration?: string; displayReason?: string; privateReason?: string },
  placeId?: number,
) =>
  client.restrictions.update({
    universeId: U,
    placeId,
    userId,
    gameJoinRestriction: { active: true, displayReason: '', privateReason: '', excludeAltAccounts: false, ...g },
  });

const changes = (plan: BanPlan) => plan.actions.map((a) => `${a.userId}@${a.target.placeId ?? 'u'} ${a.change}`);

const updates = async () => (await emulator.requests({ method: 'PATCH' })).length;

before(async () => {
  emulator = await TestEmulator.start({ apiKeys: [{ key: API_KEY, userId: 900 }] });
  client = makeClient(emulator.url).client;
});
after(async () => {
  await client.close();
  await emulator.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => emulator.reset());

const defaults = {
  durationSeconds: 7 * DAY,
  displayReason: 'Cheating',
  privateReason: 'wave 3',
  excludeAltAccounts: false,
};

describe('ban plans', () => {
  it('says per user and target what changes; counts add up; nothing is written', async () => {
    await ban(1, { duration: `${DAY}s`, displayReason: 'Cheating', privateReason: 'wave 3' }); // shorter now
    await ban(2, { displayReason: 'Cheating', privateReason: 'wave 3' }); // permanent: 7 days is shorter
    await ban(3, { duration: `${7 * DAY}s`, displayReason: 'Cheating', privateReason: 'wave 3' }); // the same
    await ban(4, { duration: `${7 * DAY}s`, displayReason: 'Spam', privateReason: '' }); // other reasons
    await ban(6, { displayReason: 'Old' }, P1);
    const list = parseBanList('1\n2\n3\n4\n5\n6');
    const before = await updates();
    const plan = await planBans(client, {
      kind: 'ban',
      rows: list.rows,
      targets: [{ universeId: U }, { universeId: U, placeId: P1 }],
      defaults,
    });
    assert.equal(await updates(), before, 'a plan writes nothing');
    assert.deepEqual(changes(plan), [
      '1@u longer',
      '2@u shorter',
      '3@u same',
      '4@u changed',
      '5@u new',
      '6@u new',
      // At the place, the universe's bans are inherited: the place holds none of its own.
      `1@${P1} new`,
      `2@${P1} new`,
      `3@${P1} new`,
      `4@${P1} new`,
      `5@${P1} new`,
      `6@${P1} shorter`,
    ]);
    const counts = countChanges(plan);
    assert.deepEqual(counts, { longer: 1, shorter: 2, same: 1, changed: 1, new: 7 });
    assert.equal(
      Object.values(counts).reduce((a, b) => a + b, 0),
      plan.actions.length,
    );
    assert.equal(plan.actions.find((a) => a.change === 'same')?.write, undefined);
  });

  it('a row of the list overrides the defaults; an expired timed ban counts as none', async () => {
    await ban(7, { duration: '1s' });
    const list = parseBanList('userId,duration,displayReason\n7,permanent,Raid\n8,1h,');
    const plan = await planBans(client, {
      kind: 'ban',
      rows: list.rows,
      targets: [{ universeId: U }],
      defaults,
      now: Date.now() + 5000,
    });
    assert.deepEqual(changes(plan), ['7@u new', '8@u new']);
    assert.deepEqual(plan.actions[0].write, {
      active: true,
      durationSeconds: null,
      displayReason: 'Raid',
      privateReason: 'wave 3',
      excludeAltAccounts: false,
    });
    assert.equal(plan.actions[1].write?.durationSeconds, 3600);
    assert.equal(plan.actions[1].write?.displayReason, 'Cheating', 'an empty cell takes the default');
  });

  it('unban: lifts where banned; not banned and a place whose ban is the universe’s are skipped', async () => {
    await ban(1, {});
    await ban(2, {}, P1);
    const plan = await planBans(client, {
      kind: 'unban',
      rows: parseBanList('1 2 3').rows,
      targets: [{ universeId: U }, { universeId: U, placeId: P1 }],
    });
    assert.deepEqual(changes(plan), [
      '1@u lift',
      '2@u notBanned',
      '3@u notBanned',
      `1@${P1} inherited`,
      `2@${P1} lift`,
      `3@${P1} notBanned`,
    ]);
    const result = await applyBans(client, plan, { journalFile: journal() });
    assert.deepEqual([result.written, result.skipped, result.failures], [2, 4, []]);
    assert.equal((await restriction(1)).active, false);
    assert.equal((await restriction(2, P1)).active, false);
  });
});

describe('unban at chosen targets', () => {
  it('a place ban of its own, hidden behind the universe’s, is lifted too (read from the user’s log)', async () => {
    await ban(41, { displayReason: 'place' }, P1);
    await ban(41, { displayReason: 'universe' });
    await ban(42, {}); // only the universe's: skipped at the place
    const plan = await planBans(client, {
      kind: 'unban',
      rows: parseBanList('41 42').rows,
      targets: [{ universeId: U }, { universeId: U, placeId: P1 }],
    });
    assert.deepEqual(changes(plan), ['41@u lift', '42@u lift', `41@${P1} lift`, `42@${P1} inherited`]);
    await applyBans(client, plan, { journalFile: journal() });
    assert.equal((await restriction(41, P1)).active, false, 'no ban of its own comes back at the place');
  });
});

describe('unban everywhere', () => {
  it('finds each universe and place where the users are banned, from the universes and their logs, and lifts each', async () => {
    const U2 = 5252;
    await ban(31, {}); // universe U
    await ban(31, { duration: '3600s' }, P2); // a place of U, found through 31's log
    await ban(32, {}, P1);
    await client.restrictions.update({ universeId: U2, userId: 32, gameJoinRestriction: { active: true } });
    await ban(33, { duration: '1s' }); // expired by the time of the plan
    await ban(34, {}, P1);
    await client.restrictions.update({
      universeId: U,
      placeId: P1,
      userId: 34,
      gameJoinRestriction: { active: false },
    });
    const plan = await planUnbanEverywhere(client, {
      universeIds: [U, U2],
      userIds: [31, 32, 33, 34, 35],
      now: Date.now() + 5000,
    });
    assert.deepEqual(plan.actions.map((a) => `${a.userId}@${a.target.universeId}/${a.target.placeId ?? 'u'}`).sort(), [
      `31@${U}/${P2}`,
      `31@${U}/u`,
      `32@${U}/${P1}`,
      `32@${U2}/u`,
    ]);
    assert.deepEqual(plan.clear, [33, 34, 35]);
    const result = await applyBans(client, plan, { journalFile: journal() });
    assert.deepEqual([result.written, result.failures], [4, []]);
    const again = await planUnbanEverywhere(client, { universeIds: [U, U2], userIds: [31, 32] });
    assert.deepEqual(again.actions, [], 'nothing is left to lift');
  });
});

describe('applying a ban plan', () => {
  const plan = () =>
    planBans(client, {
      kind: 'ban',
      rows: parseBanList('11 12 13 14').rows,
      targets: [{ universeId: U }, { universeId: U, placeId: P1 }],
      defaults,
    });

  it('writes each action once, as planned; a second run of the same plan sends no write', async () => {
    const p = await plan();
    const file = journal();
    const first = await applyBans(client, p, { journalFile: file });
    assert.deepEqual([first.written, first.earlier, first.skipped, first.failures.length], [8, 0, 0, 0]);
    const g = await restriction(13);
    assert.deepEqual(
      [g.active, g.duration, g.displayReason, g.privateReason],
      [true, `${7 * DAY}s`, 'Cheating', 'wave 3'],
    );
    const sent = await updates();
    const second = await applyBans(client, p, { journalFile: file });
    assert.deepEqual([second.written, second.earlier, second.requests], [0, 8, 0]);
    assert.equal(await updates(), sent, 'no write the second time');
  });

  it('a run stopped midway and run again finishes the rest and writes nothing twice', async () => {
    const p = await plan();
    const file = journal();
    const stop = new AbortController();
    await assert.rejects(
      applyBans(client, p, {
        journalFile: file,
        signal: stop.signal,
        concurrency: 1,
        onProgress: ({ done }) => done === 3 && stop.abort(),
      }),
      { name: 'AbortError' },
    );
    assert.equal(await updates(), 3);
    const rest = await applyBans(client, p, { journalFile: file });
    assert.deepEqual([rest.written, rest.earlier], [5, 3]);
    assert.equal(await updates(), 8, 'each action written once in all');
    const logs = [];
    for await (const log of client.restrictions.listLogs({ universeId: U })) logs.push(log);
    assert.equal(logs.length, 8, 'the log holds one entry per action');
  });

  it('a write the service answered but the run did not note is sent again with the same key and applied once', async () => {
    const p = await plan();
    const file = journal();
    await applyBans(client, p, { journalFile: file });
    // As if the run died after sending: drop the `done` lines, keep the keys.
    const lines = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l && !l.includes('"done"'));
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const again = await applyBans(client, p, { journalFile: file });
    assert.equal(again.written, 8);
    const logs = [];
    for await (const log of client.restrictions.listLogs({ universeId: U })) logs.push(log);
    assert.equal(logs.length, 8, 'the repeated writes, with their first keys, changed nothing');
  });

  it('a failure is listed with the service’s reason and the rest goes on', async () => {
    const p = await plan();
    await emulator.fault({
      method: 'PATCH',
      path: `/cloud/v2/universes/${U}/user-restrictions/12`,
      status: 400,
      body: JSON.stringify({ code: 'INVALID_ARGUMENT', message: 'User is not allowed.' }),
      times: 1,
    });
    const result = await applyBans(client, p, { journalFile: journal() });
    assert.equal(result.written, 7);
    assert.deepEqual(
      result.failures.map((f) => [f.userId, f.where]),
      [[12, `universe ${U}`]],
    );
    assert.match(result.failures[0].reason, /User is not allowed/);
  });
});

describe('pacing', () => {
  let limited: TestEmulator;
  let paced: OpenApiClient;
  before(async () => {
    limited = await TestEmulator.start({
      apiKeys: [{ key: API_KEY, userId: 900 }],
      rateLimits: true,
      rateLimitWindowScale: 0.05,
    });
    paced = makeClient(limited.url).client;
  });
  after(async () => {
    await paced.close();
    await limited.close();
  });

  it('three targets per user under the service’s limits (10 a second, 2 a minute per user): no 429, all written', async () => {
    const p = await planBans(paced, {
      kind: 'ban',
      rows: parseBanList('21 22 23 24 25').rows,
      targets: [{ universeId: U }, { universeId: U, placeId: P1 }, { universeId: U, placeId: P2 }],
      defaults,
    });
    const result = await applyBans(paced, p, { journalFile: journal(), windowScale: 0.05 });
    assert.deepEqual([result.written, result.failures.length, result.requests], [15, 0, 15]);
    const patches = await limited.requests({ method: 'PATCH' });
    assert.deepEqual(
      patches.filter((r) => r.status === 429),
      [],
    );
    assert.equal(patches.length, 15);
  });
});
