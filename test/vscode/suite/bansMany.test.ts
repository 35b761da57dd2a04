// Bans of many users in a real VS Code, against an emulator this suite starts: Ban Users from a List… (a list with
// bad lines, a universe and a place, a preset from the workspace's file), the plan in the review panel with counts
// that add up, Apply and its result, a run cancelled part way and resumed by Resume Ban Run… without a write twice,
// Unban Everywhere… from a restriction row (a place ban found in the log), and the result as formula-safe CSV.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { Connection } from '../../../src/core/connections';
import type { Progress } from '../../../src/core/progress';
import type { ReviewPanel } from '../../../src/core/review/panel';
import type { TestContext } from '../../../src/extension';
import { describeWrite, endsAtOnce } from '../../../src/restrictions/bulk/review';
import { parseCsv } from '../../unit/support/csv';
import { SuiteService } from './service';
import { extensionApi, kind, label, reviewCounts, ScriptedUi, until } from './support';

const U = 7171;
const OTHER = 7272;
const PLACE = 717101;
const KEY = 'bans-many-tests-key';

suite('bans of many users in the editor', () => {
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let service: SuiteService;
  let connection: Connection;
  let ui: ScriptedUi;

  const client = () => service.client;
  const patches = async () => (await service.emulator.requests({ method: 'PATCH' })).length;
  const restriction = (userId: number, placeId?: number, universeId = U) =>
    client()
      .restrictions.get({ universeId, placeId, userId })
      .then((r) => r.gameJoinRestriction);
  const ban = (userId: number, g: { duration?: string; privateReason?: string }, placeId?: number) =>
    client().restrictions.update({
      universeId: U,
      placeId,
      userId,
      gameJoinRestriction: { active: true, displayReason: '', privateReason: '', excludeAltAccounts: false, ...g },
    });

  async function group() {
    const root = (await ctx.tree.getChildren()).find((n) => label(n) === 'Bulk Bans');
    assert.ok(root, 'no Bulk Bans connection in the tree');
    const [universe] = await ctx.tree.getChildren(root);
    const node = (await ctx.tree.getChildren(universe)).find((n) => kind(n).startsWith('restrictions'));
    assert.ok(node, 'no User Restrictions group');
    return node;
  }

  /** Answers the list (from the clipboard), the targets, and typed reasons. */
  function listAnswers(targets: string[], places?: string) {
    ui = new ScriptedUi();
    ctx.ui = ui;
    ui.on('pick', /^Ban users from universe/, '$(clippy) Paste from the Clipboard').on('pickMany', /: where/, targets);
    if (places) ui.on('input', /^Places of universe/, places);
    return ui;
  }

  function typedReasons(u: ScriptedUi, duration = '7 days') {
    return u
      .on('pick', /^Reasons and duration/, 'Type the duration and reasons…')
      .on('pick', /^Duration/, duration)
      .on('input', /^Display reason/, 'Raiding')
      .on('input', /^Private reason/, 'raid 27 Nov')
      .on('pick', /^Alt accounts of/, 'Ban only this account');
  }

  async function banFromList(ids: string): Promise<ReviewPanel> {
    await vscode.env.clipboard.writeText(ids);
    const panel = (await vscode.commands.executeCommand(
      'universeExplorer.banUsersFromList',
      await group(),
    )) as ReviewPanel;
    assert.deepEqual(ui.messages('error'), []);
    assert.ok(panel, `no review opened; prompts: ${JSON.stringify(ui.prompts)}`);
    return panel;
  }

  const universeLabel = `universe ${U} (Bulk Main)`;
  const otherPlaces = `Other places of universe ${U}…`;

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    service = await SuiteService.start(KEY);
    connection = await service.connect(ctx, 'Bulk Bans', [
      { id: U, name: 'Bulk Main' },
      { id: OTHER, name: 'Bulk Copy' },
    ]);
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    ctx.ui = realUi;
    await service.emulator.reset();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (folder) fs.rmSync(path.join(folder, '.vscode', 'universe-explorer.bans.json'), { force: true });
  });

  suiteTeardown(async () => {
    await service.close(ctx);
    assert.ok(connection);
  });

  test('Ban Users from a List…: bad lines said, a plan per user and target whose counts add up, Apply writes each once', async () => {
    await ban(101, { duration: '604800s', privateReason: 'raid 27 Nov' });
    await ban(102, { duration: '86400s', privateReason: 'earlier' });
    typedReasons(listAnswers([universeLabel, otherPlaces], String(PLACE)));
    const before = await patches();
    const panel = await banFromList('101\n102\nabc\n103\n102\n');
    const state = panel.state;
    assert.equal(state.phase, 'plan');
    // 101: the universe already the same way (display reason differs: '' then) → other reasons; 102 longer; 103 new.
    assert.deepEqual(reviewCounts(panel), { new: 4, longer: 1, changed: 1 });
    assert.match(state.summary, /^6 rows: .* 6 to write\.$/);
    assert.ok(
      state.notes.some((n) => /^Line 3 not used: .*\(abc\)\.$/.test(n)),
      state.notes.join('\n'),
    );
    assert.ok(
      state.notes.some((n) => /^Line 5 not used: .*line 2/.test(n)),
      state.notes.join('\n'),
    );
    assert.deepEqual(
      [state.columns.key, state.columns.kind, state.columns.version, state.columns.bytes],
      ['User', 'Change', 'Now', ''],
    );
    const rows = panel.rows(0, 10);
    assert.deepEqual(
      rows.map((r) => `${r.key} ${r.scope} ${r.kind}`),
      [
        `101 universe ${U} changed`,
        `102 universe ${U} longer`,
        `103 universe ${U} new`,
        `101 place ${PLACE} new`,
        `102 place ${PLACE} new`,
        `103 place ${PLACE} new`,
      ],
    );
    assert.match(rows[1].note ?? '', /^7d, ends .* · raid 27 Nov · shown: Raiding · not alt accounts$/);
    assert.equal(
      state.direction,
      `raid 27 Nov: 3 users from the clipboard → ${universeLabel}, place ${PLACE} of ${universeLabel}`,
    );
    assert.equal(await patches(), before, 'planning writes nothing');

    await panel.receive({ type: 'button', id: 'apply' });
    assert.equal(panel.state.phase, 'result');
    assert.deepEqual(reviewCounts(panel), { written: 6 });
    assert.equal(await patches(), before + 6);
    const g = await restriction(103, PLACE);
    assert.deepEqual(
      [g.active, g.duration, g.displayReason, g.privateReason, g.excludeAltAccounts],
      [true, '604800s', 'Raiding', 'raid 27 Nov', true],
    );
    assert.equal(
      panel.state.buttons.some((b) => b.id === 'apply'),
      false,
      'nothing left to resume',
    );

    // The same plan opened again (Review Ban Plan File…) is its result: nothing to apply, nothing sent.
    const [run] = await ctx.banRuns.list(connection.id, U);
    const again = (await vscode.commands.executeCommand('universeExplorer.reviewBanPlan', {
      file: run.file,
      connectionId: connection.id,
    })) as ReviewPanel;
    assert.equal(again.state.phase, 'result');
    assert.deepEqual(reviewCounts(again), { written: 6 });
    assert.equal(await patches(), before + 6);
  });

  test('a shorter ban over one that began long ago is said to end at once (the service counts from its start)', () => {
    const planned = '2026-11-27T10:00:00Z';
    const action = (startTime: string) => ({
      n: 0,
      userId: 1,
      target: { universeId: U },
      change: 'shorter' as const,
      now: {
        active: true,
        startTime,
        displayReason: '',
        privateReason: '',
        excludeAltAccounts: false,
        inherited: false,
      },
      write: { active: true, durationSeconds: 7 * 86_400 },
    });
    assert.equal(endsAtOnce(action('2026-11-11T10:00:00Z'), planned), true);
    assert.match(describeWrite(action('2026-11-11T10:00:00Z'), planned), /^7d from its start .*: ends at once$/);
    assert.equal(endsAtOnce(action('2026-11-25T10:00:00Z'), planned), false);
    assert.match(describeWrite(action('2026-11-25T10:00:00Z'), planned), /^7d, ends /);
    assert.equal(endsAtOnce({ ...action('2026-11-11T10:00:00Z'), now: undefined }, planned), false, 'a new ban');
  });

  test('a run cancelled part way is listed by Resume Ban Run… and goes on without writing anything twice', async () => {
    typedReasons(listAnswers([universeLabel, `universe ${OTHER} (Bulk Copy)`]), '1 day');
    const panel = await banFromList('201 202 203 204 205');
    assert.deepEqual(reviewCounts(panel), { new: 10 });
    // Cancel once 3 writes are done: the notification's Cancel, as a gate on the progress the run reports.
    const cancelling: Progress = (_title, task) => {
      const controller = new AbortController();
      return task(controller.signal, (message) => {
        if (/^3 of 10/.test(message)) controller.abort();
      });
    };
    ui.progress = cancelling;
    await panel.receive({ type: 'button', id: 'apply' });
    const stopped = reviewCounts(panel);
    // A write answered as the cancel came may be noted too (the pacing leaves 200 ms between writes: rarely).
    assert.ok(stopped.written >= 3 && stopped.written < 10, JSON.stringify(stopped));
    assert.equal(stopped.pending, 10 - stopped.written);
    assert.match(panel.state.summary, /^Cancelled: Resume goes on where it stopped\./);
    const sent = await patches();
    assert.ok(sent >= 3 && sent <= 10, `sent ${sent}`);

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    ui = new ScriptedUi();
    ctx.ui = ui;
    ui.on('pick', /^Resume a ban run/, 'Ban · raid 27 Nov');
    const resumed = (await vscode.commands.executeCommand('universeExplorer.resumeBanRun')) as ReviewPanel;
    assert.ok(resumed, `no review; prompts ${JSON.stringify(ui.prompts)}`);
    assert.equal(resumed.state.phase, 'result');
    assert.ok(resumed.state.buttons.some((b) => b.id === 'apply' && /^Resume/.test(b.label)));
    const beforeResume = await patches();
    await resumed.receive({ type: 'button', id: 'apply' });
    assert.deepEqual(reviewCounts(resumed), { written: 10 });
    const left = 10 - stopped.written;
    assert.match(resumed.state.summary, new RegExp(`^This run wrote ${left}\\.`));
    assert.equal(await patches(), beforeResume + left, 'what was written before the cancel is not sent again');
    // Each write reached the service once: a write in flight at the cancel was resent with its key (applied once).
    const log = await client().restrictions.listLogs({ universeId: U, maxPageSize: 100 });
    assert.equal(log.items.length, 5, 'one log entry per user in the universe');
    assert.equal((await client().restrictions.listLogs({ universeId: OTHER, maxPageSize: 100 })).items.length, 5);
    assert.equal((await restriction(205, undefined, OTHER)).duration, '86400s');
    ui.on('info', /^No ban run is unfinished/, undefined);
    await vscode.commands.executeCommand('universeExplorer.resumeBanRun');
    assert.match(ui.messages('info').at(-1) ?? '', /^No ban run is unfinished/);
  });

  test('a preset from the workspace fills the reasons; a broken presets file is said, not guessed at', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(folder, 'the tests run in a workspace');
    const file = path.join(folder, '.vscode', 'universe-explorer.bans.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      JSON.stringify({
        presets: [{ name: 'Exploiting', duration: '3d', displayReason: 'Exploits', privateReason: 'wave 4' }],
      }),
    );
    listAnswers([universeLabel]).on('pick', /^Reasons and duration/, 'Exploiting');
    const panel = await banFromList('301');
    assert.match(panel.state.direction, /^Exploiting: user 301 → /);
    await panel.receive({ type: 'button', id: 'apply' });
    const g = await restriction(301);
    assert.deepEqual([g.duration, g.displayReason, g.privateReason], ['259200s', 'Exploits', 'wave 4']);

    fs.writeFileSync(file, '{"presets": [{"name": "x", "duration": "soon"}]}');
    listAnswers([universeLabel]);
    await vscode.env.clipboard.writeText('302');
    await vscode.commands.executeCommand('universeExplorer.banUsersFromList', await group());
    assert.match(ui.messages('error')[0] ?? '', /universe-explorer\.bans\.json: preset "x": duration soon/);
    assert.equal(await patches(), 1);
  });

  test('Unban Everywhere… from a restriction row lifts the universe ban and a place ban only the log shows', async () => {
    await ban(401, { privateReason: 'universe' });
    await ban(401, { privateReason: 'place' }, PLACE);
    await ban(402, { privateReason: 'other' });
    ui = new ScriptedUi();
    ctx.ui = ui;
    ui.on('pickMany', /^Unban 1 user everywhere/, []);
    const list = await group();
    ctx.tree.refresh(list);
    const row = (await ctx.tree.getChildren(list)).find((n) => label(n).startsWith('401'));
    assert.ok(row, 'no row of user 401');
    const panel = (await vscode.commands.executeCommand('universeExplorer.unbanEverywhere', row)) as ReviewPanel;
    assert.ok(panel, `no review; prompts ${JSON.stringify(ui.prompts)}`);
    assert.deepEqual(reviewCounts(panel), { lift: 2 });
    await panel.receive({ type: 'button', id: 'apply' });
    assert.deepEqual(reviewCounts(panel), { written: 2 });
    assert.equal((await restriction(401)).active, false);
    assert.equal((await restriction(401, PLACE)).active, false);
    assert.equal((await restriction(402)).active, true, 'another user left alone');
  });

  test('the result exports as CSV that a spreadsheet cannot run', async () => {
    listAnswers([universeLabel])
      .on('pick', /^Reasons and duration/, 'Type the duration and reasons…')
      .on('pick', /^Duration/, 'Permanent')
      .on('input', /^Display reason/, '=HYPERLINK("http://x","y")')
      .on('input', /^Private reason/, '+cmd')
      .on('pick', /^Alt accounts of/, 'Also ban alt accounts');
    const panel = await banFromList('501');
    await panel.receive({ type: 'button', id: 'apply' });
    const out = vscode.Uri.file(path.join(service.dir, 'result.csv'));
    ui.on('saveDialog', /^Export the result as CSV/, out);
    await panel.receive({ type: 'button', id: 'exportCsv' });
    const [header, row] = parseCsv(fs.readFileSync(out.fsPath, 'utf8'));
    assert.deepEqual(header.slice(0, 5), ['User', 'Universe', 'Place', 'Change', 'Outcome']);
    assert.deepEqual(row.slice(0, 7), ['501', String(U), '', 'new', 'written', '', 'permanent']);
    assert.equal(row[7], `'=HYPERLINK("http://x","y")`);
    assert.equal(row[8], `'+cmd`);
    await until('the info message', () => ui.messages('info').length > 0);
  });
});
