// Memory stores in a real VS Code, against an emulator on a settable clock: sorted maps added by name and listed in
// map order, items opened, edited and saved on their etag (with the conflict choices), queues read and held, the
// flush, and a read-only universe refusing writes.
import * as assert from 'node:assert/strict';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import { OpenApiClient } from '../../../src/api';
import type { Connection } from '../../../src/core/connections';
import type { TreeNode } from '../../../src/core/tree/node';
import type { TestContext } from '../../../src/extension';
import type { SortedMapItemNode, SortedMapNode } from '../../../src/memory/tree';
import { TestEmulator } from '../../unit/support/emulator';
import { extensionApi, kind, label, replaceText, ScriptedUi, until, revertAndCloseAll } from './support';

const KEY = 'memory-tests-key';
const NAME = 'Memory Tests';
const U = 8101;
const LOCKED = 8102;
const DAY = 86_400;
const description = (n: TreeNode) => String(n.item().description ?? '');

suite('memory stores in the editor', () => {
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let emulator: TestEmulator;
  let client: OpenApiClient;
  let connection: Connection;

  const answer = () => {
    const ui = new ScriptedUi();
    ctx.ui = ui;
    return ui;
  };

  async function groupNode(universeId: number): Promise<TreeNode> {
    const root = (await ctx.tree.getChildren()).find((n) => label(n) === NAME);
    assert.ok(root, 'the test connection is not in the tree');
    const universe = (await ctx.tree.getChildren(root)).find((n) => n.id.endsWith(`/u:${universeId}`));
    assert.ok(universe, `universe ${universeId} is not in the tree`);
    const group = (await ctx.tree.getChildren(universe)).find((n) => label(n) === 'Memory Stores');
    assert.ok(group, 'no Memory Stores group');
    return group;
  }

  /** The Memory Stores group's child (Sorted Maps or Queues) of a universe of the test connection. */
  async function kindNode(universeId: number, title: 'Sorted Maps' | 'Queues'): Promise<TreeNode> {
    const group = await groupNode(universeId);
    const node = (await ctx.tree.getChildren(group)).find((n) => label(n) === title);
    assert.ok(node, `no ${title} under Memory Stores`);
    return node;
  }

  async function mapNode(universeId: number, map: string): Promise<SortedMapNode> {
    const maps = await kindNode(universeId, 'Sorted Maps');
    const node = (await ctx.tree.getChildren(maps)).find((n) => label(n) === map);
    assert.ok(node && kind(node).startsWith('memory.sortedMap'), `sorted map ${map} is not listed`);
    return node as SortedMapNode;
  }

  async function itemNodes(universeId: number, map: string): Promise<SortedMapItemNode[]> {
    const node = await mapNode(universeId, map);
    ctx.tree.refresh(node);
    return (await ctx.tree.getChildren(node)).filter((n) =>
      kind(n).startsWith('memory.mapItem'),
    ) as SortedMapItemNode[];
  }

  async function addMap(universeId: number, map: string): Promise<void> {
    answer().on('input', /^Add Sorted Map by Name/, map);
    await vscode.commands.executeCommand('universeExplorer.addSortedMap', await kindNode(universeId, 'Sorted Maps'));
  }

  async function openItem(universeId: number, map: string, key: string): Promise<vscode.TextEditor> {
    const node = (await itemNodes(universeId, map)).find((n) => label(n) === key);
    assert.ok(node, `item ${key} is not listed`);
    const command = node.item().command!;
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
    return until('the item open', () =>
      vscode.window.visibleTextEditors.find((e) => e.document.uri.path.endsWith(`/${map}/${key}.json`)),
    );
  }

  async function queueNode(universeId: number, queue: string): Promise<TreeNode> {
    answer().on('input', /^Add Queue by Name/, queue);
    const queues = await kindNode(universeId, 'Queues');
    await vscode.commands.executeCommand('universeExplorer.addQueue', queues);
    const node = (await ctx.tree.getChildren(queues)).find((n) => label(n) === queue);
    assert.ok(node && kind(node).startsWith('memory.queue'), `queue ${queue} is not listed`);
    return node;
  }

  /** What a plain read of the queue sees now (hidden for a second, then let go by moving the clock). */
  async function visible(universeId: number, queueName: string): Promise<unknown[]> {
    const read = await client.queues.readItems({ universeId, queueName, count: 200, invisibilitySeconds: 1 });
    await emulator.advanceClock(2000);
    return read.items.map((i) => i.data);
  }

  const reads = async () => (await emulator.requests({ method: 'GET' })).filter((r) => r.path.endsWith(':read'));

  const put = (map: string, key: string, value: unknown, sortKey?: number | string, ttlSeconds = DAY) =>
    client.sortedMaps.updateItem({ universeId: U, mapName: map, key, value, sortKey, ttlSeconds, allowMissing: true });

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    emulator = await TestEmulator.start({ apiKeys: [{ key: KEY }], flushDelayMs: 60_000 });
    client = new OpenApiClient({ baseUrl: emulator.url, apiKey: KEY });
    connection = await ctx.connections.add(
      {
        name: NAME,
        baseUrl: emulator.url,
        entryHeaderPrefix: 'platform',
        universes: [
          { id: U, name: 'Memory Game' },
          { id: LOCKED, name: 'Locked Game', readOnly: true },
        ],
      },
      KEY,
    );
  });

  teardown(async () => {
    ctx.ui = realUi;
    await revertAndCloseAll();
    for (const key of ['autoSave', 'autoSaveDelay'])
      await vscode.workspace.getConfiguration('files').update(key, undefined, vscode.ConfigurationTarget.Global);
  });

  suiteTeardown(async () => {
    await ctx.connections.remove(connection.id);
    await client.close();
    await emulator.close();
  });

  test('memory: a sorted map added by name lists its items in map order, with sort key and expiry', async () => {
    const maps = await kindNode(U, 'Sorted Maps');
    const empty = await ctx.tree.getChildren(maps);
    assert.equal(label(empty[0]), 'No sorted maps yet: add one by name…');
    assert.match(String(maps.item().tooltip), /cannot list/);
    await put('Servers', 'b-none', { n: 1 });
    await put('Servers', 'a-text', { n: 2 }, 'zeta');
    await put('Servers', 'c-high', { n: 3 }, 20);
    await put('Servers', 'd-low', { n: 4 }, 3, 240);
    await addMap(U, 'Servers');
    const items = await itemNodes(U, 'Servers');
    assert.deepEqual(
      items.map((n) => label(n)),
      ['d-low', 'c-high', 'a-text', 'b-none'],
    );
    assert.match(description(items[0]), /^sort key 3 · expires in [34]m/);
    assert.match(description(items[2]), /^sort key "zeta" · expires in 1d|^sort key "zeta" · expires in 2[34]h/);
    assert.match(description(items[3]), /^expires in /);
    // Remembered per universe: the read-only universe does not list it.
    const locked = await ctx.tree.getChildren(await kindNode(LOCKED, 'Sorted Maps'));
    assert.equal(label(locked[0]), 'No sorted maps yet: add one by name…');
    // Forget drops the name here only: the service keeps the map.
    answer();
    await vscode.commands.executeCommand('universeExplorer.forgetMemoryName', await mapNode(U, 'Servers'));
    const names = (await ctx.tree.getChildren(await kindNode(U, 'Sorted Maps'))).map((n) => label(n));
    assert.ok(!names.includes('Servers'), `still listed: ${names.join(', ')}`);
    assert.equal((await client.sortedMaps.getItem({ universeId: U, mapName: 'Servers', key: 'c-high' })).sortKey, 20);
  });

  test('memory: Test Connection says the key reaches memory stores', async () => {
    answer();
    const root = (await ctx.tree.getChildren()).find((n) => label(n) === NAME);
    const results = (await vscode.commands.executeCommand('universeExplorer.testConnection', root)) as {
      area: string;
      ok: boolean;
      detail: string;
    }[];
    const memory = results.find((r) => r.area === 'Memory stores');
    assert.ok(memory, `no Memory stores line: ${results.map((r) => r.area).join(', ')}`);
    assert.equal(memory.ok, true, memory.detail);
  });

  test("memory: the Local Sandbox's demo universe shows Lobby in map order and Jobs", async () => {
    const started = !ctx.connections.get('sandbox');
    if (started) await vscode.commands.executeCommand('universeExplorer.startSandbox');
    try {
      const sandbox = await until('the sandbox in the tree', async () =>
        (await ctx.tree.getChildren()).find((n) => label(n) === 'Local Sandbox'),
      );
      const universe = (await ctx.tree.getChildren(sandbox)).find((n) => label(n) === 'Demo Universe');
      assert.ok(universe, 'no Demo Universe');
      const group = (await ctx.tree.getChildren(universe)).find((n) => label(n) === 'Memory Stores');
      assert.ok(group, 'no Memory Stores group');
      const [maps, queues] = await ctx.tree.getChildren(group);
      const lobby = (await ctx.tree.getChildren(maps)).find((n) => label(n) === 'Lobby');
      assert.ok(lobby, 'Lobby is not listed');
      assert.deepEqual(
        (await ctx.tree.getChildren(queues)).map((n) => label(n)),
        ['Jobs'],
      );
      assert.deepEqual(
        (await ctx.tree.getChildren(lobby)).map((n) => label(n)),
        [
          'server-asia-1',
          'server-eu-2',
          'server-us-2',
          'server-eu-1',
          'server-us-1',
          'server-private-1',
          'server-maintenance',
        ],
      );
    } finally {
      if (started) await vscode.commands.executeCommand('universeExplorer.stopSandbox');
    }
  });

  test('memory: an item opened, edited and saved keeps its sort key and expiry', async () => {
    await put('Edits', 'player', { coins: 1 }, 7, 600);
    await addMap(U, 'Edits');
    const before = await client.sortedMaps.getItem({ universeId: U, mapName: 'Edits', key: 'player' });
    const editor = await openItem(U, 'Edits', 'player');
    assert.deepEqual(JSON.parse(editor.document.getText()), { coins: 1 });
    assert.equal(editor.document.languageId, 'universe-memory-item');
    await replaceText(editor, '{ "coins": 5 }\n');
    answer();
    assert.equal(await editor.document.save(), true);
    const after = await client.sortedMaps.getItem({ universeId: U, mapName: 'Edits', key: 'player' });
    assert.deepEqual(after.value, { coins: 5 });
    assert.equal(after.sortKey, 7);
    assert.notEqual(after.etag, before.etag);
    const drift = Math.abs(Date.parse(after.expireTime!) - Date.parse(before.expireTime!));
    assert.ok(drift < 5000, `the expiry moved by ${drift} ms`);
  });

  test('memory: another writer changed the item: Cancel keeps the typed text, Compare shows theirs, Overwrite writes it', async () => {
    await put('Conflicts', 'host', { id: 1 }, 1);
    await addMap(U, 'Conflicts');
    const editor = await openItem(U, 'Conflicts', 'host');
    await replaceText(editor, '{ "id": 2 }\n');
    await put('Conflicts', 'host', { id: 99 }, 4);
    let ui = answer();
    assert.equal(await editor.document.save(), false);
    assert.deepEqual(ui.messages('warn'), ['"host" (sorted map Conflicts) changed since you opened it.']);
    assert.equal(editor.document.isDirty, true);
    assert.deepEqual(JSON.parse(editor.document.getText()), { id: 2 });
    let current = await client.sortedMaps.getItem({ universeId: U, mapName: 'Conflicts', key: 'host' });
    assert.deepEqual(current.value, { id: 99 });
    answer().on('warn', /changed since you opened it/, 'Compare');
    assert.equal(await editor.document.save(), false);
    const diff = await until('the comparison', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .map((tab) => tab.input)
        .find((input) => input instanceof vscode.TabInputTextDiff),
    );
    const theirs = await vscode.workspace.openTextDocument(diff.original);
    assert.deepEqual(JSON.parse(theirs.getText()), { id: 99 });
    assert.equal(diff.modified.toString(), editor.document.uri.toString());
    ui = answer().on('warn', /changed since you opened it/, 'Overwrite');
    assert.equal(await editor.document.save(), true);
    current = await client.sortedMaps.getItem({ universeId: U, mapName: 'Conflicts', key: 'host' });
    assert.deepEqual(current.value, { id: 2 });
    assert.equal(current.sortKey, 4, "Overwrite keeps the service's sort key");
    assert.equal(ui.messages('warn').length, 1);
  });

  test('memory: a dirty item keeps the base it was edited from in workspace storage, so a reload still meets the conflict', async () => {
    await put('Reloads', 'room', { n: 1 }, 1);
    await addMap(U, 'Reloads');
    const editor = await openItem(U, 'Reloads', 'room');
    const uri = editor.document.uri.toString();
    const read = await client.sortedMaps.getItem({ universeId: U, mapName: 'Reloads', key: 'room' });
    const kept = () =>
      ctx.extension.workspaceState.get<Record<string, { etag?: string }>>('universeExplorer.memoryItemBases', {})[uri];
    assert.equal(kept(), undefined, 'a clean document pins nothing');
    await replaceText(editor, '{ "n": 2 }\n');
    await until('the base kept', () => kept()?.etag === read.etag);
    await put('Reloads', 'room', { n: 99 }, 1);
    // What a window reload does to a restored dirty document: VS Code reads the item again.
    await ctx.memoryFiles.readFile(editor.document.uri);
    const ui = answer();
    assert.equal(await editor.document.save(), false, 'saved over the other writer');
    assert.deepEqual(ui.messages('warn'), ['"room" (sorted map Reloads) changed since you opened it.']);
    assert.deepEqual((await client.sortedMaps.getItem({ universeId: U, mapName: 'Reloads', key: 'room' })).value, {
      n: 99,
    });
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await until('the base let go', () => kept() === undefined);
  });

  test('memory: with auto-save on, typing never writes nor asks; the explicit save asks once', async () => {
    await put('Typed', 'draft', { v: 1 });
    await addMap(U, 'Typed');
    const files = () => vscode.workspace.getConfiguration('files');
    await files().update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    await files().update('autoSaveDelay', 100, vscode.ConfigurationTarget.Global);
    const editor = await openItem(U, 'Typed', 'draft');
    // The item language turns VS Code's auto-save off (package.json), whatever the user's setting.
    assert.equal(vscode.workspace.getConfiguration('files', editor.document).get('autoSave'), 'off');
    await put('Typed', 'draft', { v: 'theirs' });
    const writes = async () => (await emulator.requests({ method: 'PATCH' })).length;
    const before = await writes();
    const ui = answer();
    await replaceText(editor, '{ "v": ');
    await new Promise((r) => setTimeout(r, 600));
    await replaceText(editor, '{ "v": 2 }\n');
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(await writes(), before, 'auto-save wrote the item');
    assert.equal(editor.document.isDirty, true);
    assert.deepEqual(ui.prompts, [], 'a prompt while typing');
    ui.on('warn', /changed since you opened it/, 'Overwrite');
    assert.equal(await editor.document.save(), true);
    assert.equal(ui.prompts.length, 1);
    assert.deepEqual((await client.sortedMaps.getItem({ universeId: U, mapName: 'Typed', key: 'draft' })).value, {
      v: 2,
    });
  });

  test('memory: on a production universe a save asks first; declined, nothing is written and the edit stays', async () => {
    await put('Prod', 'cfg', { on: false });
    await addMap(U, 'Prod');
    await ctx.connections.setRole({ connectionId: connection.id, universeId: U }, 'production');
    try {
      const editor = await openItem(U, 'Prod', 'cfg');
      await replaceText(editor, '{ "on": true }\n');
      let ui = answer();
      assert.equal(await editor.document.save(), false);
      assert.deepEqual(ui.messages('warn'), ['Production: Save "cfg" (sorted map Prod)?']);
      assert.equal(editor.document.isDirty, true);
      const item = () => client.sortedMaps.getItem({ universeId: U, mapName: 'Prod', key: 'cfg' });
      assert.deepEqual((await item()).value, { on: false });
      ui = answer().on('warn', /^Production: Save/, 'Save');
      assert.equal(await editor.document.save(), true);
      assert.deepEqual((await item()).value, { on: true });
    } finally {
      await ctx.connections.setRole({ connectionId: connection.id, universeId: U }, 'development');
    }
  });

  test('memory: an item deleted meanwhile offers Create Again', async () => {
    await put('Gone', 'ticket', { seat: 1 }, 'a');
    await addMap(U, 'Gone');
    const editor = await openItem(U, 'Gone', 'ticket');
    await replaceText(editor, '{ "seat": 2 }\n');
    await client.sortedMaps.deleteItem({ universeId: U, mapName: 'Gone', key: 'ticket' });
    const ui = answer().on('warn', /expired or was deleted since you opened it/, 'Create Again');
    assert.equal(await editor.document.save(), true);
    assert.equal(ui.messages('warn').length, 1);
    const made = await client.sortedMaps.getItem({ universeId: U, mapName: 'Gone', key: 'ticket' });
    assert.deepEqual(made.value, { seat: 2 });
    assert.equal(made.sortKey, 'a');
  });

  test('memory: New Item, Edit Expiration and Sort Key, Copy Id and Delete from the tree', async () => {
    await addMap(U, 'Made');
    answer()
      .on('input', /^New Item in Made/, 'fresh')
      .on('input', /^Value of fresh/, '{"ok":true}')
      .on('input', /^Time to live of fresh/, '90m')
      .on('input', /^Sort key of fresh/, '12');
    await vscode.commands.executeCommand('universeExplorer.newMapItem', await mapNode(U, 'Made'));
    let made = await client.sortedMaps.getItem({ universeId: U, mapName: 'Made', key: 'fresh' });
    assert.deepEqual([made.value, made.sortKey], [{ ok: true }, 12]);
    let [node] = await itemNodes(U, 'Made');
    assert.match(description(node), /^sort key 12 · expires in (1h 30m|1h 29m)/);
    answer()
      .on('input', /^Time to live of fresh/, '2d')
      .on('input', /^Sort key of fresh/, '"12"');
    await vscode.commands.executeCommand('universeExplorer.editMapItemExpiration', node);
    made = await client.sortedMaps.getItem({ universeId: U, mapName: 'Made', key: 'fresh' });
    assert.deepEqual([made.value, made.sortKey], [{ ok: true }, '12']);
    [node] = await itemNodes(U, 'Made');
    assert.match(description(node), /^sort key "12" · expires in (2d|1d 23h)/);
    const ui = answer();
    await vscode.commands.executeCommand('universeExplorer.copyMapItemId', node);
    assert.deepEqual(ui.copied, ['fresh']);
    answer().on('warn', /^Delete "fresh" \(sorted map Made\)\?/, 'Delete');
    await vscode.commands.executeCommand('universeExplorer.deleteMapItem', node);
    await assert.rejects(client.sortedMaps.getItem({ universeId: U, mapName: 'Made', key: 'fresh' }), /not found/i);
  });

  test('memory: a queue item added, read and held after the warning, then discarded: gone for good', async () => {
    const queue = await queueNode(U, 'Work');
    let ui = answer()
      .on('input', /^Add Item to Work/, '{"job":"a"}')
      .on('input', /^Priority of the item/, '5')
      .on('input', /^Time to live of the item/, '1h');
    await vscode.commands.executeCommand('universeExplorer.addQueueItem', queue);
    assert.deepEqual(ui.messages('info'), ['Added an item to queue Work (priority 5, expires in 1h).']);
    await client.queues.addItem({ universeId: U, queueName: 'Work', data: { job: 'b' }, ttlSeconds: 3600 });
    ui = answer()
      .on('warn', /^Read and hold items of queue Work\?/, 'Continue')
      .on('input', /^How many items to read from Work/, '1')
      .on('input', /^How long to hold them/, '60')
      .on('info', /^Holding 1 item of queue Work until/, 'Discard');
    await vscode.commands.executeCommand('universeExplorer.readQueueItems', queue);
    assert.equal(ui.prompts[0].kind, 'warn', 'the warning comes before anything is asked or read');
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'universe-memory-held');
    assert.ok(doc, 'the held items are not shown');
    assert.deepEqual(
      (JSON.parse(doc.getText()) as { items: { data: unknown }[] }).items.map((i) => i.data),
      [{ job: 'a' }],
    );
    assert.deepEqual(ui.messages('info').slice(-1), ['Discarded 1 item of queue Work; gone for good.']);
    await emulator.advanceClock(61_000);
    assert.deepEqual(await visible(U, 'Work'), [{ job: 'b' }]);
  });

  test('memory: a queue read let go comes back when the window ends; a declined warning reads nothing', async () => {
    await client.queues.addItem({ universeId: U, queueName: 'Later', data: { job: 'c' }, ttlSeconds: 3600 });
    const queue = await queueNode(U, 'Later');
    const before = (await reads()).length;
    let ui = answer();
    await vscode.commands.executeCommand('universeExplorer.readQueueItems', queue);
    assert.deepEqual(
      ui.prompts.map((p) => p.kind),
      ['warn'],
    );
    assert.equal((await reads()).length, before, 'declining the warning read the queue');
    ui = answer()
      .on('warn', /^Read and hold items of queue Later\?/, 'Continue')
      .on('input', /^How many items to read from Later/, '5')
      .on('input', /^How long to hold them/, '30')
      .on('info', /^Holding 1 item of queue Later until/, 'Let Go');
    await vscode.commands.executeCommand('universeExplorer.readQueueItems', queue);
    assert.deepEqual(ui.messages('info').slice(-1), [
      'Let go of 1 item of queue Later; back in the queue when the window ends.',
    ]);
    assert.equal((await reads()).length, before + 1, 'the read was not sent once');
    const hidden = await client.queues.readItems({ universeId: U, queueName: 'Later', count: 5 });
    assert.deepEqual(hidden.items, [], 'the held item is visible to other readers');
    await emulator.advanceClock(31_000);
    assert.deepEqual(await visible(U, 'Later'), [{ job: 'c' }]);
  });

  test('memory: Discard after the window ended says the service ignored it, and the items are back', async () => {
    await client.queues.addItem({ universeId: U, queueName: 'Late', data: { job: 'd' }, ttlSeconds: 3600 });
    const queue = await queueNode(U, 'Late');
    const ui = answer()
      .on('warn', /^Read and hold items of queue Late\?/, 'Continue')
      .on('input', /^How many items to read from Late/, '1')
      .on('input', /^How long to hold them/, '1');
    // Discard is answered only once the window has ended, on this machine's clock and on the emulator's.
    const info = ui.info.bind(ui);
    ui.info = async (message: string) => {
      if (!message.startsWith('Holding')) return info(message);
      const held = ctx.memoryHeld.list().find((h) => h.queueName === 'Late');
      assert.ok(held, 'the read is not held');
      await until('the window to end', () => Date.now() >= held.until, 5000);
      await emulator.advanceClock(2000);
      return 'Discard';
    };
    await vscode.commands.executeCommand('universeExplorer.readQueueItems', queue);
    assert.deepEqual(ui.messages('warn').slice(-1), [
      'The window had ended, so the service ignored the discard: what was read from queue Late is back in the queue.',
    ]);
    assert.deepEqual(await visible(U, 'Late'), [{ job: 'd' }]);
  });

  const flushes = async () =>
    (await emulator.requests({ method: 'POST' })).filter((r) => r.path.endsWith('memory-store:flush')).length;
  const lobby = () => client.sortedMaps.getItem({ universeId: U, mapName: 'Flushed', key: 'x' });

  test('memory: flush refused on a wrong name, then confirmed with the typed name, followed to its end', async () => {
    await put('Flushed', 'x', 1);
    const before = await flushes();
    let ui = answer()
      .on('warn', /^Flush every memory store of "Memory Game"/, 'Flush…')
      .on('input', /^Flush Memory Stores/, 'Memory Gam');
    await vscode.commands.executeCommand('universeExplorer.flushMemoryStores', await groupNode(U));
    assert.match(ui.messages('error')[0] ?? '', /refused: "Type Memory Game to confirm, or press Escape\."/);
    assert.equal(await flushes(), before, 'a wrong name flushed');
    assert.equal((await lobby()).value, 1);
    ui = answer()
      .on('warn', /^Flush every memory store of "Memory Game"/, 'Flush…')
      .on('input', /^Flush Memory Stores/, 'Memory Game');
    // The flush takes a minute of the emulator's clock: moved on once the flush has started (its first report).
    ui.progress = (_title, task) => task(new AbortController().signal, () => void emulator.advanceClock(61_000));
    await vscode.commands.executeCommand('universeExplorer.flushMemoryStores', await groupNode(U));
    assert.deepEqual(ui.messages('error'), []);
    assert.match(ui.messages('info')[0] ?? '', /^Flushed the memory stores of "Memory Game"/);
    assert.equal(await flushes(), before + 1);
    await assert.rejects(lobby(), /not found/i);
  });

  test('memory: Cancel while a flush is followed stops following, and the flush still happens', async () => {
    await put('Flushed', 'x', 2);
    const ui = answer()
      .on('warn', /^Flush every memory store/, 'Flush…')
      .on('input', /^Flush Memory Stores/, 'Memory Game');
    // Cancel as soon as the flush has started (its first report), before its operation is done.
    ui.progress = (_title, task) => {
      const cancel = new AbortController();
      return task(cancel.signal, () => cancel.abort());
    };
    await vscode.commands.executeCommand('universeExplorer.flushMemoryStores', await groupNode(U));
    assert.match(ui.messages('info')[0] ?? '', /^Stopped following the flush of .*; the flush itself goes on/);
    assert.equal((await lobby()).value, 2, 'the flush was done before the cancel');
    await emulator.advanceClock(61_000);
    await assert.rejects(lobby(), /not found/i);
  });

  test('memory: a read-only universe refuses writes before asking the service', async () => {
    await client.sortedMaps.updateItem({
      universeId: LOCKED,
      mapName: 'Frozen',
      key: 'k',
      value: 1,
      ttlSeconds: DAY,
      allowMissing: true,
    });
    answer().on('input', /^Add Sorted Map by Name/, 'Frozen');
    await vscode.commands.executeCommand('universeExplorer.addSortedMap', await kindNode(LOCKED, 'Sorted Maps'));
    const [node] = await itemNodes(LOCKED, 'Frozen');
    assert.equal(kind(node), 'memory.mapItem.readOnly');
    const ui = answer().on('warn', /^Delete/, 'Delete');
    await vscode.commands.executeCommand('universeExplorer.deleteMapItem', node);
    assert.match(ui.messages('error')[0] ?? '', /^Failed to delete the item: .*read-only/);
    const editor = await openItem(LOCKED, 'Frozen', 'k');
    await replaceText(editor, '2\n').catch(() => undefined);
    answer();
    await editor.document.save();
    const still = await client.sortedMaps.getItem({ universeId: LOCKED, mapName: 'Frozen', key: 'k' });
    assert.equal(still.value, 1);
    const queue = await queueNode(LOCKED, 'FrozenJobs');
    const before = (await reads()).length;
    const refused = answer();
    await vscode.commands.executeCommand('universeExplorer.readQueueItems', queue);
    assert.deepEqual(
      refused.prompts.map((p) => p.kind),
      ['error'],
    );
    assert.match(refused.messages('error')[0], /^Failed to read the queue: .*read-only/);
    assert.equal((await reads()).length, before);
  });
});
