// The extension shell in a real VS Code: welcome state, the Local Sandbox, connections and their keys,
// errors shown in the tree, Test Connection, and the command wrapper.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { TestContext } from '../../../src/extension';
import type { AreaResult } from '../../../src/core/commands/testConnection';
import type { TreeNode } from '../../../src/core/tree/node';
import { TestEmulator } from '../../unit/support/emulator';
import { extensionApi, label, ScriptedUi } from './support';

suite('extension shell', () => {
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let emulator: TestEmulator;
  const limitedKey = 'key-without-restrictions-scope';

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    emulator = await TestEmulator.start({
      apiKeys: [
        { key: 'full-key-for-shell-tests' },
        {
          key: limitedKey,
          scopes: ['universe-datastores.control:list', 'universe-datastores.objects:list', 'asset:read'],
        },
      ],
    });
  });

  teardown(async () => {
    ctx.ui = realUi;
    for (const c of ctx.connections.list().filter((c) => !c.sandbox)) await ctx.connections.remove(c.id);
  });

  suiteTeardown(async () => {
    await emulator.close();
  });

  async function addThroughUi(
    name: string,
    baseUrl: string,
    apiKey: string,
    universes = '4242 = Shell Test',
  ): Promise<ScriptedUi> {
    const ui = new ScriptedUi()
      .on('input', /^Connection name/, name)
      .on('input', /^Base URL/, baseUrl)
      .on('input', /^API key/, apiKey)
      .on('input', /^Entry header prefix/, 'platform')
      .on('input', /^Universes/, universes);
    ctx.ui = ui;
    await vscode.commands.executeCommand('universeExplorer.addConnection');
    return ui;
  }

  function connectionNode(name: string) {
    return ctx.tree.getChildren().then((roots) => {
      const node = roots.find((n) => label(n) === name);
      assert.ok(node, `no connection "${name}" in ${roots.map(label).join(', ')}`);
      return node;
    });
  }

  async function groups(connection: string): Promise<TreeNode[]> {
    const [universe] = await ctx.tree.getChildren(await connectionNode(connection));
    return ctx.tree.getChildren(universe);
  }

  test('with nothing configured the tree is empty, so the welcome content with both buttons shows', async () => {
    await vscode.commands.executeCommand('universeExplorer.stopSandbox');
    assert.deepEqual(await ctx.tree.getChildren(), []);
    const welcome = vscode.extensions.getExtension('universe-explorer.universe-explorer')!.packageJSON.contributes
      .viewsWelcome;
    const contents = welcome.find((w: { view: string }) => w.view === 'universeExplorer.universes').contents as string;
    assert.match(contents, /\[Add Connection…\]\(command:universeExplorer\.addConnection\)/);
    assert.match(contents, /\[Start Local Sandbox\]\(command:universeExplorer\.startSandbox\)/);
  });

  test('Start Local Sandbox shows the demo universe, its groups (Recent Operations among them) and its data stores', async () => {
    await vscode.commands.executeCommand('universeExplorer.startSandbox');
    const [sandbox] = await ctx.tree.getChildren();
    assert.equal(label(sandbox), 'Local Sandbox');
    const [universe] = await ctx.tree.getChildren(sandbox);
    assert.equal(label(universe), 'Demo Universe');
    const kids = await ctx.tree.getChildren(universe);
    assert.deepEqual(kids.map(label), [
      'Data Stores',
      'Recent Operations',
      'Query Index',
      'Ordered Data Stores',
      'User Restrictions',
      'Assets',
      'Memory Stores',
    ]);
    const stores = (await ctx.tree.getChildren(kids[0])).map(label);
    assert.ok(stores.includes('PlayerData'), `demo stores: ${stores.join(', ')}`);
    // Starting again while it runs keeps the same sandbox.
    await vscode.commands.executeCommand('universeExplorer.startSandbox');
    assert.equal((await ctx.tree.getChildren()).filter((n) => label(n) === 'Local Sandbox').length, 1);
  });

  test('screen readers hear what each row of the demo tree shows, not its tooltip', async () => {
    await vscode.commands.executeCommand('universeExplorer.startSandbox');
    const [sandbox] = await ctx.tree.getChildren();
    const [universe] = await ctx.tree.getChildren(sandbox);
    const groupRows = await ctx.tree.getChildren(universe);
    const storeRows = await ctx.tree.getChildren(groupRows[0]);
    const entryRows = (await ctx.tree.getChildren(storeRows.find((n) => label(n) === 'PlayerData'))).slice(0, 3);
    const rows = [sandbox, universe, ...groupRows, ...storeRows, ...entryRows];
    for (const row of rows) {
      const item = ctx.tree.getTreeItem(row);
      const shown = [label(row), typeof item.description === 'string' ? item.description : '']
        .filter(Boolean)
        .join(', ');
      assert.equal(item.accessibilityInformation?.label, shown);
    }
    assert.equal(ctx.tree.getTreeItem(universe).accessibilityInformation?.label, 'Demo Universe, 123456');
  });

  test('a new connection keeps its API key in SecretStorage only: not in settings, globalState or the log', async () => {
    const secret = `shell-secret-${Date.now()}`;
    const testEmulator = await TestEmulator.start({ apiKeys: [{ key: secret }] });
    try {
      await addThroughUi('Secret Check', testEmulator.url, secret);
      const [connection] = ctx.connections.list().filter((c) => c.name === 'Secret Check');
      assert.ok(connection);
      assert.equal(await ctx.extension.secrets.get(`universeExplorer.apiKey.${connection.id}`), secret);
      // Use the key, so request lines are logged.
      const [stores] = await groups('Secret Check');
      const children = await ctx.tree.getChildren(stores);
      assert.ok(
        children.every((n) => !label(n).startsWith("Couldn't load")),
        children.map(label).join(', '),
      );
      // A new connection speaks cloud v2 data stores.
      assert.ok(ctx.log.lines().some((l) => l.includes('GET /cloud/v2/universes/4242/data-stores')));

      const state = JSON.stringify(ctx.extension.globalState.keys().map((k) => ctx.extension.globalState.get(k)));
      assert.ok(!state.includes(secret), 'the key is in globalState');
      assert.ok(!JSON.stringify(vscode.workspace.getConfiguration()).includes(secret), 'the key is in the settings');
      const userDir = path.resolve(ctx.extension.globalStorageUri.fsPath, '..', '..');
      for (const file of ['settings.json', path.join('..', 'Machine', 'settings.json')]) {
        const p = path.join(userDir, file);
        if (fs.existsSync(p)) assert.ok(!fs.readFileSync(p, 'utf8').includes(secret), `the key is in ${p}`);
      }
      assert.ok(!ctx.log.lines().some((l) => l.includes(secret)), 'the key is in the log');
    } finally {
      await testEmulator.close();
    }
  });

  test('an unreachable base URL gives an error node with a clear reason, and Retry reloads', async () => {
    await addThroughUi('Nowhere', 'http://127.0.0.1:9', 'some-key');
    const [stores] = await groups('Nowhere');
    const [error] = await ctx.tree.getChildren(stores);
    const text = label(error);
    assert.match(text, /^Couldn't load: /);
    assert.match(text, /127\.0\.0\.1:9|connect|refused/i);
    assert.doesNotMatch(text, /some-key/);
    assert.equal(error.item().command?.command, 'universeExplorer.refresh');
    assert.equal(error.item().command?.arguments?.[0], stores);
    // Retry runs the request again and fails the same way, still as a node.
    await vscode.commands.executeCommand('universeExplorer.refresh', stores);
    assert.match(label((await ctx.tree.getChildren(stores))[0]), /^Couldn't load: /);
  });

  test('Test Connection names the area a key lacks instead of failing the whole connection', async () => {
    const ui = await addThroughUi('Limited', emulator.url, limitedKey);
    const [connection] = ctx.connections.list().filter((c) => c.name === 'Limited');
    const results = (await vscode.commands.executeCommand(
      'universeExplorer.testConnection',
      await connectionNode('Limited'),
    )) as AreaResult[];
    assert.ok(connection);
    assert.deepEqual(
      results.map((r) => [r.area, r.ok]),
      [
        ['Data stores', true],
        ['User restrictions', false],
        ['Assets', true],
        ['Memory stores', false],
      ],
    );
    assert.match(results[1].detail, /permission/);
    const [warning] = ui.messages('warn');
    assert.match(warning, /User restrictions: ✗ the key lacks permission/);
    assert.equal(ui.messages('error').length, 0);
  });

  test('Test Connection against an unreachable service reports each area, not an exception', async () => {
    const ui = await addThroughUi('Down', 'http://127.0.0.1:9', 'k');
    const results = (await vscode.commands.executeCommand(
      'universeExplorer.testConnection',
      await connectionNode('Down'),
    )) as AreaResult[];
    assert.equal(results.length, 4);
    assert.ok(results.every((r) => !r.ok && r.detail.length > 0));
    assert.equal(ui.messages('error').length, 0);
  });

  test('the command wrapper shows "Failed to …" with Show Log, and a dismissed prompt is silent', async () => {
    const ui = new ScriptedUi();
    ctx.ui = ui;
    await vscode.commands.executeCommand('universeExplorer.removeUniverse');
    assert.deepEqual(ui.messages('error'), ['Failed to remove the universe: choose a universe in the Universes view']);
    await vscode.commands.executeCommand('universeExplorer.addConnection'); // every prompt dismissed
    assert.equal(ui.messages('error').length, 1);
    assert.equal(ctx.connections.list().filter((c) => !c.sandbox).length, 0);
  });

  test('a failed command logs its stack and chain of causes under the message users see, never the key', async () => {
    const secret = `cause-secret-${Date.now()}`;
    const ui = await addThroughUi('Unreachable', 'http://127.0.0.1:9', secret);
    const [stores] = await groups('Unreachable');
    const before = ctx.log.lines().length;
    await vscode.commands.executeCommand('universeExplorer.takeSnapshot', stores);
    const [shown] = ui.messages('error');
    assert.match(shown ?? '', /^Failed to take a snapshot: Network error/);
    const logged = ctx.log
      .lines()
      .slice(before)
      .find((l) => l.startsWith(shown));
    assert.ok(logged, 'the failure is not in the log');
    assert.match(logged, /\n\s+at /, 'no stack under the message');
    assert.match(logged, /\nCaused by: .*(ECONNREFUSED|connect)/i, 'no cause under the message');
    assert.ok(!ctx.log.lines().some((l) => l.includes(secret)), 'the key is in the log');
  });

  test('a bad base URL is refused in the prompt before anything is saved', async () => {
    const ui = new ScriptedUi().on('input', /^Connection name/, 'Bad').on('input', /^Base URL/, 'ftp://example.com');
    ctx.ui = ui;
    await vscode.commands.executeCommand('universeExplorer.addConnection');
    assert.match(ui.messages('error')[0] ?? '', /was refused: "Use an http/);
    assert.equal(ctx.connections.list().filter((c) => c.name === 'Bad').length, 0);
  });

  test('edit and remove a connection; removing deletes its key and its asset list', async () => {
    const ui = await addThroughUi('Editable', emulator.url, 'full-key-for-shell-tests');
    const [connection] = ctx.connections.list().filter((c) => c.name === 'Editable');
    ui.on('pick', /^Edit Editable/, 'Universes').on('input', /^Universes/, '4242 = Renamed, 77');
    await vscode.commands.executeCommand('universeExplorer.editConnection', await connectionNode('Editable'));
    assert.deepEqual(ctx.connections.get(connection.id)?.universes, [{ id: 4242, name: 'Renamed' }, { id: 77 }]);
    await ctx.assets.add(connection.id, { id: '42', displayName: 'Kept asset' });
    await ctx.assets.setCreator(connection.id, { userId: '7' });
    ui.on('warn', /^Remove the connection "Editable"/, 'Remove');
    await vscode.commands.executeCommand('universeExplorer.removeConnection', await connectionNode('Editable'));
    assert.equal(ctx.connections.get(connection.id), undefined);
    assert.equal(await ctx.extension.secrets.get(`universeExplorer.apiKey.${connection.id}`), undefined);
    assert.deepEqual(ctx.assets.list(connection.id), []);
    assert.equal(ctx.assets.creator(connection.id), undefined);
  });
  test('Copy Sandbox Address and Key gives what a terminal needs to reach the sandbox', async () => {
    await vscode.commands.executeCommand('universeExplorer.startSandbox');
    const sandbox = ctx.connections.get('sandbox');
    assert.ok(sandbox);
    const copy = async (what: string) => {
      const ui = new ScriptedUi().on('pick', /^Copy from the Local Sandbox/, what);
      ctx.ui = ui;
      await vscode.commands.executeCommand('universeExplorer.copySandboxAddress');
      return ui.copied[0];
    };
    assert.equal(await copy('Address'), sandbox.baseUrl);
    const key = await copy('API Key');
    const curl = await copy('curl Command');
    const stores = `${sandbox.baseUrl}/datastores/v1/universes/123456/standard-datastores?limit=100`;
    assert.equal(curl, `curl -H "x-api-key: ${key}" "${stores}"`);
    // The key works from outside the editor, as a terminal would use it, and the answer is every store at once.
    const res = await fetch(stores, {
      headers: { 'x-api-key': key },
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { datastores: { name: string }[]; nextPageCursor?: string };
    assert.ok(body.datastores.length > 1, JSON.stringify(body));
    assert.ok(!body.nextPageCursor, "no cursor: the demo universe's stores fit in one answer");
    const tooltip = String((await ctx.tree.getChildren())[0].item().tooltip);
    assert.ok(tooltip.includes(sandbox.baseUrl) && tooltip.includes(key), tooltip);
  });

  test('Reset Local Sandbox asks first, then brings the demo data back', async () => {
    await vscode.commands.executeCommand('universeExplorer.startSandbox');
    const client = await ctx.connections.client('sandbox');
    const at = { universeId: 123456, datastoreName: 'Leaderboard', scope: 'global', entryKey: 'Player_10001' };
    const demo = (await client.datastores.getEntry(at)).raw.toString();
    await client.datastores.setEntry({ ...at, value: -1 });
    ctx.ui = new ScriptedUi().on('warn', /^Reset the Local Sandbox/, undefined);
    await vscode.commands.executeCommand('universeExplorer.resetSandbox');
    assert.equal((await client.datastores.getEntry(at)).raw.toString(), '-1', 'dismissing the question reset anyway');
    ctx.ui = new ScriptedUi().on('warn', /^Reset the Local Sandbox/, 'Reset');
    await vscode.commands.executeCommand('universeExplorer.resetSandbox');
    const fresh = await ctx.connections.client('sandbox');
    assert.equal((await fresh.datastores.getEntry(at)).raw.toString(), demo);
    assert.equal(label((await ctx.tree.getChildren())[0]), 'Local Sandbox');
  });
});
