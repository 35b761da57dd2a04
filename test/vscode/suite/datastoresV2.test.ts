// Data stores through a cloud v2 connection: Take Snapshot (and its offer before a restore), Delete Data Store… with
// its typed confirmation and Undo, deleted stores shown and undeleted, deleted entries hidden until shown and
// undeleted (with Undo), an entry opened at a time in one request, and a save that keeps users and attributes; a v1
// connection says how to switch, and lists deleted entries always. Against the emulator over real HTTP.
import * as assert from 'node:assert/strict';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import { NotFoundError, type OpenApiClient } from '../../../src/api';
import { localTime } from '../../../src/core/time';
import type { TreeNode } from '../../../src/core/tree/node';
import { versionTime } from '../../../src/datastores/editor/uris';
import type { TestContext } from '../../../src/extension';
import type { TestEmulator } from '../../unit/support/emulator';
import { SuiteService } from './service';
import { extensionApi, kind, label, openEditor, replaceText, ScriptedUi, until } from './support';

const KEY = 'v2-key';
const U = 424242;
const U2 = 434343;
const NAME = 'V2 Tests';
const V1NAME = 'V1 Only';
const HOUR = 3_600_000;
/** The history starts three hours ago, so a moment between its writes lies in the past. */
const START = Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR + 5 * 60_000;
const BIN_META = { userIds: [77], attributes: { bin: true } };

suite('data stores through cloud v2', () => {
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let service: SuiteService;
  let emulator: TestEmulator;
  let client: OpenApiClient;

  const at = (datastoreName: string, entryKey: string, universeId = U) => ({
    universeId,
    datastoreName,
    scope: 'global',
    entryKey,
  });

  async function child(parent: TreeNode | undefined, name: string): Promise<TreeNode> {
    const children = await ctx.tree.getChildren(parent);
    const node = children.find((n) => label(n) === name);
    assert.ok(node, `no ${name} in ${children.map(label).join(', ')}`);
    return node;
  }
  const group = async (connection = NAME, universe = `Universe ${U}`) =>
    child(await child(await child(undefined, connection), universe), 'Data Stores');
  const stores = async () => ctx.tree.getChildren(await group());
  const bin = async (connection = NAME) => child(await group(connection), 'Bin');
  const keys = async (store: TreeNode) => (await ctx.tree.getChildren(store)).map(label);
  /** The row of a key, once the check of its newest version has marked it deleted. */
  async function deletedRow(store: TreeNode, key: string): Promise<TreeNode> {
    const row = await child(store, key);
    await until(`${key} marked deleted`, () => kind(row) === 'entry.deleted');
    return row;
  }

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    service = await SuiteService.start(KEY, { clock: new Date(START).toISOString() });
    ({ emulator, client } = service);
    const meta = { userIds: [1234], attributes: { tier: 'gold' } };
    await client.datastores.setEntry({ ...at('Players', 'p1'), value: { coins: 1 }, ...meta });
    await client.datastores.setEntry({ ...at('Doomed', 'k'), value: 1 });
    await client.datastores.setEntry({ ...at('Other', 'k', U2), value: 1 });
    await client.datastores.setEntry({ ...at('Bin', 'kept'), value: 1 });
    await client.datastores.setEntry({ ...at('Bin', 'gone'), value: { hp: 5 }, ...BIN_META });
    // Written and deleted in one hour: once the hour is over, only the deletion is kept.
    await client.datastores.setEntry({ ...at('Bin', 'lost'), value: 1 });
    await client.datastores.deleteEntry(at('Bin', 'lost'));
    await emulator.advanceClock(2 * HOUR);
    await client.datastores.setEntry({ ...at('Players', 'p1'), value: { coins: 2 }, ...meta });
    await client.datastores.deleteEntry(at('Bin', 'gone'));
    await service.connect(ctx, NAME, [{ id: U }, { id: U2 }], 'v2');
    await service.connect(ctx, V1NAME, [{ id: U }], 'v1');
  });

  teardown(async () => {
    ctx.ui = realUi;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  suiteTeardown(() => service.close(ctx));

  test('Restore to Time offers a snapshot first when none was taken today, and takes it', async () => {
    const ui = new ScriptedUi()
      .on('pick', /^Restore Other \(scope global\) to a time /, new Date(START + HOUR).toISOString())
      .on('pick', /: which keys\? /, 'Every Key')
      .on('warn', new RegExp(`^Take a snapshot of universe ${U2} before restoring Other`), 'Take Snapshot')
      .on('info', /^Snapshot of universe /, undefined)
      .on('info', /^Nothing to restore/, undefined);
    ctx.ui = ui;
    const other = await child(await group(NAME, `Universe ${U2}`), 'Other');
    await vscode.commands.executeCommand('universeExplorer.restoreToTime', other);
    assert.ok(
      ui.messages('info').some((m) => m.startsWith(`Snapshot of universe ${U2} taken at `)),
      JSON.stringify(ui.prompts),
    );
    assert.equal((await emulator.requests({ method: 'POST', path: 'data-stores:snapshot' })).length, 1);
  });

  test('Take Snapshot says when, the group remembers it, and a second one the same day says it was taken', async () => {
    const ui = new ScriptedUi();
    ctx.ui = ui;
    await vscode.commands.executeCommand('universeExplorer.takeSnapshot', await group());
    await until('the snapshot message', () => ui.messages('info').length === 1);
    assert.match(
      ui.messages('info')[0],
      new RegExp(`^Snapshot of universe ${U} taken at .*: every entry as it is now`),
    );
    assert.match(String((await group()).item().tooltip), /Last snapshot: /);
    await vscode.commands.executeCommand('universeExplorer.takeSnapshot', await group());
    await until('the second message', () => ui.messages('info').length === 2);
    assert.match(ui.messages('info')[1], new RegExp(`^Universe ${U} already has today's snapshot`));
  });

  test('Delete Data Store… asks for the name typed, hides the store, Show Deleted lists it, Undelete brings it back', async () => {
    const ui = new ScriptedUi()
      .on('input', /^Delete data store Doomed /, 'Doomed')
      .on('info', /^Deleted data store Doomed\. It can be undeleted until /, undefined);
    ctx.ui = ui;
    await vscode.commands.executeCommand('universeExplorer.deleteDataStore', await child(await group(), 'Doomed'));
    assert.deepEqual((await stores()).map(label), ['Bin', 'Players']);
    await assert.rejects(client.datastores.getEntry(at('Doomed', 'k')));

    await vscode.commands.executeCommand('universeExplorer.showDeletedStores', await group());
    const doomed = await child(await group(), 'Doomed');
    assert.equal(kind(doomed), 'dataStore.deleted');
    assert.match(String(doomed.item().description), /^deleted · purged /);
    assert.equal((await group()).item().description, 'deleted shown');

    await vscode.commands.executeCommand('universeExplorer.undeleteDataStore', doomed);
    assert.equal(kind(await child(await group(), 'Doomed')), 'dataStore.v2');
    assert.equal((await client.datastores.getEntry(at('Doomed', 'k'))).value, 1);
    await vscode.commands.executeCommand('universeExplorer.hideDeletedStores', await group());
    assert.equal((await group()).item().description, undefined);
  });

  test('a typed name that is not the store name deletes nothing', async () => {
    const ui = new ScriptedUi().on('input', /^Delete data store Doomed /, 'doomed');
    ctx.ui = ui;
    await vscode.commands.executeCommand('universeExplorer.deleteDataStore', await child(await group(), 'Doomed'));
    await until('the refusal', () => ui.messages('error').length === 1);
    assert.match(ui.messages('error')[0], /Type the store's name exactly: Doomed/);
    assert.equal((await client.datastores.getEntry(at('Doomed', 'k'))).value, 1);
  });

  test('Open at Time on an entry reads it at that time in one request, read-only, titled with the moment', async () => {
    const then = new Date(START + HOUR);
    const ui = new ScriptedUi().on('pick', /^Open p1 at a time /, then.toISOString());
    ctx.ui = ui;
    const before = (await emulator.requests({ method: 'GET', path: '@latest:' })).length;
    const entry = await child(await child(await group(), 'Players'), 'p1');
    await vscode.commands.executeCommand('universeExplorer.openEntryAtTime', entry);
    assert.equal((await emulator.requests({ method: 'GET', path: '@latest:' })).length, before + 1);
    const tab = await until('the tab of p1 then', () => vscode.window.tabGroups.activeTabGroup.activeTab);
    assert.match(tab.label, new RegExp(`^p1\\.json \\(version of .*, as of ${localTime(then.getTime())}\\)$`));
    assert.deepEqual(JSON.parse(vscode.window.activeTextEditor?.document.getText() ?? ''), { coins: 1 });
  });

  test('a save through a v2 connection keeps the users and attributes', async () => {
    const entry = await child(await child(await group(), 'Players'), 'p1');
    const editor = await openEditor((entry as unknown as { uri: vscode.Uri }).uri);
    await replaceText(editor, '{ "coins": 3 }\n');
    assert.equal(await editor.document.save(), true);
    const read = await client.datastores.getEntry(at('Players', 'p1'));
    assert.deepEqual([read.value, read.userIds, read.attributes], [{ coins: 3 }, [1234], { tier: 'gold' }]);
  });

  test('deleted entries are hidden until Show Deleted Entries; Undelete Entry brings one back whole, Undo deletes it again', async () => {
    assert.equal(kind(await bin()), 'dataStore.v2');
    assert.deepEqual(await keys(await bin()), ['kept']);

    await vscode.commands.executeCommand('universeExplorer.showDeletedEntries', await bin());
    assert.equal(kind(await bin()), 'dataStore.v2.deletedShown');
    assert.equal((await bin()).item().description, 'global · deleted shown');
    assert.deepEqual(await keys(await bin()), ['gone', 'kept', 'lost']);
    const gone = await deletedRow(await bin(), 'gone');

    const versions = await client.datastores.listEntryVersions({ ...at('Bin', 'gone'), sortOrder: 'Descending' });
    const last = versions.items.find((v) => !v.deleted)!;
    const ui = new ScriptedUi().on('info', /^Undeleted "gone"/, undefined);
    ctx.ui = ui;
    await vscode.commands.executeCommand('universeExplorer.undeleteEntry', gone);
    assert.deepEqual(ui.messages('info'), [
      `Undeleted "gone" in Bin (its version of ${versionTime(last.createdTime)}).`,
    ]);
    const back = await client.datastores.getEntry(at('Bin', 'gone'));
    assert.deepEqual([back.value, back.userIds, back.attributes], [{ hp: 5 }, BIN_META.userIds, BIN_META.attributes]);
    // Live again, and known to hold an object (written back just now), so its menu has no Increment.
    await until('gone shown live', () => kind(gone) === 'entry.notNumber');

    // Deleted again, undeleted, then Undo from the confirmation.
    const undo = new ScriptedUi()
      .on('warn', /^Delete "gone"/, 'Delete')
      .on('info', /^Deleted "gone"/, undefined)
      .on('info', /^Undeleted "gone"/, 'Undo');
    ctx.ui = undo;
    await vscode.commands.executeCommand('universeExplorer.deleteEntry', gone);
    const again = await deletedRow(await bin(), 'gone');
    await vscode.commands.executeCommand('universeExplorer.undeleteEntry', again);
    await until('the undelete undone', () => undo.messages('info').includes('"gone" is deleted again.'));
    assert.deepEqual(undo.messages('error'), []);
    await assert.rejects(client.datastores.getEntry(at('Bin', 'gone')), NotFoundError);
    await until('gone shown deleted', () => kind(again) === 'entry.deleted');

    await vscode.commands.executeCommand('universeExplorer.hideDeletedEntries', await bin());
    assert.equal(kind(await bin()), 'dataStore.v2');
    assert.equal((await bin()).item().description, 'global');
    assert.deepEqual(await keys(await bin()), ['kept']);
  });

  test('Undelete Entry leaves a key written meanwhile as it is, and says when no version is left', async () => {
    await client.datastores.setEntry({ ...at('Bin', 'twice'), value: 1 });
    await client.datastores.deleteEntry(at('Bin', 'twice'));
    await vscode.commands.executeCommand('universeExplorer.showDeletedEntries', await bin());
    const twice = await deletedRow(await bin(), 'twice');
    await client.datastores.setEntry({ ...at('Bin', 'twice'), value: 2 });
    const ui = new ScriptedUi();
    ctx.ui = ui;
    await vscode.commands.executeCommand('universeExplorer.undeleteEntry', twice);
    await until('the warning', () => ui.messages('warn').length === 1);
    assert.equal(
      ui.messages('warn')[0],
      '"twice" in Bin holds a value again: it was written since it was deleted, so it was left as it is.',
    );
    assert.equal((await client.datastores.getEntry(at('Bin', 'twice'))).value, 2);
    assert.equal(kind(twice), 'entry');

    await vscode.commands.executeCommand('universeExplorer.undeleteEntry', await deletedRow(await bin(), 'lost'));
    await until('the message', () => ui.messages('info').length === 1);
    assert.equal(ui.messages('info')[0], '"lost" in Bin has no version left to undelete; versions are kept 30 days.');
    await assert.rejects(client.datastores.getEntry(at('Bin', 'lost')), NotFoundError);
    assert.deepEqual(ui.messages('error'), []);
    await vscode.commands.executeCommand('universeExplorer.hideDeletedEntries', await bin());
  });

  test('on a v1 connection deleted entries are listed always: no toggle, and Undelete Entry works', async () => {
    await client.datastores.setEntry({ ...at('Bin', 'v1gone'), value: [1], ...BIN_META });
    await client.datastores.deleteEntry(at('Bin', 'v1gone'));
    // The row's context value offers neither Show nor Hide Deleted Entries (test/unit/menus.test.ts).
    assert.equal(kind(await bin(V1NAME)), 'dataStore');
    assert.equal((await bin(V1NAME)).item().description, 'global');
    const row = await deletedRow(await bin(V1NAME), 'v1gone');
    const ui = new ScriptedUi();
    ctx.ui = ui;
    await vscode.commands.executeCommand('universeExplorer.showDeletedEntries', await bin(V1NAME));
    await until('the refusal', () => ui.messages('error').length === 1);
    assert.match(ui.messages('error')[0], /Bin is read through v1, which lists deleted entries always/);

    await vscode.commands.executeCommand('universeExplorer.undeleteEntry', row);
    await until('the confirmation', () => ui.messages('info').length === 1);
    assert.match(ui.messages('info')[0], /^Undeleted "v1gone" in Bin \(its version of .*\)\.$/);
    const back = await client.datastores.getEntry(at('Bin', 'v1gone'));
    assert.deepEqual([back.value, back.userIds, back.attributes], [[1], BIN_META.userIds, BIN_META.attributes]);
  });

  test('Refresh on a store checks its keys again: one deleted by another writer is marked, one re-created is not', async () => {
    await client.datastores.setEntry({ ...at('Bin', 'flip'), value: 1 });
    await client.datastores.setEntry({ ...at('Bin', 'flop'), value: 1 });
    await client.datastores.deleteEntry(at('Bin', 'flop'));
    const store = await bin(V1NAME);
    await deletedRow(store, 'flop');
    const flip = await child(store, 'flip');
    const ref = (store as unknown as { ref: { connectionId: string; universeId: number; datastoreName: string } }).ref;
    await until('flip checked', () => ctx.datastores.keyState({ ...ref, scope: 'global', key: 'flip' }) === 'live');
    // Another writer deletes one and re-creates the other.
    await client.datastores.deleteEntry(at('Bin', 'flip'));
    await client.datastores.setEntry({ ...at('Bin', 'flop'), value: 2 });
    assert.equal(kind(flip), 'entry');
    await vscode.commands.executeCommand('universeExplorer.refresh', store);
    const again = await bin(V1NAME);
    const [flipAgain, flopAgain] = [await child(again, 'flip'), await child(again, 'flop')];
    await until('flip marked deleted', () => kind(flipAgain) === 'entry.deleted');
    await until('flop no longer marked deleted', () => kind(flopAgain) === 'entry');
  });

  test('on a v1 connection, Take Snapshot says it needs cloud v2 and how to switch', async () => {
    const ui = new ScriptedUi();
    ctx.ui = ui;
    await vscode.commands.executeCommand('universeExplorer.takeSnapshot', await group(V1NAME));
    await until('the error', () => ui.messages('error').length === 1);
    assert.match(
      ui.messages('error')[0],
      /A snapshot needs the cloud v2 data stores API, and this connection speaks v1; switch it with Edit Connection → Data Stores API/,
    );
  });
});
