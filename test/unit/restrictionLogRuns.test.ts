// The restriction log's ban run groups: which loaded entry each run wrote (two runs against the emulator, and a ban
// by hand before them), the contiguous stretches the page draws under one header each, how a run reads, and the
// export's Run column.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  applyBans,
  BAN_PLAN_FORMAT,
  parseBanList,
  planBans,
  readBanJournal,
  type BanPlanFile,
  type OpenApiClient,
  type RestrictionLog,
} from '../../src/api';
import { runHeader, runStretches, runTitle, type LogRunInfo } from '../../src/restrictions/log/groups';
import { logCsv, rowsOf } from '../../src/restrictions/log/rows';
import { matchRuns } from '../../src/restrictions/log/runs';
import { parseCsv } from './support/csv';
import { API_KEY, makeClient } from './support/client';
import { TestEmulator } from './support/emulator';

const U = 7171;
const P = 717101;

describe('runStretches', () => {
  const rows = (...runs: (string | undefined)[]) => runs.map((run) => (run ? { run } : {}));

  it('one run: one stretch over its contiguous rows; rows of no run are in none', () => {
    assert.deepEqual(runStretches(rows(undefined, 'a', 'a', 'a', undefined)), [{ run: 'a', start: 1, end: 4 }]);
    assert.deepEqual(runStretches(rows(undefined, undefined)), []);
    assert.deepEqual(runStretches([]), []);
  });

  it('two runs side by side: a stretch each', () => {
    assert.deepEqual(runStretches(rows('b', 'b', 'a', 'a')), [
      { run: 'b', start: 0, end: 2 },
      { run: 'a', start: 2, end: 4 },
    ]);
  });

  it('a run broken by a row of no run or of another run: a stretch per piece, each naming the same run', () => {
    assert.deepEqual(runStretches(rows('a', undefined, 'a', 'b', 'a')), [
      { run: 'a', start: 0, end: 1 },
      { run: 'a', start: 2, end: 3 },
      { run: 'b', start: 3, end: 4 },
      { run: 'a', start: 4, end: 5 },
    ]);
  });
});

describe('how a run reads', () => {
  const run: LogRunInfo = {
    id: 'ban-1',
    kind: 'ban',
    label: 'Raid 27 Nov',
    users: 1000,
    targets: 4,
    first: '2026-11-27T10:32:10Z',
    last: '2026-11-27T10:36:50Z',
  };

  it('kind, label, users at targets, the time it wrote; the header adds the entries of its stretch', () => {
    assert.match(
      runTitle(run),
      /^Ban run · Raid 27 Nov · 1,000 users at 4 targets · \d+ Nov 2026, \d\d:\d\d–\d\d:\d\d$/,
    );
    assert.match(runHeader(run, 4000), / · 4,000 entries here$/);
    assert.match(runHeader(run, 1), / · 1 entry here$/);
    const bare = { ...run, kind: 'unban' as const, label: undefined, users: 1, targets: 1, first: undefined };
    assert.equal(runTitle(bare), 'Unban run · 1 user at 1 target · nothing written yet');
  });
});

describe("a run's entries in the loaded log", () => {
  let emulator: TestEmulator;
  let client: OpenApiClient;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-log-runs-'));

  before(async () => {
    emulator = await TestEmulator.start({ apiKeys: [{ key: API_KEY, userId: 900 }] });
    client = makeClient(emulator.url).client;
  });
  after(async () => {
    await client.close();
    await emulator.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function run(name: string, ids: string, label: string) {
    const list = parseBanList(ids);
    const defaults = { durationSeconds: 3600, displayReason: 'Raid', privateReason: label, excludeAltAccounts: false };
    const planned = await planBans(client, {
      kind: 'ban',
      rows: list.rows,
      targets: [{ universeId: U }, { universeId: U, placeId: P }],
      defaults,
    });
    const plan: BanPlanFile = { format: BAN_PLAN_FORMAT, ...planned, problems: list.problems, label };
    const journalFile = path.join(dir, `${name}.journal`);
    await applyBans(client, plan, { journalFile });
    return { id: name, plan, journal: readBanJournal(journalFile) };
  }

  async function logs(): Promise<RestrictionLog[]> {
    const all: RestrictionLog[] = [];
    for await (const log of client.restrictions.listLogs({ universeId: U, maxPageSize: 100 })) all.push(log);
    return all;
  }

  it('each entry is the run that wrote it, or none; the rows group into one stretch per run; the CSV names the run', async () => {
    await client.restrictions.update({
      universeId: U,
      userId: 11,
      gameJoinRestriction: { active: true, displayReason: 'x', privateReason: 'by hand', excludeAltAccounts: false },
    });
    const first = await run('first', '11 12', '=first raid');
    const second = await run('second', '13', 'second raid');
    const all = await logs();
    const ids = matchRuns([second, first], U, all);
    const who = all.map((l, i) => `${l.user.slice(6)}@${l.place ? 'p' : 'u'} ${ids[i] ?? '-'}`);
    assert.deepEqual([...who].sort(), [
      '11@p first',
      '11@u -',
      '11@u first',
      '12@p first',
      '12@u first',
      '13@p second',
      '13@u second',
    ]);
    const byHand = all.findIndex((l) => l.privateReason === 'by hand');
    assert.equal(ids[byHand], undefined, 'the ban written by hand before is no run’s');
    assert.deepEqual(
      matchRuns([first], U + 1, all),
      all.map(() => undefined),
      'another universe: none',
    );

    const rows = rowsOf(all, ids);
    assert.deepEqual(
      runStretches(rows).map((s) => [s.run, s.end - s.start]),
      [
        ['second', 2],
        ['first', 4],
      ],
    );

    const names: Record<string, string> = { first: '=first raid', second: 'second raid' };
    const csv = parseCsv(logCsv(all, [0, byHand], (i) => names[ids[i] ?? ''] ?? ''));
    assert.equal(csv[0].at(-1), 'Run');
    assert.deepEqual(
      csv.slice(1).map((r) => r.at(-1)),
      ['second raid', ''],
    );
    const formula = parseCsv(logCsv(all, [all.findIndex((_, i) => ids[i] === 'first')], () => '=first raid'));
    assert.equal(formula[1].at(-1), "'=first raid", 'a label a spreadsheet would run is written as text');
  });
});
