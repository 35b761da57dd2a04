// The data-store time machine's commands: Compare with Time… on a store and History of a Field… on an entry, against
// an emulator whose clock starts hours in the past, so a history written over simulated hours ends before this
// machine's "now". Expectations come from the versions written, never from the code under test.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import { exportDataStore, NotFoundError, OpenApiClient, type EntryVersion } from '../../../src/api';
import type { TreeNode } from '../../../src/core/tree/node';
import type { ReviewPanel } from '../../../src/core/review/panel';
import type { OperationReview } from '../../../src/datastores/operations/reviewFlow';
import type { CompareStoresResult } from '../../../src/datastores/commands/compareStores';
import type { CompareWithTimeResult } from '../../../src/datastores/commands/compareWithTime';
import type { FieldHistoryResult } from '../../../src/datastores/commands/fieldHistory';
import { askMoment } from '../../../src/datastores/commands/moment';
import type { EntryAtTimeNode, EntryNode } from '../../../src/datastores/tree';
import { versionTime } from '../../../src/datastores/editor/uris';
import { localTime } from '../../../src/core/time';
import type { TestContext } from '../../../src/extension';
import { TestEmulator } from '../../unit/support/emulator';
import { SuiteService } from './service';
import { extensionApi, label, ScriptedUi, until } from './support';
import { withProgress } from '../../../src/core/progress';

const KEY = 'time-machine-key';
const U = 123456;
const NAME = 'Time Machine Tests';
const STORE = 'Players';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Five minutes into an hour six hours ago: the history's three writes, two hours apart, all end in the past. */
const START = Math.floor(Date.now() / HOUR) * HOUR - 6 * HOUR + 5 * MINUTE;

suite('time machine', () => {
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let service: SuiteService;
  let emulator: TestEmulator;
  let client: OpenApiClient;
  let dir: string;
  /** Every version written to a key, oldest first. */
  const written = new Map<string, EntryVersion[]>();

  const at = (key: string) => ({ universeId: U, datastoreName: STORE, scope: 'global', entryKey: key });
  async function set(key: string, value: unknown): Promise<void> {
    const v = await client.datastores.setEntry({ ...at(key), raw: JSON.stringify(value) });
    written.set(key, [...(written.get(key) ?? []), v]);
  }
  const version = (key: string, n: number) => written.get(key)![n];

  async function child(parent: TreeNode | undefined, name: string): Promise<TreeNode> {
    const children = await ctx.tree.getChildren(parent);
    const node = children.find((n) => label(n) === name);
    assert.ok(node, `no ${name} in ${children.map(label).join(', ')}`);
    return node;
  }

  async function store(): Promise<TreeNode> {
    return child(await child(await child(await child(undefined, NAME), 'TM Universe'), 'Data Stores'), STORE);
  }

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    service = await SuiteService.start(KEY, { clock: new Date(START).toISOString() });
    ({ emulator, client, dir } = service);
    // Hour 0: a, b, c. Hour 2: a's coins change, c is deleted, d is created. Hour 4: a's sword changes.
    await set('a', { coins: 10, inventory: { sword: 1 } });
    await set('b', 'b1');
    await set('c', 'c1');
    await emulator.advanceClock(2 * HOUR);
    await set('a', { coins: 20, inventory: { sword: 1 } });
    await client.datastores.deleteEntry(at('c'));
    await set('d', 'd1');
    await emulator.advanceClock(2 * HOUR);
    await set('a', { coins: 20, inventory: { sword: 2 } });
    await service.connect(ctx, NAME, [{ id: U, name: 'TM Universe' }]);
  });

  teardown(async () => {
    ctx.ui = realUi;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  suiteTeardown(() => service.close(ctx));

  test('Compare with Time: a typed time, then a review panel with counts that add up, rows, the diff of a key and Export', async () => {
    const then = new Date(START + HOUR).toISOString(); // between hour 0 and hour 2
    const file = path.join(dir, 'compare.ndjson');
    const ui = new ScriptedUi()
      .on('pick', /^Compare Players \(scope global\) with a time /, then)
      .on('pick', /^Compare Players with .*: which keys\? /, 'Every Key')
      .on('saveDialog', /^Export the comparison of Players with /, vscode.Uri.file(file));
    ctx.ui = ui;
    const result = (await vscode.commands.executeCommand(
      'universeExplorer.compareWithTime',
      await store(),
    )) as CompareWithTimeResult;
    assert.ok(result, `no result; messages: ${JSON.stringify(ui.prompts)}`);
    assert.ok(ui.prompts[0].text.includes('superseded versions for 30 days'), ui.prompts[0].text);
    assert.ok(!ui.prompts.some((p) => p.kind === 'saveDialog'), 'no file is asked for before the user exports');
    const panel = result.panel;
    await until('the review page to draw its rows', () => panel.painted, 30_000);
    const state = panel.state;
    assert.equal(state.phase, 'compare');
    assert.match(state.direction, /^Players \(scope global\) in TM Universe on .*: as of .* → now$/);
    assert.match(
      state.summary,
      /^4 keys compared in [\d.]+ s: 1 changed, 1 created since, 1 deleted since, 1 unchanged\.$/,
    );
    const rows = panel.rows(0, 100);
    assert.deepEqual(Object.fromEntries(rows.map((r) => [r.key, r.kind])), {
      a: 'changed',
      b: 'unchanged',
      c: 'deleted',
      d: 'created',
    });
    const a = rows.find((r) => r.key === 'a')!;
    assert.equal(a.version, `${version('a', 0).version} → ${version('a', 2).version}`);
    await panel.receive({ type: 'filter', filter: { kinds: ['changed', 'deleted'], search: '' } });
    assert.deepEqual(
      panel
        .rows(0, 100)
        .map((r) => r.key)
        .sort(),
      ['a', 'c'],
    );
    assert.equal(panel.state.total, 2);
    await panel.receive({ type: 'filter', filter: { kinds: [], search: 'D' } });
    assert.deepEqual(
      panel.rows(0, 100).map((r) => r.key),
      ['d'],
    );
    await panel.receive({ type: 'filter', filter: { kinds: [], search: '' } });

    await panel.receive({ type: 'button', id: 'export' });
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { key: string; status: string });
    assert.deepEqual(Object.fromEntries(lines.map((l) => [l.key, l.status])), {
      a: 'changed',
      b: 'unchanged',
      c: 'deleted',
      d: 'created',
    });

    await panel.receive({ type: 'open', i: a.i, generation: panel.state.generation });
    const title = `a.json (version of ${versionTime(version('a', 0).createdTime)}) ↔ a.json (current, ${versionTime(version('a', 2).createdTime)})`;
    const tab = await until('the diff of a', () => {
      const active = vscode.window.tabGroups.activeTabGroup.activeTab;
      return active?.input instanceof vscode.TabInputTextDiff && active;
    });
    assert.equal(tab.label, title);
    assert.ok(!tab.label.includes(version('a', 0).version), tab.label);
    const original = await vscode.workspace.openTextDocument((tab.input as vscode.TabInputTextDiff).original);
    assert.match(original.getText(), /"coins": 10/);
  });

  test('History of a Field: the versions where inventory.sword changed, and the diff of one against the one before', async () => {
    const entry = await child(await store(), 'a');
    const newest = versionTime(version('a', 2).createdTime);
    const ui = new ScriptedUi()
      .on('input', /^History of a field of "a"/, 'inventory.sword')
      .on('pick', /^inventory\.sword in "a": 2 changes found/, newest);
    ctx.ui = ui;
    const result = (await vscode.commands.executeCommand('universeExplorer.fieldHistory', entry)) as FieldHistoryResult;
    assert.ok(result, `no result; messages: ${JSON.stringify(ui.prompts)}`);
    assert.deepEqual(
      result.changes.map((c) => [c.version, c.before, c.after]),
      [
        [version('a', 0).version, undefined, 1],
        [version('a', 2).version, 1, 2],
      ],
    );
    const tab = await until('the diff of the sword change', () => {
      const active = vscode.window.tabGroups.activeTabGroup.activeTab;
      return active?.input instanceof vscode.TabInputTextDiff && active;
    });
    assert.equal(
      tab.label,
      `a.json (version of ${versionTime(version('a', 1).createdTime)}) ↔ a.json (version of ${newest})`,
    );

    const coins = new ScriptedUi().on('input', /^History of a field of "a"/, 'coins');
    ctx.ui = coins;
    const history = (await vscode.commands.executeCommand(
      'universeExplorer.fieldHistory',
      entry as EntryNode,
    )) as FieldHistoryResult;
    assert.deepEqual(
      history.changes.map((c) => [c.before, c.after]),
      [
        [undefined, 10],
        [10, 20],
      ],
    );
  });

  test('a time older than 30 days is refused with the reason, and the prompt asks again', async () => {
    const ui = new ScriptedUi().on('pick', /^Compare Players \(scope global\) with a time /, '31d');
    ctx.ui = ui;
    const result = await vscode.commands.executeCommand('universeExplorer.compareWithTime', await store());
    assert.equal(result, undefined); // the second prompt is dismissed: a cancel
    assert.equal(ui.prompts.length, 2, JSON.stringify(ui.prompts));
    assert.match(
      ui.prompts[1].text,
      /^Compare Players \(scope global\) with a time: .* is more than 30 days ago: the service keeps superseded versions for 30 days, so the oldest time it can show is .*\. Choose another time /,
    );
    assert.deepEqual(ui.messages('error'), []);
  });

  test('for an entry, the moment prompt offers "just before" each recent version', async () => {
    const entry = (await child(await store(), 'a')) as EntryNode;
    const middle = version('a', 1);
    const ui = new ScriptedUi().on(
      'pick',
      /^Restore a to /,
      `Just before version of ${versionTime(middle.createdTime)}`,
    );
    const time = await askMoment(ui, {
      title: 'Restore a to',
      entry: { timeMachine: ctx.timeMachine, address: entry.address, signal: new AbortController().signal },
    });
    assert.equal(time.toISOString(), new Date(Date.parse(middle.createdTime) - 1).toISOString());
  });

  test('Open at Time: the keys as they were under the store, each read-only with its time; Compare and Restore from there; Close', async () => {
    const then = new Date(START + HOUR); // a, b and c held their first values; d did not exist yet
    const ui = new ScriptedUi().on('pick', /^Open Players \(scope global\) at a time /, then.toISOString());
    ctx.ui = ui;
    await vscode.commands.executeCommand('universeExplorer.openAtTime', await store());
    assert.deepEqual(
      ui.prompts.map((p) => p.kind),
      ['pick'],
    );
    const view = await child(await store(), `As of ${localTime(then.getTime())}`);
    const rows = (await ctx.tree.getChildren(view)) as EntryAtTimeNode[];
    assert.deepEqual(
      rows.map((r) => [label(r), r.item().description, r.version.version]),
      [
        ['a', 'changed since', version('a', 0).version],
        ['b', 'unchanged', version('b', 0).version],
        ['c', 'deleted since', version('c', 0).version],
      ],
    );
    assert.equal(vscode.workspace.fs.isWritableFileSystem(rows[0].uri.scheme), false);

    // A row opens the value it held then, the version's time and the moment in the tab's title.
    const open = rows[0].item().command!;
    await vscode.commands.executeCommand(open.command, ...(open.arguments ?? []));
    const tab = await until('the tab of a as it was', () => vscode.window.tabGroups.activeTabGroup.activeTab);
    assert.equal(
      tab.label,
      `a.json (version of ${versionTime(version('a', 0).createdTime)}, as of ${localTime(then.getTime())})`,
    );
    const text = vscode.window.activeTextEditor?.document.getText() ?? '';
    assert.deepEqual(JSON.parse(text), { coins: 10, inventory: { sword: 1 } });

    // Compare with Time on the view asks no time: it compares some keys with the view's moment.
    const compare = new ScriptedUi()
      .on('pick', /^Compare Players with .*: which keys\? /, 'Only Some Keys…')
      .on('pickMany', /^Compare Players with .*: the keys /, ['a', 'c']);
    ctx.ui = compare;
    const result = (await vscode.commands.executeCommand(
      'universeExplorer.compareWithTime',
      view,
    )) as CompareWithTimeResult;
    assert.deepEqual([result.changed, result.created, result.deleted, result.unchanged], [1, 0, 1, 0]);
    assert.deepEqual(
      compare.prompts.map((p) => p.kind),
      ['pick', 'pickMany'],
    );
    assert.match(result.panel.state.direction, /^Players \(scope global, chosen keys\) in TM Universe on .*: as of /);

    // Restore on a row re-creates c with its value then; the row now says it changed since.
    const restore = new ScriptedUi().on('warn', /^Restore "c" to the version of /, 'Restore');
    ctx.ui = restore;
    await vscode.commands.executeCommand('universeExplorer.restoreVersion', rows[2]);
    assert.equal((await client.datastores.getEntry(at('c'))).value, 'c1');
    assert.equal(rows[2].item().description, 'changed since');

    await vscode.commands.executeCommand('universeExplorer.closeAtTime', view);
    const labels = (await ctx.tree.getChildren(await store())).map(label);
    assert.ok(!labels.some((l) => l.startsWith('As of')), labels.join(', '));
  });
});

// Restore to Time… and Undo a Restore…, one store per test, each with a history written in suiteSetup: hour 0, then
// changes at hour 2; every restore goes back to hour 1.
suite('time machine: restore', () => {
  const RNAME = 'Restore Tests';
  const RKEY = 'restore-key';
  const KEYS = 60;
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let service: SuiteService;
  let emulator: TestEmulator;
  let client: OpenApiClient;
  const then = new Date(START + HOUR).toISOString();

  const at = (store: string, key: string) => ({ universeId: U, datastoreName: store, scope: 'global', entryKey: key });
  const set = (store: string, key: string, value: unknown, userIds?: number[]) =>
    client.datastores.setEntry({ ...at(store, key), raw: JSON.stringify(value), userIds });
  async function value(store: string, key: string): Promise<unknown> {
    try {
      return (await client.datastores.getEntry(at(store, key))).value;
    } catch (error) {
      if (error instanceof NotFoundError) return 'deleted';
      throw error;
    }
  }
  const values = async (store: string, keys: string[]) =>
    Object.fromEntries(await Promise.all(keys.map(async (k) => [k, await value(store, k)])));

  async function child(parent: TreeNode | undefined, name: string): Promise<TreeNode> {
    const children = await ctx.tree.getChildren(parent);
    const node = children.find((n) => label(n) === name);
    assert.ok(node, `no ${name} in ${children.map(label).join(', ')}`);
    return node;
  }
  const store = async (name: string) =>
    child(await child(await child(await child(undefined, RNAME), 'RT Universe'), 'Data Stores'), name);

  /** The prompts of a restore of `name` to hour 1, up to its review. */
  const restoreUi = (name: string, keys = 'Every Key') =>
    new ScriptedUi()
      .on('pick', new RegExp(`^Restore ${name} \\(scope global\\) to a time `), then)
      .on('pick', new RegExp(`^Restore ${name} to .*: which keys\\?`), keys);
  const restore = async (name: string) =>
    (await vscode.commands.executeCommand('universeExplorer.restoreToTime', await store(name))) as
      OperationReview | undefined;
  /** Presses a button of a review and waits for what it does. */
  const press = (review: OperationReview, id: string) => review.panel.receive({ type: 'button', id });
  /** The counts a review shows, by kind. */
  const counts = (review: OperationReview) =>
    Object.fromEntries(review.panel.state.kinds.filter((k) => k.count).map((k) => [k.id, k.count]));
  const rows = (review: OperationReview) =>
    review.panel.rows(0, 1000).map((r) => `${r.key} ${r.kind}${r.note ? `: ${r.note}` : ''}`);
  /** Every file under the test workspace folder. */
  const workspaceFiles = () =>
    fs.readdirSync(vscode.workspace.workspaceFolders![0].uri.fsPath, { recursive: true }).map(String).sort();

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    service = await SuiteService.start(RKEY, { clock: new Date(START).toISOString() });
    ({ emulator, client } = service);
    for (const k of ['a', 'b', 'c']) await set('R1', k, 1);
    for (const k of ['a', 'b']) await set('R2', k, 1);
    await set('R3', 'p1', { coins: 1 }, [1234]);
    await set('R3', 'p2', { coins: 1 }, [5678]);
    await set('R4', 'a', 1);
    for (const k of ['x', 'y', 'z']) await set('R6', k, 1);
    await Promise.all(Array.from({ length: KEYS }, (_, i) => set('R5', `k${String(i).padStart(2, '0')}`, 0)));
    await emulator.advanceClock(2 * HOUR);
    await set('R1', 'a', 2);
    await client.datastores.deleteEntry(at('R1', 'c'));
    await set('R1', 'd', 1);
    for (const k of ['a', 'b']) await set('R2', k, 2);
    await set('R3', 'p1', { coins: 99 }, [1234]);
    await set('R3', 'p2', { coins: 99 }, [5678]);
    await set('R4', 'a', 2);
    await set('R4', 'd', 1);
    for (const k of ['x', 'y', 'z']) await set('R6', k, 2);
    await set('R7', 'c', 'created since');
    await Promise.all(Array.from({ length: KEYS }, (_, i) => set('R5', `k${String(i).padStart(2, '0')}`, 1)));
    await service.connect(ctx, RNAME, [{ id: U, name: 'RT Universe' }]);
  });

  teardown(async () => {
    ctx.ui = realUi;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  suiteTeardown(() => service.close(ctx));

  test('Restore to Time: the plan in a review (direction, counts, rows), Apply, then every value back and the result', async () => {
    const before = workspaceFiles();
    const ui = restoreUi('R1');
    ctx.ui = ui;
    const review = await restore('R1');
    assert.ok(review, `no review; prompts: ${JSON.stringify(ui.prompts)}`);
    assert.ok(!ui.prompts.some((p) => p.kind === 'saveDialog'), 'no save dialog');
    await until('the review page to draw its rows', () => review.panel.painted, 30_000);
    const plan = review.panel.state;
    assert.equal(plan.phase, 'plan');
    assert.match(plan.direction, /^R1 \(scope global\) in RT Universe on .* → as of .+$/);
    assert.match(
      plan.summary,
      /^1 to write, 1 to re-create, 1 to delete, 1 unchanged \(4 keys\); \d+ B, about \d+ s at the current rate limit\.$/,
    );
    assert.deepEqual(counts(review), { write: 1, recreate: 1, delete: 1, unchanged: 1 });
    assert.deepEqual(
      plan.buttons.map((b) => b.label),
      ['Restore', 'Export Plan…', 'Cancel'],
    );
    const planned = rows(review).sort();
    assert.equal(planned.length, 3, planned.join('\n'));
    assert.match(planned[0], /^a write: puts back \S+$/);
    assert.match(planned[1], /^c recreate: puts back \S+$/);
    assert.equal(planned[2], 'd delete');
    assert.equal(await value('R1', 'a'), 2, 'nothing is written before Apply');

    // A second Apply while the result is being read (the run is done, the panel not yet the result) runs nothing.
    const runs: string[] = [];
    ui.progress = async (title, task, options) => {
      if (title.startsWith('Restoring R1')) runs.push(title);
      if (title.startsWith('Reading the operation')) await press(review, 'apply');
      return withProgress(title, task, options);
    };
    await press(review, 'apply');
    assert.equal(runs.length, 1, 'Apply ran once');
    assert.deepEqual(ui.messages('error'), []);
    const result = review.panel.state;
    assert.equal(result.phase, 'result');
    assert.match(
      result.summary,
      /^Restored R1 \(scope global\) to .*: 1 written, 1 re-created, 1 deleted, 0 skipped, 0 failed \(3 keys\)\.$/,
    );
    assert.deepEqual(
      result.buttons.map((b) => b.label),
      ['Undo…', 'Export Files…', 'Close'],
    );
    assert.deepEqual(await values('R1', ['a', 'b', 'c', 'd']), { a: 1, b: 1, c: 1, d: 'deleted' });
    const op = ctx.operations.get(review.op.id)!;
    assert.equal(op.state, 'applied');
    assert.ok(fs.existsSync(`${ctx.operations.planFile(op)}.audit.ndjson`), 'the audit is kept with the operation');
    assert.deepEqual(workspaceFiles(), before, 'nothing was written to the workspace');
  });

  test('Cancel in a review, or closing its tab, writes nothing and leaves nothing behind', async () => {
    ctx.ui = restoreUi('R6');
    const review = await restore('R6');
    assert.ok(review);
    const folder = ctx.operations.folder(review.op);
    assert.ok(fs.existsSync(folder));
    await press(review, 'cancel');
    assert.ok(review.panel.isDisposed, 'the panel closed');
    assert.ok(!fs.existsSync(folder), 'the plan is gone');
    assert.equal(ctx.operations.get(review.op.id), undefined);
    assert.deepEqual(await values('R6', ['x', 'y', 'z']), { x: 2, y: 2, z: 2 });

    // Closing the review's tab is a cancel too.
    ctx.ui = restoreUi('R6');
    const closed = await restore('R6');
    assert.ok(closed);
    closed.panel.panel.dispose();
    assert.ok(!fs.existsSync(ctx.operations.folder(closed.op)), 'the plan of a closed review is gone');
  });

  test('a key changed between the plan and the run is skipped and listed, never overwritten', async () => {
    ctx.ui = restoreUi('R2');
    const review = await restore('R2');
    assert.ok(review);
    assert.deepEqual(counts(review), { write: 2 });
    await set('R2', 'b', 3); // someone else writes while the user reads the plan
    await press(review, 'apply');
    assert.deepEqual(counts(review), { written: 1, skipped: 1 });
    const [b] = rows(review).filter((r) => r.startsWith('b '));
    assert.match(b, /^b skipped: changed since the plan, never overwritten; now \S+$/);
    assert.match(review.panel.state.notes.join(' '), /Skipped keys were changed by someone else since the plan/);
    assert.deepEqual(await values('R2', ['a', 'b']), { a: 1, b: 3 });
  });

  test('only one player: the entries whose user ids include the user id typed, the others left alone', async () => {
    const ui = restoreUi('R3', 'Only One Player…').on('input', /^Restore R3 to .*: one player/, '1234');
    ctx.ui = ui;
    const review = await restore('R3');
    assert.ok(review, `no review; prompts: ${JSON.stringify(ui.prompts)}`);
    assert.match(review.panel.state.direction, /^R3 \(scope global, user 1234\) in /);
    assert.deepEqual(counts(review), { write: 1 });
    await press(review, 'apply');
    assert.deepEqual(await values('R3', ['p1', 'p2']), { p1: { coins: 1 }, p2: { coins: 99 } });
    assert.deepEqual((await client.datastores.getEntry(at('R3', 'p1'))).userIds, [1234]);
  });

  test('only some keys: the keys picked from the list, the others left alone', async () => {
    const ui = restoreUi('R6', 'Only Some Keys…').on('pickMany', /^Restore R6 to .*: the keys /, ['x', 'z']);
    ctx.ui = ui;
    const review = await restore('R6');
    assert.ok(review, `no review; prompts: ${JSON.stringify(ui.prompts)}`);
    assert.match(review.panel.state.direction, /^R6 \(scope global, chosen keys\) in /);
    assert.deepEqual(counts(review), { write: 2 });
    await press(review, 'apply');
    assert.deepEqual(await values('R6', ['x', 'y', 'z']), { x: 1, y: 2, z: 1 });
  });

  test('Undo… in the result opens its own review; Apply puts the values back; it is listed under Recent Operations', async () => {
    ctx.ui = restoreUi('R4');
    const review = await restore('R4');
    assert.ok(review);
    await press(review, 'apply');
    assert.deepEqual(await values('R4', ['a', 'd']), { a: 1, d: 'deleted' });
    const undo = (await press(review, 'undo')) as OperationReview;
    assert.ok(undo, 'the undo opened a review');
    assert.match(undo.panel.state.direction, /^R4 \(scope global\) in RT Universe on .* → as before the restore$/);
    assert.deepEqual(counts(undo), { write: 1, recreate: 1 });
    await press(undo, 'apply');
    assert.match(
      undo.panel.state.summary,
      /^Undid the restore of R4 \(scope global\): 1 written, 1 re-created, 0 deleted, 0 skipped, 0 failed \(2 keys\)\.$/,
    );
    assert.deepEqual(await values('R4', ['a', 'd']), { a: 2, d: 1 });

    const group = await child(await child(await child(undefined, RNAME), 'RT Universe'), 'Recent Operations');
    const listed = (await ctx.tree.getChildren(group)).map(label);
    assert.ok(
      listed.some((l) => /^Undo of the restore of R4 \(scope global\)$/.test(l)),
      listed.join('\n'),
    );
    assert.ok(
      listed.some((l) => /^Restore of R4 \(scope global\) to /.test(l)),
      listed.join('\n'),
    );
    // The restore undone offers no Undo again.
    assert.equal(ctx.operations.get(review.op.id)?.undoneBy, undo.op.id);
    const restored = (await ctx.tree.getChildren(group)).find((n) => /^Restore of R4 /.test(label(n)))!;
    assert.equal(restored.item().contextValue, 'operation');
    assert.match(String(restored.item().description), / · undone$/);
  });

  test('a delete that raced another writer is named in the result and the log, and Put Back… re-creates their value', async () => {
    const ui = restoreUi('R7');
    // The delete is held 1 s after its version check; another writer writes the key once that check is seen.
    const checks = async () => (await emulator.requests({ method: 'GET', path: '/versions' })).length;
    let theirs: Promise<unknown> | undefined;
    ctx.ui = ui;
    const review = await restore('R7');
    assert.ok(review, `no review; prompts: ${JSON.stringify(ui.prompts)}`);
    assert.deepEqual(counts(review), { delete: 1 });
    const planned = await checks();
    ui.progress = (title, task, options) => {
      if (title.startsWith('Restoring R7'))
        theirs = until('the version check of the delete', async () => (await checks()) > planned).then(() =>
          set('R7', 'c', 'theirs', [77]),
        );
      return withProgress(title, task, options);
    };
    await emulator.fault({ method: 'DELETE', path: '/datastore/entries/entry', delayMs: 1000, times: 1 });
    await press(review, 'apply');
    await theirs;
    assert.deepEqual(counts(review), { raced: 1 });
    const [raced] = review.panel.rows(0, 10);
    assert.match(raced.note ?? '', /^removed .+, written by another writer after the version check$/);
    assert.match(
      review.panel.state.notes.join(' '),
      /1 key met another writer between the version check and the delete/,
    );
    assert.deepEqual(
      review.panel.state.buttons.map((b) => b.label),
      ['Undo…', 'Put Back…', 'Export Files…', 'Close'],
      'Put Back offered at once',
    );
    const putBack = (await press(review, 'putBack')) as OperationReview;
    assert.ok(putBack);
    assert.deepEqual(counts(putBack), { recreate: 1 });
    await press(putBack, 'apply');
    assert.match(
      putBack.panel.state.summary,
      /^Put back what another writer wrote to R7 \(scope global\): 0 written, 1 re-created, /,
    );
    const entry = await client.datastores.getEntry(at('R7', 'c'));
    assert.deepEqual([entry.value, entry.userIds], ['theirs', [77]]);
  });

  test('a cancel of the progress shows what was done, and Continue in the same review finishes it', async () => {
    const keys = Array.from({ length: KEYS }, (_, i) => `k${String(i).padStart(2, '0')}`);
    const reports: string[] = [];
    const ui = restoreUi('R5');
    ctx.ui = ui;
    const review = await restore('R5');
    assert.ok(review);
    ui.progress = (title, task) => {
      const controller = new AbortController();
      return task(controller.signal, (message) => {
        reports.push(`${title}: ${message}`);
        if (title.startsWith('Restoring')) controller.abort(); // the Cancel button, at the first report
      });
    };
    // Writes held 50 ms each, so the cancel at the first report lands while most of them are still to come.
    await emulator.fault({ method: 'POST', path: '/datastore/entries/entry', delayMs: 50, times: KEYS });
    await press(review, 'apply');
    assert.deepEqual(ui.messages('error'), [], 'a cancel is no error');
    assert.match(reports[0], new RegExp(`^Restoring R5 \\(scope global\\) to .*: \\d+ of ${KEYS} · [\\d,]+/s`));
    assert.match(
      ui.messages('info').join('\n'),
      /The restore of R5 \(scope global\) to .* stopped after \d+ of 60 keys \(.*\)\. Continue in its review \(Recent Operations\) finishes it/,
    );
    const stopped = counts(review);
    assert.ok(stopped.notRun > 0 && stopped.notRun < KEYS, JSON.stringify(stopped));
    assert.equal(ctx.operations.get(review.op.id)?.state, 'stopped');
    assert.equal(review.panel.state.buttons[0].label, 'Continue');

    ui.progress = (title, task, options) => withProgress(title, task, options);
    await press(review, 'continue');
    const done = counts(review);
    assert.equal(done.notRun, undefined);
    assert.equal((done.written ?? 0) + (done.earlier ?? 0), KEYS, JSON.stringify(done));
    assert.equal(ctx.operations.get(review.op.id)?.state, 'applied');
    assert.deepEqual(new Set(Object.values(await values('R5', keys))), new Set([0]));
  });
});

// Compare with Another Store… and Copy Differences…: two emulators as two connections, "Staging" and "Production",
// each with a universe holding a store of the same name.
suite('time machine: compare stores', () => {
  const SKEY = 'staging-key';
  const PKEY = 'production-key';
  const SU = 1111;
  const PU = 2222;
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let staging: SuiteService;
  let production: SuiteService;
  let sclient: OpenApiClient;
  let pclient: OpenApiClient;
  let dir: string;

  const at = (u: number, store: string, key: string) => ({
    universeId: u,
    datastoreName: store,
    scope: 'global',
    entryKey: key,
  });
  const set = (c: OpenApiClient, u: number, store: string, key: string, value: unknown) =>
    c.datastores.setEntry({ ...at(u, store, key), raw: JSON.stringify(value) });
  async function values(c: OpenApiClient, u: number, store: string, keys: string[]): Promise<Record<string, unknown>> {
    const read = async (k: string) => {
      try {
        return (await c.datastores.getEntry(at(u, store, k))).value;
      } catch (error) {
        if (error instanceof NotFoundError) return 'deleted';
        throw error;
      }
    };
    return Object.fromEntries(await Promise.all(keys.map(async (k) => [k, await read(k)])));
  }

  async function child(parent: TreeNode | undefined, name: string): Promise<TreeNode> {
    const children = await ctx.tree.getChildren(parent);
    const node = children.find((n) => label(n) === name);
    assert.ok(node, `no ${name} in ${children.map(label).join(', ')}`);
    return node;
  }
  const store = async (connection: string, universe: string, name: string) =>
    child(await child(await child(await child(undefined, connection), universe), 'Data Stores'), name);
  const lines = (file: string) =>
    fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { key: string; status: string; differs?: string[] });

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    [staging, production] = [await SuiteService.start(SKEY), await SuiteService.start(PKEY)];
    [sclient, pclient, dir] = [staging.client, production.client, staging.dir];
    // Players: a differs, b is the same, c only on staging, d only on production.
    await set(sclient, SU, 'Players', 'a', { coins: 1 });
    await set(sclient, SU, 'Players', 'b', { coins: 2 });
    await set(sclient, SU, 'Players', 'c', { coins: 3 });
    await set(pclient, PU, 'Players', 'a', { coins: 100 });
    await set(pclient, PU, 'Players', 'b', { coins: 2 });
    await set(pclient, PU, 'Players', 'd', { coins: 4 });
    await set(sclient, SU, 'Inventory', 'x', 1);
    await set(sclient, SU, 'Inventory', 'y', 2);
    await set(sclient, SU, 'S1', 'k', 1);
    await set(sclient, SU, 'S2', 'k', 2);
    await set(sclient, SU, 'S2', 'm', 1);
    await staging.connect(ctx, 'Staging', [{ id: SU, name: 'Game' }]);
    await production.connect(ctx, 'Production', [{ id: PU, name: 'Game' }]);
  });

  teardown(async () => {
    ctx.ui = realUi;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  suiteTeardown(async () => {
    await staging.close(ctx);
    await production.close(ctx);
  });

  const press = (panel: ReviewPanel, id: string) => panel.receive({ type: 'button', id });
  const kindsOf = (panel: ReviewPanel) =>
    Object.fromEntries(panel.state.kinds.filter((k) => k.count).map((k) => [k.id, k.count]));
  const differing = (panel: ReviewPanel) =>
    panel
      .rows(0, 1000)
      .filter((r) => r.kind !== 'same')
      .map((r) => [r.key, r.kind, r.note]);

  test("staging against production: a review with the direction, then Copy Differences… makes production hold staging's values", async () => {
    const file = path.join(dir, 'players.ndjson');
    const ui = new ScriptedUi()
      .on('pick', /^Compare Players \(scope global\) with… /, 'The same store in another universe')
      .on('pick', /^Connection /, 'Production')
      .on(
        'pick',
        /^Copy Players \(scope global\) → Players of Production, Game \(scope global\): also delete the keys only in the target\? /,
        'No',
      )
      .on('saveDialog', /^Export the differences$/, vscode.Uri.file(file));
    ctx.ui = ui;
    const result = (await vscode.commands.executeCommand(
      'universeExplorer.compareStores',
      await store('Staging', 'Game', 'Players'),
    )) as CompareStoresResult;
    assert.ok(result, `no result; prompts: ${JSON.stringify(ui.prompts)}`);
    assert.deepEqual([result.different, result.onlySource, result.onlyTarget, result.same], [1, 1, 1, 1]);
    const panel = result.panel;
    assert.equal(
      panel.state.direction,
      'Players (scope global) (source) → Players of Production, Game (scope global) (target, in Game on Production)',
    );
    assert.match(
      panel.state.summary,
      /^4 keys compared in [\d.]+ s: 1 different, 1 only in the source, 1 only in the target, 1 the same\.$/,
    );
    assert.deepEqual(differing(panel), [
      ['a', 'different', 'differs in value'],
      ['c', 'onlySource', undefined],
      ['d', 'onlyTarget', undefined],
    ]);
    await press(panel, 'export');
    assert.deepEqual(
      lines(file).map((l) => [l.key, l.status, l.differs]),
      [
        ['a', 'different', ['value']],
        ['c', 'onlySource', undefined],
        ['d', 'onlyTarget', undefined],
      ],
    );
    assert.equal(
      panel.state.buttons.find((b) => b.id === 'copy')?.title,
      'Copy Players (scope global) → Players of Production, Game (scope global)',
    );
    const copy = (await press(panel, 'copy')) as OperationReview;
    assert.ok(copy, `no copy review; prompts: ${JSON.stringify(ui.prompts)}`);
    assert.equal(
      copy.panel.state.direction,
      'Players (scope global) → Players of Production, Game (scope global) in Game on Production',
    );
    assert.deepEqual(kindsOf(copy.panel), { write: 1, recreate: 1, unchanged: 1 });
    await press(copy.panel, 'apply');
    assert.deepEqual(ui.messages('error'), []);
    assert.match(
      copy.panel.state.summary,
      /^Copied the differences of Players \(scope global\) to Players of Production, Game \(scope global\): 1 written, 1 created, 0 deleted, 0 skipped, 0 failed \(2 keys\)\.$/,
    );
    assert.deepEqual(await values(pclient, PU, 'Players', ['a', 'b', 'c', 'd']), {
      a: { coins: 1 },
      b: { coins: 2 },
      c: { coins: 3 },
      d: { coins: 4 },
    });
  });

  test('another store in this universe: the store picked from the list, and the counts', async () => {
    const ui = new ScriptedUi()
      .on('pick', /^Compare S1 \(scope global\) with… /, 'Another store in this universe')
      .on('pick', /^Compare S1 \(scope global\) with which store\? /, 'S2');
    ctx.ui = ui;
    const result = (await vscode.commands.executeCommand(
      'universeExplorer.compareStores',
      await store('Staging', 'Game', 'S1'),
    )) as CompareStoresResult;
    assert.ok(result, `no result; prompts: ${JSON.stringify(ui.prompts)}`);
    assert.match(
      result.panel.state.summary,
      /: 1 different, 0 only in the source, 1 only in the target, 0 the same\.$/,
    );
    assert.deepEqual(
      differing(result.panel).map(([k, s]) => [k, s]),
      [
        ['k', 'different'],
        ['m', 'onlyTarget'],
      ],
    );
  });

  test('an export file against a store: the file is the source, and Copy Differences… with deletes puts it back', async () => {
    const exported = path.join(dir, 'inventory-export.ndjson');
    await exportDataStore(sclient, { universeId: SU, datastoreName: 'Inventory', file: exported, resume: false });
    await set(sclient, SU, 'Inventory', 'x', 5);
    await set(sclient, SU, 'Inventory', 'z', 9);
    const ui = new ScriptedUi()
      .on('pick', /^Compare Inventory \(scope global\) with… /, 'An export file…')
      .on('openDialog', /^Compare an export file \(the source\) with Inventory \(scope global\) \(the target\)$/, [
        vscode.Uri.file(exported),
      ])
      .on('pick', /^Copy inventory-export\.ndjson → Inventory \(scope global\): also delete /, 'Yes');
    ctx.ui = ui;
    const result = (await vscode.commands.executeCommand(
      'universeExplorer.compareStores',
      await store('Staging', 'Game', 'Inventory'),
    )) as CompareStoresResult;
    assert.ok(result, `no result; prompts: ${JSON.stringify(ui.prompts)}`);
    assert.deepEqual([result.different, result.onlySource, result.onlyTarget, result.same], [1, 0, 1, 1]);
    assert.match(
      result.panel.state.direction,
      /^inventory-export\.ndjson \(source\) → Inventory \(scope global\) \(target, /,
    );
    const copy = (await press(result.panel, 'copy')) as OperationReview;
    assert.ok(copy);
    assert.deepEqual(kindsOf(copy.panel), { write: 1, delete: 1, unchanged: 1 });
    await press(copy.panel, 'apply');
    assert.deepEqual(ui.messages('error'), []);
    assert.deepEqual(await values(sclient, SU, 'Inventory', ['x', 'y', 'z']), { x: 1, y: 2, z: 'deleted' });
  });
});
