// A ban run in the restriction log, in a real VS Code against an emulator this suite starts: a plan made and applied
// with the client (as the command line does), opened as a run; the log shows its entries as one group, the Run
// filter pages back to its first write and shows exactly its entries (not bans by hand before or after it), and the
// filter survives the page loading again and a window reload; the CSV names the run. Rows selected in the log
// open Ban Users from a List… and Unban Everywhere… on exactly their users.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import { applyBans, BAN_PLAN_FORMAT, banPlanText, parseBanList, planBans, type BanPlanFile } from '../../../src/api';
import type { TestContext } from '../../../src/extension';
import type { ReviewPanel } from '../../../src/core/review/panel';
import type { TreeNode } from '../../../src/core/tree/node';
import { runHeader, runStretches } from '../../../src/restrictions/log/groups';
import type { RestrictionLogPanel } from '../../../src/restrictions/log/panel';
import type { BanRun } from '../../../src/restrictions/runs/store';
import { parseCsv } from '../../unit/support/csv';
import { SuiteService } from './service';
import { extensionApi, label, reviewCounts, ScriptedUi, until } from './support';

const U = 8282;
const P = 828201;
const KEY = 'ban-runs-key';
const HOUR = 3_600_000;
const RUN_USERS = [501, 502, 503, 504, 505, 506];

suite('ban runs in the restriction log', () => {
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let service: SuiteService;
  let run: BanRun;

  const ban = (userId: number, privateReason: string, placeId?: number) =>
    service.client.restrictions.update({
      universeId: U,
      placeId,
      userId,
      gameJoinRestriction: { active: true, displayReason: 'x', privateReason, excludeAltAccounts: false },
    });

  async function openLog(): Promise<RestrictionLogPanel> {
    const root = (await ctx.tree.getChildren()).find((n) => label(n) === 'Ban Runs Tests');
    assert.ok(root, 'no Ban Runs Tests connection in the tree');
    const [universe] = (await ctx.tree.getChildren(root)) as TreeNode[];
    const panel = (await vscode.commands.executeCommand(
      'universeExplorer.showRestrictionLog',
      universe,
    )) as RestrictionLogPanel;
    await until('the log page to load its rows', () => panel.ready && !panel.state.loading, 20_000);
    return panel;
  }

  const who = (panel: RestrictionLogPanel) => panel.state.rows.map((r) => `${r.user}@${r.place || 'u'}`).sort();
  const runRows = RUN_USERS.flatMap((u) => [`${u}@${P}`, `${u}@u`]).sort();

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    // The emulator's clock starts an hour back: the bans written then are well before the run.
    service = await SuiteService.start(KEY, { clock: new Date(Date.now() - HOUR).toISOString() });
    const connection = await service.connect(ctx, 'Ban Runs Tests', [{ id: U, name: 'Runs Universe' }]);
    for (const user of [701, 702, 703, 704]) await ban(user, 'an hour ago');
    await service.emulator.advanceClock(HOUR);
    // By hand just before the run, at a place and user the run writes too: near in time, not what the run sent.
    await ban(501, 'by hand', P);

    const list = parseBanList(RUN_USERS.join('\n'));
    const planned = await planBans(service.client, {
      kind: 'ban',
      rows: list.rows,
      targets: [{ universeId: U }, { universeId: U, placeId: P }],
      defaults: { durationSeconds: 86_400, displayReason: 'Raid', privateReason: 'raid', excludeAltAccounts: false },
    });
    const plan: BanPlanFile = { format: BAN_PLAN_FORMAT, ...planned, problems: [], label: '=Raid <b>27</b> Nov' };
    const file = path.join(service.dir, 'raid.plan.json');
    fs.writeFileSync(file, banPlanText(plan));
    const applied = await applyBans(service.client, plan, { journalFile: `${file}.journal` });
    assert.equal(applied.written, 12);
    for (const user of [801, 802]) await ban(user, 'after the run');
    run = await ctx.banRuns.adopt(connection.id, file);
  });

  teardown(async () => {
    ctx.ui = realUi;
    await service.emulator.clearFaults();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace
      .getConfiguration('universeExplorer')
      .update('pageSize', undefined, vscode.ConfigurationTarget.Global);
  });

  suiteTeardown(() => service.close(ctx));

  test("the run's entries loaded show as one group under a header counting them", async () => {
    const panel = await openLog();
    const s = panel.state;
    assert.equal(s.rows.length, 19, 'every entry of the log on the first page');
    assert.deepEqual(
      s.runs.map((r) => [r.id, r.kind, r.label, r.users, r.targets]),
      [[run.id, 'ban', '=Raid <b>27</b> Nov', 6, 2]],
    );
    const stretches = runStretches(s.rows);
    assert.deepEqual(
      stretches.map((x) => [x.run, x.start, x.end]),
      [[run.id, 2, 14]],
      'the bans after the run come first, then the run, then the bans before it',
    );
    assert.match(
      runHeader(s.runs[0], 12),
      /^Ban run · =Raid <b>27<\/b> Nov · 6 users at 2 targets · .+ · 12 entries here$/,
    );
    const byHand = s.rows.find((r) => r.privateReason === 'by hand');
    assert.equal(byHand?.run, undefined, 'the ban by hand just before the run is not in it');
  });

  test('the Run filter pages back to the run’s first write and shows exactly its entries; the user filter still applies', async () => {
    await vscode.workspace
      .getConfiguration('universeExplorer')
      .update('pageSize', 3, vscode.ConfigurationTarget.Global);
    const panel = await openLog();
    assert.equal(panel.state.loaded, 3);
    await panel.receive({ type: 'filterRun', run: run.id });
    assert.equal(panel.state.run, run.id);
    assert.deepEqual(who(panel), runRows);
    assert.ok(
      panel.state.rows.every((r) => r.privateReason === 'raid'),
      'only what the run sent',
    );
    // Pages of 3: the run's entries end at the 15th, with the ban by hand before it; the page after that holds the
    // bans of an hour before, older than the run's first write less the margin, so no page after it is read.
    assert.equal(panel.state.loaded, 18);
    assert.equal(panel.state.hasMore, true);
    assert.equal(panel.state.restore.run, run.id);

    const file = vscode.Uri.file(path.join(service.dir, 'run.csv'));
    const ui = new ScriptedUi().on('saveDialog', /^Export the restriction log/, file);
    ctx.ui = ui;
    await panel.receive({ type: 'exportCsv' });
    const csv = parseCsv(fs.readFileSync(file.fsPath, 'utf8'));
    assert.equal(csv[0].at(-1), 'Run');
    assert.equal(csv.length, 13, 'a header and the run’s 12 entries');
    assert.deepEqual(new Set(csv.slice(1).map((r) => r.at(-1))), new Set(["'=Raid <b>27</b> Nov"]));

    await panel.receive({ type: 'applyFilter', filter: { user: '501', place: '' } });
    assert.deepEqual(who(panel), ['501@828201', '501@u']);
    await panel.receive({ type: 'applyFilter', filter: { user: '', place: '' } });

    await panel.receive({ type: 'filterRun', run: '' });
    assert.equal(panel.state.run, '');
    assert.equal(panel.state.rows.length, panel.state.loaded);
    assert.equal(panel.state.restore.run, undefined);
  });

  test('choosing All entries while the Run filter pages back stops it: no page after the one in flight', async () => {
    await vscode.workspace
      .getConfiguration('universeExplorer')
      .update('pageSize', 3, vscode.ConfigurationTarget.Global);
    const panel = await openLog();
    // The next page is held by the emulator a while, so the choice arrives while it is in flight.
    await service.emulator.fault({ path: ':listLogs', query: 'pageToken', delayMs: 3000 });
    const walking = panel.receive({ type: 'filterRun', run: run.id });
    await until('the walk to start', () => panel.state.loading);
    await panel.receive({ type: 'filterRun', run: '' });
    assert.equal(panel.state.loading, false);
    assert.equal(panel.state.run, '');
    await walking;
    assert.equal(panel.state.loaded, 6, 'the page in flight arrives; none after it is read');
    assert.equal(panel.state.rows.length, 6);
    assert.equal(panel.state.loading, false);
  });

  test('the Run filter comes back when the page loads again and after a window reload; a run that is gone falls back to all', async () => {
    const panel = await openLog();
    await panel.receive({ type: 'filterRun', run: run.id });
    const loads = panel.pageLoads;
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: 'cover' }), {
      viewColumn: panel.panel.viewColumn,
      preview: false,
    });
    await until('the panel to be hidden', () => !panel.panel.visible);
    panel.panel.reveal();
    await until('the page to load again and say ready', () => panel.pageLoads > loads, 20_000);
    assert.equal(panel.state.run, run.id);
    assert.deepEqual(who(panel), runRows);

    const saved = { restore: panel.state.restore };
    panel.panel.dispose();
    const { reviveLog } = (await extensionApi()).testing;
    const restored = () =>
      vscode.window.createWebviewPanel(
        'universeExplorer.restrictionLog',
        'Restriction Log',
        vscode.ViewColumn.Active,
        {},
      );
    const revived = reviveLog(restored(), saved);
    assert.ok(revived, 'the saved state was refused');
    await until('the revived page to load', () => revived.ready && !revived.state.loading, 20_000);
    assert.equal(revived.state.run, run.id);
    assert.deepEqual(who(revived), runRows);
    revived.panel.dispose();

    const gone = reviveLog(restored(), { restore: { ...saved.restore, run: 'file-000000000000' } });
    assert.ok(gone);
    await until('the page of a gone run to load', () => gone.ready && !gone.state.loading, 20_000);
    assert.equal(gone.state.run, '');
    assert.equal(gone.state.rows.length, 19);
    await assert.doesNotReject(gone.receive({ type: 'filterRun', run: 'file-000000000000' }));
    assert.match(gone.state.error ?? '', /^The ban run is no longer known/);
    gone.panel.dispose();
  });

  test('a run opened while the log is open joins the Run filter, newest first, without a refresh', async () => {
    const panel = await openLog();
    const list = parseBanList('901');
    const planned = await planBans(service.client, {
      kind: 'ban',
      rows: list.rows,
      targets: [{ universeId: U }],
      defaults: { durationSeconds: null, displayReason: 'Later', privateReason: '', excludeAltAccounts: false },
    });
    const file = path.join(service.dir, 'later.plan.json');
    fs.writeFileSync(file, banPlanText({ format: BAN_PLAN_FORMAT, ...planned, problems: [] }));
    const loads = ((await service.emulator.requests({ path: ':listLogs' })) as unknown[]).length;
    const later = await ctx.banRuns.adopt(panel.target.connectionId, file);
    await until('the new run in the panel', () => panel.state.runs.length === 2);
    assert.deepEqual(
      panel.state.runs.map((r) => [r.id, r.label, r.first]),
      [
        [later.id, undefined, undefined],
        [run.id, '=Raid <b>27</b> Nov', panel.state.runs[1].first],
      ],
    );
    assert.equal(((await service.emulator.requests({ path: ':listLogs' })) as unknown[]).length, loads);
    assert.equal(runStretches(panel.state.rows).length, 1, 'a run that wrote nothing groups nothing');
  });

  // Last: the ban review saves a run of the universe, which the tests above would count.
  test('the rows selected open Ban Users from a List… and Unban Everywhere… on exactly their users', async () => {
    const panel = await openLog();
    const patches = (await service.emulator.requests({ method: 'PATCH' })).length;
    const users = (review: ReviewPanel) => [...new Set(review.rows(0, 100).map((r) => r.key))].sort();
    const ui = new ScriptedUi()
      .on('pickMany', /^Ban 2 users: where/, [`universe ${U} (Runs Universe)`])
      .on('pick', /^Reasons and duration/, 'Type the duration and reasons…')
      .on('pick', /^Duration/, '7 days')
      .on('input', /^Display reason/, 'Raiding')
      .on('input', /^Private reason/, 'from the log')
      .on('pick', /^Alt accounts of/, 'Ban only this account');
    ctx.ui = ui;
    // The two rows of user 501 in the run and the one of 701: the page sends each user once, with the rows' count.
    const ban = (await panel.receive({ type: 'banSelected', userIds: ['501', '701'], rows: 3 })) as ReviewPanel;
    assert.ok(ban, `no ban review; prompts ${JSON.stringify(ui.prompts)}`);
    assert.deepEqual(ui.messages('error'), []);
    assert.equal(ban.state.phase, 'plan');
    assert.deepEqual(users(ban), ['501', '701']);
    assert.match(ban.state.direction, /^from the log: 2 users from 3 rows of the restriction log → universe 8282/);
    assert.deepEqual(reviewCounts(ban), { longer: 1, shorter: 1 }, '501: 1 day by the run; 701: permanent');

    ctx.ui = new ScriptedUi();
    const unban = (await panel.receive({ type: 'unbanSelected', userIds: ['702', '801'], rows: 2 })) as ReviewPanel;
    assert.ok(unban, 'no unban review');
    assert.deepEqual(users(unban), ['702', '801']);
    assert.deepEqual(reviewCounts(unban), { lift: 2 });
    assert.match(unban.state.direction, /2 users from 2 rows of the restriction log/);

    // Not ids, or more than 10,000: refused before any command runs.
    const reviews = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).length;
    const tabs = reviews();
    for (const bad of [['abc'], ['501 OR 1'], Array.from({ length: 10_001 }, (_, i) => String(i + 1))])
      assert.equal(await panel.receive({ type: 'banSelected', userIds: bad, rows: bad.length }), undefined);
    assert.equal(reviews(), tabs);
    assert.equal((await service.emulator.requests({ method: 'PATCH' })).length, patches, 'planning writes nothing');
  });
});
