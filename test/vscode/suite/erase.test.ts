// Erase Player Data… in a real VS Code, against an emulator this suite starts, with a real query index: the entries
// the index ties to the user, planned per store into one review (deletes, the id taken out of shared entries, what is
// not searched), Apply after the user id is typed, a key changed meanwhile skipped, the receipt where the user says
// (keys and versions, never a value), and the operation under Recent Operations.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import { NotFoundError, type OpenApiClient } from '../../../src/api';
import type { TreeNode } from '../../../src/core/tree/node';
import type { ErasePlayerReceipt } from '../../../src/datastores/operations/eraseReview';
import type { OperationReview } from '../../../src/datastores/operations/reviewFlow';
import type { TestContext } from '../../../src/extension';
import { SuiteService } from './service';
import { extensionApi, label, ScriptedUi, treeChild, until } from './support';

const U = 8282;
const BARE = 8283;
const KEY = 'erase-tests-key';
const NAME = 'Erase Tests';
/** In every value erased, so the receipt can be searched for any value. */
const SECRET = 'secret-address-2001';

suite('erase: Erase Player Data…, reviewed, applied, with its receipt', function () {
  this.timeout(120_000);
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let service: SuiteService;
  let client: OpenApiClient;
  let connectionId: string;

  const at = (store: string, key: string) => ({ universeId: U, datastoreName: store, scope: 'global', entryKey: key });
  const set = (store: string, key: string, value: unknown, userIds?: number[]) =>
    client.datastores.setEntry({ ...at(store, key), value, userIds });
  async function read(store: string, key: string) {
    try {
      return await client.datastores.getEntry(at(store, key));
    } catch (error) {
      if (error instanceof NotFoundError) return 'deleted';
      throw error;
    }
  }
  const child = (parent: TreeNode | undefined, name: string) => treeChild(ctx.tree, parent, name);
  const universe = async (name: string) => child(await child(undefined, NAME), name);
  const press = (review: OperationReview, id: string) => review.panel.receive({ type: 'button', id });
  const counts = (review: OperationReview) =>
    Object.fromEntries(review.panel.state.kinds.filter((k) => k.count).map((k) => [k.id, k.count]));
  const rows = (review: OperationReview) =>
    review.panel
      .rows(0, 1000)
      .map((r) => `${r.store}/${r.key} ${r.kind}`)
      .sort();
  const erase = (userId: number, universeId = U) =>
    vscode.commands.executeCommand('universeExplorer.erasePlayerData', { connectionId, universeId, userId }) as Promise<
      OperationReview | undefined
    >;

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    service = await SuiteService.start(KEY);
    client = service.client;
    await set('PlayerData', 'Player_2001', { coins: 10, address: SECRET });
    await set('PlayerData', 'Player_12001', { coins: 1 });
    await set('PlayerData', 'Save_a', { slot: 1, address: SECRET }, [2001]);
    await set('PlayerData', 'Team_red', { members: 2, address: SECRET }, [2001, 3003]);
    await set('Inventory', 'inv:2001', { items: ['sword'], address: SECRET });
    await set('Inventory', 'bag_2001', { items: ['shield'] });
    await set('Inventory', 'inv:3003', { items: ['bow'] }, [3003]);
    await set('Other', 'Player_2001', { never: 'indexed' });
    connectionId = (
      await service.connect(ctx, NAME, [
        { id: U, name: 'Erase Universe' },
        { id: BARE, name: 'Bare Universe' },
      ])
    ).id;
    ctx.ui = new ScriptedUi().on('pickMany', /^Build Query Index of Erase Universe/, ['PlayerData', 'Inventory']);
    await vscode.commands.executeCommand(
      'universeExplorer.buildQueryIndex',
      await child(await universe('Erase Universe'), 'Data Stores'),
    );
  });

  teardown(async () => {
    ctx.ui = realUi;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  suiteTeardown(async () => {
    await ctx.queryIndexes.index({ connectionId, universeId: U }).close();
    await service.close(ctx);
  });

  test('a universe without a query index: says to build one, plans nothing', async () => {
    const ui = new ScriptedUi();
    ctx.ui = ui;
    assert.equal(await erase(2001, BARE), undefined);
    assert.deepEqual(ui.messages('error'), []);
    const [warning] = ui.messages('warn');
    assert.match(warning, /^Bare Universe on Erase Tests has no query index: Erase Player Data finds the entries/);
    assert.equal(ctx.operations.list({ connectionId, universeId: BARE }).length, 0);
  });

  test('the review: deletes and the id taken out, per store, what is not searched; Escape at the typed id writes nothing', async () => {
    const ui = new ScriptedUi();
    ctx.ui = ui;
    const review = await erase(2001);
    assert.ok(review, `no review; prompts: ${JSON.stringify(ui.prompts)}`);
    await until('the review page to draw its rows', () => review.panel.painted, 30_000);
    const state = review.panel.state;
    assert.equal(state.phase, 'plan');
    assert.equal(state.stored, true, 'rows name their store');
    assert.match(
      state.direction,
      /^User 2001's entries in (Inventory, PlayerData|PlayerData, Inventory) of Erase Universe/,
    );
    assert.deepEqual(counts(review), { delete: 4, removeId: 1 });
    assert.deepEqual(rows(review), [
      'Inventory/bag_2001 delete',
      'Inventory/inv:2001 delete',
      'PlayerData/Player_2001 delete',
      'PlayerData/Save_a delete',
      'PlayerData/Team_red removeId',
    ]);
    assert.match(state.summary, /^4 to delete \(3 by key, 1 by user ids\), 1 to take the id out of, 0 no longer tied/);
    assert.ok(
      state.notes.some((n) => n === 'Not searched (not in the query index): Other.'),
      state.notes.join('\n'),
    );
    assert.deepEqual(
      state.buttons.map((b) => b.label),
      ['Erase…', 'Cancel'],
    );

    // Escape at the typed confirmation: nothing written, the plan still there to apply.
    await press(review, 'apply');
    assert.equal(review.panel.state.phase, 'plan');
    assert.notEqual(await read('PlayerData', 'Player_2001'), 'deleted');
    review.panel.dispose();
    assert.equal(
      ctx.operations.list({ connectionId, universeId: U }).length,
      0,
      'closing an unapplied erase removes its plans',
    );
  });

  test('Apply after the id is typed: tied entries deleted, the id out of a shared one, a changed key skipped, the receipt saved', async () => {
    const receiptFile = path.join(service.dir, 'receipt.json');
    const ui = new ScriptedUi()
      .on('input', /^Erase user 2001's data Type the user id, 2001/, '2001')
      .on('saveDialog', /^Save the receipt of the erase of user 2001's data/, vscode.Uri.file(receiptFile));
    ctx.ui = ui;
    const review = await erase(2001);
    assert.ok(review);
    // Another writer changes one planned key after the plan: its delete must not land.
    await set('Inventory', 'bag_2001', { items: ['shield', 'potion'] });

    await press(review, 'apply');
    assert.deepEqual(ui.messages('error'), []);
    for (const [store, key] of [
      ['PlayerData', 'Player_2001'],
      ['PlayerData', 'Save_a'],
      ['Inventory', 'inv:2001'],
    ])
      assert.equal(await read(store, key), 'deleted', `${store}/${key} is erased`);
    const team = await read('PlayerData', 'Team_red');
    assert.ok(team !== 'deleted');
    assert.deepEqual(team.userIds, [3003], 'the id is taken out of the shared entry');
    assert.deepEqual(team.value, { members: 2, address: SECRET }, 'the rest of the shared entry is kept');
    assert.notEqual(await read('Inventory', 'bag_2001'), 'deleted', 'a key changed since the plan is kept');
    assert.notEqual(await read('PlayerData', 'Player_12001'), 'deleted');
    assert.notEqual(await read('Inventory', 'inv:3003'), 'deleted');
    assert.notEqual(await read('Other', 'Player_2001'), 'deleted', 'a store not indexed is not touched');

    // The local index no longer holds what the erase deleted.
    await ctx.queryFollower.settled();
    const { rows: left } = await ctx.queryIndexes.index({ connectionId, universeId: U }).playerEntries(2001);
    assert.deepEqual(left.map(([store, , key]) => `${store}/${key}`).sort(), [
      'Inventory/bag_2001',
      'PlayerData/Team_red',
    ]);

    const result = review.panel.state;
    assert.equal(result.phase, 'result');
    assert.match(result.summary, /^Erased the data of user 2001: 3 deleted, 1 id taken out, 1 skipped, 0 failed/);
    assert.deepEqual(
      result.buttons.map((b) => b.label),
      ['Save Receipt…', 'Close'],
    );

    const text = fs.readFileSync(receiptFile, 'utf8');
    const receipt = JSON.parse(text) as ErasePlayerReceipt;
    assert.equal(receipt.userId, 2001);
    assert.deepEqual(receipt.counts, { deleted: 3, idRemoved: 1, notErased: 1, failed: 0, notRun: 0, putBack: 0 });
    assert.deepEqual(receipt.stores.map((s) => s.datastoreName).sort(), ['Inventory', 'PlayerData']);
    const notErased = receipt.stores.flatMap((s) => s.notErased);
    assert.deepEqual(
      notErased.map((k) => [k.key, k.reason]),
      [['bag_2001', 'changed']],
    );
    assert.ok(!text.includes(SECRET), 'the receipt holds no value');
    assert.ok(!/userIds|members/.test(text), 'the receipt holds no user ids and no part of a value');
    assert.ok(receipt.remains.some((r) => /30 days/.test(r.what)));
    assert.ok(receipt.remains.some((r) => /query index on this machine/.test(r.what)));

    // Recent Operations lists it; opening it shows the result again.
    const ops = ctx.operations.list({ connectionId, universeId: U });
    assert.deepEqual(
      ops.map((o) => [o.kind, o.state, o.userId]),
      [['erase', 'applied', 2001]],
    );
    review.panel.dispose();
    const group = await child(await universe('Erase Universe'), 'Recent Operations');
    const [row] = await ctx.tree.getChildren(group);
    assert.match(label(row), /^Erase of the data of user 2001 in /);
    const reopened = (await vscode.commands.executeCommand('universeExplorer.openOperation', row)) as OperationReview;
    assert.equal(reopened.panel.state.phase, 'result');
    assert.deepEqual(counts(reopened), { deleted: 3, written: 1, skipped: 1 });
    reopened.panel.dispose();
  });
});
