// The query index follows the editor, in a real VS Code against an emulator this suite starts, with real DuckDB: an
// entry saved from its editor, deleted from the tree or opened (read) changes its row; a store that is not indexed,
// and a universe that has no index, stay so; a bulk run (an import) marks its store until a refresh reads it again.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { OpenApiClient } from '../../../src/api';
import { entryUri } from '../../../src/datastores/editor/uris';
import type { TestContext } from '../../../src/extension';
import type { IndexedPart } from '../../../src/query';
import type { TreeNode } from '../../../src/core/tree/node';
import { SuiteService } from './service';
import { extensionApi, isEntry, label, openEditor, replaceText, ScriptedUi } from './support';

const U = 8282;
/** A universe of the same connection that has no index. */
const BARE = 8283;
const KEY = 'query-follow-key';
const NAME = 'Query Follow';

suite('queries: the index follows the editor', function () {
  this.timeout(120_000);
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let service: SuiteService;
  let client: OpenApiClient;
  let ui: ScriptedUi;
  let connectionId: string;

  function answer(): ScriptedUi {
    ui = new ScriptedUi();
    ctx.ui = ui;
    return ui;
  }

  const universe = (universeId = U) => ({ connectionId, universeId });
  const at = (datastoreName: string, entryKey: string, universeId = U) => ({
    universeId,
    datastoreName,
    scope: 'global',
    entryKey,
  });
  const uriOf = (datastoreName: string, key: string, universeId = U) =>
    entryUri({ connectionId, universeId, datastoreName, scope: 'global', key });

  async function universeChild(name: string, universeId = U): Promise<TreeNode> {
    const connection = (await ctx.tree.getChildren()).find((n) => label(n) === NAME);
    assert.ok(connection, `no ${NAME} connection in the tree`);
    const node = (await ctx.tree.getChildren(connection)).find(
      (n) => (n as { universe?: { id: number } }).universe?.id === universeId,
    );
    assert.ok(node, `no universe ${universeId}`);
    const child = (await ctx.tree.getChildren(node)).find((n) => label(n) === name);
    assert.ok(child, `no ${name} under universe ${universeId}`);
    return child;
  }

  /** The indexed row of a PlayerData key (value, version, updated_time), once what the editor saw is applied. */
  async function row(key: string): Promise<unknown[] | undefined> {
    await ctx.queryFollower.settled();
    const result = await ctx.queryIndexes
      .index(universe())
      .query(`SELECT value, version, updated_time FROM entries WHERE store = 'PlayerData' AND key = '${key}'`);
    return result.rows[0];
  }

  /** Opens the entry's editor, writes `text` into it and saves it (Ctrl+S: VS Code's save reaches the product's). */
  async function editAndSave(uri: vscode.Uri, text: string): Promise<void> {
    const editor = await openEditor(uri);
    await replaceText(editor, text);
    assert.equal(await editor.document.save(), true);
  }

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    service = await SuiteService.start(KEY);
    client = service.client;
    for (const [key, coins] of [
      ['Player_1', 10],
      ['Player_2', 20],
      ['Player_3', 30],
    ] as const) {
      await client.datastores.setEntry({ ...at('PlayerData', key), value: { coins }, userIds: [2001] });
    }
    await client.datastores.setEntry({ ...at('Other', 'x'), value: 1 });
    await client.datastores.setEntry({ ...at('PlayerData', 'Player_1', BARE), value: { coins: 1 } });
    connectionId = (await service.connect(ctx, NAME, [{ id: U }, { id: BARE }])).id;
    answer().on('pickMany', /^Build Query Index of/, ['PlayerData']);
    const parts = (await vscode.commands.executeCommand(
      'universeExplorer.buildQueryIndex',
      await universeChild('Data Stores'),
    )) as IndexedPart[];
    assert.deepEqual(
      parts.map((p) => [p.store, p.entries]),
      [['PlayerData', 3]],
    );
  });

  teardown(async () => {
    ctx.ui = realUi;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  suiteTeardown(async () => {
    await ctx.queryFollower.settled();
    await ctx.queryIndexes.index(universe()).close();
    await service.close(ctx);
  });

  test('an entry saved from its editor: a query sees the value, version and time saved', async () => {
    await editAndSave(uriOf('PlayerData', 'Player_1'), '{\n  "coins": 777\n}\n');
    const saved = await client.datastores.getEntry(at('PlayerData', 'Player_1'));
    const [value, version, updated] = (await row('Player_1')) ?? [];
    assert.equal(value, '{"coins":777}');
    assert.equal(version, saved.version);
    assert.equal(Date.parse(String(updated)), Date.parse(saved.versionCreatedTime!));
    const { rows } = await ctx.queryIndexes
      .index(universe())
      .query("SELECT user_ids FROM entries WHERE key = 'Player_1' AND list_contains(user_ids, 2001)");
    assert.equal(rows.length, 1, 'the user ids the save resent are in the row');
  });

  test('an entry deleted from the tree: a query no longer returns it, and the row counts it gone', async () => {
    const store = (await ctx.tree.getChildren(await universeChild('Data Stores'))).find(
      (n) => label(n) === 'PlayerData',
    );
    assert.ok(store);
    const entry = (await ctx.tree.getChildren(store)).find((n) => isEntry(n) && n.entry.key === 'Player_2');
    assert.ok(entry);
    answer().on('warn', /^Delete "Player_2"/, 'Delete');
    await vscode.commands.executeCommand('universeExplorer.deleteEntry', entry);
    assert.deepEqual(ui.messages('error'), []);
    assert.equal(await row('Player_2'), undefined);
    assert.deepEqual(
      (ctx.queryIndexes.known(universe()) ?? []).map((p) => [p.store, p.entries]),
      [['PlayerData', 2]],
    );
    assert.match(String((await universeChild('Query Index')).item().description), /· 2 entries ·/);
  });

  test('an entry opened shows in the index as the service holds it now', async () => {
    await client.datastores.setEntry({ ...at('PlayerData', 'Player_3'), value: { coins: 31 }, userIds: [2001] });
    assert.equal((await row('Player_3'))?.[0], '{"coins":30}', 'another writer: the index does not know yet');
    await openEditor(uriOf('PlayerData', 'Player_3'));
    assert.equal((await row('Player_3'))?.[0], '{"coins":31}');
  });

  test('a store that is not indexed, and a universe that has no index, stay so', async () => {
    await editAndSave(uriOf('Other', 'x'), '2\n');
    await editAndSave(uriOf('PlayerData', 'Player_1', BARE), '{\n  "coins": 2\n}\n');
    await ctx.queryFollower.settled();
    assert.deepEqual(
      (await ctx.queryIndexes.index(universe()).info()).map((p) => p.store),
      ['PlayerData'],
    );
    const other = await ctx.queryIndexes.index(universe()).query("SELECT key FROM entries WHERE store = 'Other'");
    assert.deepEqual(other.rows, []);
    const bare = ctx.queryIndexes.index(universe(BARE));
    assert.equal(fs.existsSync(path.dirname(bare.file)), false, 'no index was made for the universe without one');
    assert.equal((await universeChild('Query Index', BARE)).item().description, 'not built');
  });

  test('a bulk run (an import) marks its store until a refresh reads it again', async () => {
    const store = { connectionId, universeId: U, datastoreName: 'PlayerData' };
    const file = path.join(service.dir, 'players.ndjson');
    await ctx.timeMachine.export(store, file, false, {});
    await ctx.timeMachine.import(store, { file, mode: 'overwrite' }, {});
    await ctx.queryFollower.settled();
    const marked = (await universeChild('Query Index')).item();
    assert.match(String(marked.description), /· written in bulk since: PlayerData$/);
    assert.match(String(marked.tooltip), /PlayerData was written in bulk .* after the index read it/);

    answer();
    await vscode.commands.executeCommand('universeExplorer.refreshQueryIndex', await universeChild('Query Index'));
    assert.deepEqual(ui.messages('error'), []);
    const refreshed = (await universeChild('Query Index')).item();
    assert.doesNotMatch(String(refreshed.description), /written in bulk/);
  });
});
