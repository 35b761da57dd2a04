// Ordered data stores in a real VS Code, against an emulator this suite starts: a store added by name is remembered
// and listed by value (highest first, or ascending), within a value range, page by page; Increment, Edit Value, New
// Entry and Delete write through the service and the rows follow; Export writes CSV with formulas kept as text; a
// read-only universe refuses writes before asking anything.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { Connection } from '../../../src/core/connections';
import type { TreeNode } from '../../../src/core/tree/node';
import type { TestContext } from '../../../src/extension';
import type { OrderedEntryNode, OrderedStoreNode } from '../../../src/ordered/tree';
import { parseCsv } from '../../unit/support/csv';
import { SuiteService } from './service';
import { extensionApi, kind, label, ScriptedUi } from './support';

const KEY = 'ordered-tests-key';
const NAME = 'Ordered Tests';
const U = 7301;
const LOCKED = 7302;
const FORMULA = '=SUM(A1)';
const description = (n: TreeNode) => String(n.item().description ?? '');
const tooltip = (n: TreeNode) => String(n.item().tooltip ?? '');
const isEntry = (n: TreeNode): n is OrderedEntryNode => kind(n).startsWith('orderedEntry');
/** p1 … p12: 111, 222, … 1,221, and p12 1,234,567. */
const SEEDED = Array.from({ length: 12 }, (_, i) => ({ id: `p${i + 1}`, value: i === 11 ? 1_234_567 : (i + 1) * 111 }));

/** Also keeps each input box's options by title, so a test can try what the box refuses. */
class RecordingUi extends ScriptedUi {
  readonly inputs = new Map<string, vscode.InputBoxOptions>();

  override async input(options: vscode.InputBoxOptions): Promise<string | undefined> {
    this.inputs.set(options.title ?? '', options);
    return super.input(options);
  }
}

suite('ordered data stores in the editor', () => {
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let service: SuiteService;
  let connection: Connection;

  const address = (universeId = U) => ({ connectionId: connection.id, universeId });
  const storeRef = (store = 'Scores', scope = 'global', universeId = U) => ({ ...address(universeId), store, scope });
  const value = async (id: string, store = 'Scores') =>
    (await service.client.orderedDataStores.getEntry({ universeId: U, datastoreName: store, entryKey: id })).value;
  const writesSent = async () => (await service.emulator.requests()).filter((r) => r.method !== 'GET').length;

  async function child(parent: TreeNode | undefined, name: string): Promise<TreeNode> {
    const children = await ctx.tree.getChildren(parent);
    const node = children.find((n) => label(n) === name);
    assert.ok(node, `no ${name} in ${children.map(label).join(', ')}`);
    return node;
  }
  const group = async (universe = 'Game') =>
    child(await child(await child(undefined, NAME), universe), 'Ordered Data Stores');
  const store = async (name = 'Scores', universe = 'Game') =>
    (await child(await group(universe), name)) as OrderedStoreNode;
  const rows = async (s: TreeNode) => (await ctx.tree.getChildren(s)).filter(isEntry);
  const shown = async (s: TreeNode) => (await rows(s)).map((n) => `${label(n)} ${description(n)}`);
  const entry = async (id: string, s?: TreeNode) => {
    const node = (await rows(s ?? (await store()))).find((n) => label(n) === id);
    assert.ok(node, `no row ${id}`);
    return node;
  };

  /** Add by Name on the group, answering the name and the scope. */
  async function addByName(name: string, scope = 'global', universe = 'Game'): Promise<ScriptedUi> {
    const ui = new ScriptedUi()
      .on('input', /^Add Ordered Data Store by Name/, name)
      .on('input', new RegExp(`^Scope of ${name}`), scope);
    ctx.ui = ui;
    await vscode.commands.executeCommand('universeExplorer.addOrderedStore', await group(universe));
    return ui;
  }

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    service = await SuiteService.start(KEY);
    connection = await service.connect(ctx, NAME, [
      { id: U, name: 'Game' },
      { id: LOCKED, name: 'Locked' },
    ]);
    for (const { id, value: v } of SEEDED)
      await service.client.orderedDataStores.createEntry({
        universeId: U,
        datastoreName: 'Scores',
        entryKey: id,
        value: v,
      });
    await service.client.orderedDataStores.createEntry({
      universeId: LOCKED,
      datastoreName: 'Scores',
      entryKey: 'p1',
      value: 10,
    });
  });

  teardown(async () => {
    ctx.ui = realUi;
    ctx.ordered.setOrder(storeRef(), 'desc');
    ctx.ordered.setRange(storeRef(), undefined);
    ctx.ordered.setRange(storeRef('Exported'), undefined);
    ctx.ordered.setOrder(storeRef('Exported'), 'desc');
    await vscode.workspace
      .getConfiguration('universeExplorer')
      .update('pageSize', undefined, vscode.ConfigurationTarget.Global);
    await ctx.connections.setReadOnly(address(LOCKED), false);
  });

  suiteTeardown(async () => {
    await service.close(ctx);
  });

  test('a store added by name is remembered and listed by value, highest first; an unknown name is kept too', async () => {
    const empty = await ctx.tree.getChildren(await group());
    assert.deepEqual(empty.map(kind), ['message'], 'the empty group offers Add by Name');
    assert.match(tooltip(await group()), /cannot list ordered data stores/);
    const ui = await addByName('Scores');
    assert.deepEqual(ui.messages('info'), [], 'a store with entries needs no word');
    assert.ok(ctx.ordered.isRemembered(storeRef()));
    const scores = await store();
    assert.equal(description(scores), '', 'global is not shown');
    assert.deepEqual((await shown(scores)).slice(0, 3), ['p12 1,234,567', 'p11 1,221', 'p10 1,110']);
    assert.equal((await rows(scores)).length, 12);
    assert.match(tooltip(await entry('p11', scores)), /Rank 2 from the highest value/);

    const unknown = await addByName('NoSuchStore', 'season9');
    assert.match(unknown.messages('info')[0], /NoSuchStore \(scope season9\) has no entries yet/);
    const remembered = await store('NoSuchStore');
    assert.equal(description(remembered), 'season9');
    assert.deepEqual(await rows(remembered), []);

    const writes = await writesSent();
    await vscode.commands.executeCommand('universeExplorer.forgetOrderedStore', remembered);
    assert.deepEqual((await ctx.tree.getChildren(await group())).map(label), ['Scores']);
    assert.equal(await writesSent(), writes, 'Forget asks nothing of the service');
  });

  test('Sort Ascending lists lowest first, Sort Descending back', async () => {
    await vscode.commands.executeCommand('universeExplorer.sortOrderedAscending', await store());
    const s = await store();
    assert.equal(kind(s), 'orderedStore.asc');
    assert.equal(description(s), 'ascending');
    assert.deepEqual((await shown(s)).slice(0, 2), ['p1 111', 'p2 222']);
    assert.match(tooltip(await entry('p2', s)), /Rank 2 from the lowest value/);
    await vscode.commands.executeCommand('universeExplorer.sortOrderedDescending', s);
    assert.deepEqual((await shown(await store())).slice(0, 1), ['p12 1,234,567']);
  });

  test('Filter by Value lists only the range, shown on the store; Clear Filter lists all again', async () => {
    const ui = new RecordingUi()
      .on('input', /^Lowest value of Scores/, '300')
      .on('input', /^Highest value of Scores/, '800');
    ctx.ui = ui;
    await vscode.commands.executeCommand('universeExplorer.filterOrderedStore', await store());
    const s = await store();
    assert.equal(description(s), 'entry >= 300 && entry <= 800');
    assert.deepEqual((await rows(s)).map(label), ['p7', 'p6', 'p5', 'p4', 'p3']);
    const highest = ui.inputs.get('Highest value of Scores (scope global)');
    assert.ok(highest?.validateInput);
    assert.match(String(await highest.validateInput('200')), /at least the lowest, 300/);
    await vscode.commands.executeCommand('universeExplorer.clearOrderedFilter', s);
    assert.equal((await rows(await store())).length, 12);
  });

  test('Load more lists the next page, ranks going on', async () => {
    await vscode.workspace
      .getConfiguration('universeExplorer')
      .update('pageSize', 5, vscode.ConfigurationTarget.Global);
    ctx.tree.refresh(await store());
    const s = await store();
    const first = await ctx.tree.getChildren(s);
    assert.deepEqual(first.map(kind), [...Array(5).fill('orderedEntry'), 'loadMore']);
    await vscode.commands.executeCommand('universeExplorer.loadMore', s);
    const more = await rows(s);
    assert.deepEqual(more.map(label), ['p12', 'p11', 'p10', 'p9', 'p8', 'p7', 'p6', 'p5', 'p4', 'p3']);
    assert.match(tooltip(more[5]), /Rank 6 /);
  });

  test('Increment adds to the value in the service and the row shows what the service answered', async () => {
    const row = await entry('p3');
    const ui = new RecordingUi().on('input', /^Increment p3 by/, '-25');
    ctx.ui = ui;
    const result = await vscode.commands.executeCommand('universeExplorer.incrementOrderedEntry', row);
    assert.equal(result, 308);
    assert.equal(await value('p3'), 308);
    assert.match(ui.messages('info')[0], /"p3" is now 308 \(incremented by -25\)/);
    const listed = (await service.emulator.requests({ method: 'GET' })).length;
    assert.equal(description(await entry('p3')), '308');
    assert.equal((await service.emulator.requests({ method: 'GET' })).length, listed, 'the row is not listed again');
    const box = ui.inputs.get('Increment p3 by');
    assert.ok(box?.validateInput);
    assert.ok(await box.validateInput('0'), '0 is refused');
    assert.ok(await box.validateInput('1.5'), 'a fraction is refused');
  });

  test('Edit Value sets a whole number within what the service keeps exactly', async () => {
    const ui = new RecordingUi().on('input', /^Value of p4/, '-42');
    ctx.ui = ui;
    await vscode.commands.executeCommand('universeExplorer.editOrderedValue', await entry('p4'));
    assert.equal(await value('p4'), -42);
    assert.equal(description(await entry('p4')), '-42');
    const box = ui.inputs.get('Value of p4 in Scores (scope global)');
    assert.ok(box?.validateInput);
    assert.equal(await box.validateInput('9,007,199,254,740,991'), undefined);
    assert.match(String(await box.validateInput('9007199254740992')), /whole number from/);
    assert.match(String(await box.validateInput('12.5')), /whole number from/);
  });

  test('New Entry creates one; an id already there is left unchanged unless Edit Value is chosen', async () => {
    ctx.ui = new ScriptedUi().on('input', /^New entry in Scores/, 'newbie').on('input', /^Value of newbie/, '2500');
    await vscode.commands.executeCommand('universeExplorer.newOrderedEntry', await store());
    assert.equal(await value('newbie'), 2500);
    assert.equal(description(await entry('newbie')), '2,500');

    const ui = new ScriptedUi()
      .on('input', /^New entry in Scores/, 'p5')
      .on('input', /^Value of p5 A/, '1')
      .on('warn', /already exists/, 'Edit Value…')
      .on('input', /^Value of p5 in Scores/, '5000');
    ctx.ui = ui;
    await vscode.commands.executeCommand('universeExplorer.newOrderedEntry', await store());
    assert.match(ui.messages('warn')[0], /"p5" already exists in Scores \(scope global\) with the value 555/);
    assert.equal(await value('p5'), 5000);
  });

  test('Delete asks first: dismissed deletes nothing, confirmed deletes and the row goes', async () => {
    const dismissed = new ScriptedUi();
    ctx.ui = dismissed;
    const writes = await writesSent();
    await vscode.commands.executeCommand('universeExplorer.deleteOrderedEntry', await entry('p6'));
    assert.match(dismissed.messages('warn')[0], /Delete "p6" from Scores \(scope global\)\?/);
    assert.equal(await writesSent(), writes);
    assert.equal(await value('p6'), 666);

    ctx.ui = new ScriptedUi().on('warn', /Delete "p6"/, 'Delete');
    await vscode.commands.executeCommand('universeExplorer.deleteOrderedEntry', await entry('p6'));
    await assert.rejects(value('p6'));
    assert.ok(!(await rows(await store())).some((n) => label(n) === 'p6'));
  });

  test('Export writes CSV in the list order and range, a formula-like id as text', async () => {
    for (const [id, v] of [
      ['low', 5],
      [FORMULA, 900],
      ['mid', 300],
      ['top', 1000],
    ] as const)
      await service.client.orderedDataStores.createEntry({
        universeId: U,
        datastoreName: 'Exported',
        entryKey: id,
        value: v,
      });
    await addByName('Exported');
    ctx.ordered.setRange(storeRef('Exported'), { min: 300 });
    const file = path.join(service.dir, 'exported.csv');
    ctx.ui = new ScriptedUi().on('pick', /^Export Exported/, 'CSV').on('saveDialog', /^Export/, vscode.Uri.file(file));
    await vscode.commands.executeCommand('universeExplorer.exportOrderedStore', await store('Exported'));
    assert.deepEqual(parseCsv(fs.readFileSync(file, 'utf8')), [
      ['rank', 'id', 'value'],
      ['1', 'top', '1000'],
      ['2', `'${FORMULA}`, '900'],
      ['3', 'mid', '300'],
    ]);
  });

  test('Export as NDJSON; a cancelled export writes no file', async () => {
    const file = path.join(service.dir, 'exported.ndjson');
    ctx.ordered.setOrder(storeRef('Exported'), 'asc');
    ctx.ordered.setRange(storeRef('Exported'), { max: 300 });
    ctx.ui = new ScriptedUi()
      .on('pick', /^Export Exported/, 'NDJSON')
      .on('saveDialog', /^Export/, vscode.Uri.file(file));
    await vscode.commands.executeCommand('universeExplorer.exportOrderedStore', await store('Exported'));
    assert.deepEqual(
      fs
        .readFileSync(file, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
      [
        { rank: 1, id: 'low', value: 5 },
        { rank: 2, id: 'mid', value: 300 },
      ],
    );

    const cancelled = path.join(service.dir, 'cancelled.csv');
    const ui = new ScriptedUi()
      .on('pick', /^Export Exported/, 'CSV')
      .on('saveDialog', /^Export/, vscode.Uri.file(cancelled));
    const controller = new AbortController();
    ui.progress = (_title, task) => {
      controller.abort();
      return task(controller.signal, () => undefined);
    };
    ctx.ui = ui;
    await vscode.commands.executeCommand('universeExplorer.exportOrderedStore', await store('Exported'));
    assert.equal(fs.existsSync(cancelled), false);
    assert.deepEqual(ui.messages('error'), [], 'a cancel is silent');
  });

  test('a production universe asks before each write; declined, nothing is written', async () => {
    await ctx.connections.setRole(address(), 'production');
    try {
      const writes = await writesSent();
      const declined = new ScriptedUi()
        .on('input', /^Increment p7 by/, '3')
        .on('input', /^Value of p7 in/, '1')
        .on('input', /^New entry in Scores/, 'asked')
        .on('input', /^Value of asked/, '1');
      ctx.ui = declined;
      for (const command of ['incrementOrderedEntry', 'editOrderedValue', 'deleteOrderedEntry'])
        await vscode.commands.executeCommand(`universeExplorer.${command}`, await entry('p7'));
      await vscode.commands.executeCommand('universeExplorer.newOrderedEntry', await store());
      assert.deepEqual(
        declined.messages('warn').map((m) => m.replace(/ in Scores.*/, '')),
        [
          'Production: Increment "p7"',
          'Production: Set "p7"',
          'Production: Delete "p7" from Scores (scope global)?',
          'Production: Create "asked"',
        ],
      );
      assert.equal(await writesSent(), writes);

      ctx.ui = new ScriptedUi().on('input', /^Increment p7 by/, '3').on('warn', /^Production: Increment/, 'Increment');
      await vscode.commands.executeCommand('universeExplorer.incrementOrderedEntry', await entry('p7'));
      assert.equal(await value('p7'), 780);
    } finally {
      await ctx.connections.setRole(address(), 'development');
    }
  });

  test('a read-only universe refuses writes before asking anything', async () => {
    await addByName('Scores', 'global', 'Locked');
    await ctx.connections.setReadOnly(address(LOCKED), true);
    const s = await store('Scores', 'Locked');
    assert.equal(kind(s), 'orderedStore.readOnly');
    const row = (await rows(s))[0];
    assert.equal(kind(row), 'orderedEntry.readOnly');
    const ui = new ScriptedUi().on('input', /./, '5', false);
    ctx.ui = ui;
    const writes = await writesSent();
    for (const command of ['incrementOrderedEntry', 'editOrderedValue', 'deleteOrderedEntry'])
      await vscode.commands.executeCommand(`universeExplorer.${command}`, row);
    await vscode.commands.executeCommand('universeExplorer.newOrderedEntry', s);
    assert.deepEqual(
      ui.prompts.filter((p) => p.kind !== 'error'),
      [],
    );
    assert.equal(ui.messages('error').length, 4);
    for (const message of ui.messages('error')) assert.match(message, /"Locked" \(universe 7302\).*is read-only/);
    assert.equal(await writesSent(), writes);
  });
});
