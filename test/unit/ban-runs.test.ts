// A ban plan as a file (written, read back, refused when damaged) and a run's restriction log entries found again:
// exactly the entries the run wrote, not a ban of the same user written by hand before it, nor one at another place.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  applyBans,
  BAN_PLAN_FORMAT,
  banPlanText,
  parseBanList,
  planBans,
  readBanJournal,
  readBanPlanText,
  runEntries,
  runWindow,
  type BanPlanFile,
  type OpenApiClient,
  type RestrictionLog,
} from '../../src/api';
import { API_KEY, makeClient } from './support/client';
import { TestEmulator } from './support/emulator';

const U = 6161;
const P = 616101;
let emulator: TestEmulator;
let client: OpenApiClient;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-ban-runs-'));

before(async () => {
  emulator = await TestEmulator.start({ apiKeys: [{ key: API_KEY, userId: 900 }] });
  client = makeClient(emulator.url).client;
});
after(async () => {
  await client.close();
  await emulator.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const defaults = {
  durationSeconds: 3600,
  displayReason: 'Raid',
  privateReason: 'raid 27 Nov',
  excludeAltAccounts: false,
};

async function planFile(ids: string): Promise<BanPlanFile> {
  const list = parseBanList(ids);
  const plan = await planBans(client, {
    kind: 'ban',
    rows: list.rows,
    targets: [{ universeId: U }, { universeId: U, placeId: P }],
    defaults,
  });
  return { format: BAN_PLAN_FORMAT, ...plan, problems: list.problems, label: 'Raid' };
}

async function logs(): Promise<RestrictionLog[]> {
  const all: RestrictionLog[] = [];
  for await (const log of client.restrictions.listLogs({ universeId: U, maxPageSize: 100 })) all.push(log);
  return all;
}

describe('a ban plan file', () => {
  it('reads back as written, one action a line', async () => {
    const plan = await planFile('71\n72\nx');
    const text = banPlanText(plan);
    assert.equal(text.split('\n').filter((l) => l.startsWith('  {"n":')).length, 4);
    assert.deepEqual(readBanPlanText(text), JSON.parse(JSON.stringify(plan)));
    assert.equal(readBanPlanText(text).problems[0].line, 3);
  });

  it('is refused when it is not one or is damaged, saying where', async () => {
    const plan = await planFile('71');
    assert.throws(() => readBanPlanText('{"format":"other"}'), /not a ban plan/);
    assert.throws(() => readBanPlanText('{'), /not JSON/);
    const bad = JSON.parse(banPlanText(plan)) as { actions: { userId: unknown }[] };
    bad.actions[1].userId = -4;
    assert.throws(() => readBanPlanText(JSON.stringify(bad)), /damaged at actions\.1\.userId/);
    const shuffled = JSON.parse(banPlanText(plan)) as { actions: unknown[] };
    shuffled.actions.reverse();
    assert.throws(() => readBanPlanText(JSON.stringify(shuffled)), /out of order/);
  });
});

describe("a run's log entries", () => {
  it('are the ones the run wrote: not an earlier ban of the same user, nor a place the run left alone', async () => {
    // Written by hand first: user 81 at the universe (the run then writes it again), user 82 at another place.
    await client.restrictions.update({
      universeId: U,
      userId: 81,
      gameJoinRestriction: { active: true, displayReason: 'x', privateReason: 'by hand', excludeAltAccounts: false },
    });
    await client.restrictions.update({
      universeId: U,
      placeId: P + 1,
      userId: 82,
      gameJoinRestriction: { active: true, displayReason: 'x', privateReason: 'by hand', excludeAltAccounts: false },
    });
    const plan = await planFile('81 82 83');
    const journalFile = path.join(dir, 'raid.journal');
    const result = await applyBans(client, plan, { journalFile });
    assert.equal(result.written, 6);
    const journal = readBanJournal(journalFile);
    assert.equal(runWindow(journal).written, 6);
    const all = await logs();
    const mine = runEntries(plan, journal, U, all);
    const matched = [...mine].map((i) => all[i]).map((l) => `${l.user}@${l.place || 'u'} ${l.privateReason}`);
    assert.deepEqual(matched.sort(), [
      'users/81@places/616101 raid 27 Nov',
      'users/81@u raid 27 Nov',
      'users/82@places/616101 raid 27 Nov',
      'users/82@u raid 27 Nov',
      'users/83@places/616101 raid 27 Nov',
      'users/83@u raid 27 Nov',
    ]);
    assert.equal(runEntries(plan, journal, U + 1, all).size, 0, 'another universe: none');
  });

  it('are none while the journal says nothing was written', async () => {
    const plan = await planFile('91');
    const journal = readBanJournal(path.join(dir, 'never-run.journal'));
    assert.equal(runWindow(journal).first, undefined);
    assert.equal(runEntries(plan, journal, U, await logs()).size, 0);
  });
});
