// The status bar (the connection in use, read-only marked; a running export's rate and rate budget) and the
// Universes view's Delete and Enter keys, against an emulator that enforces (scaled) rate limits.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import { NotFoundError, OpenApiClient, type ExportResult } from '../../../src/api';
import type { TreeNode } from '../../../src/core/tree/node';
import type { TestContext } from '../../../src/extension';
import { TestEmulator } from '../../unit/support/emulator';
import { SuiteService } from './service';
import { extensionApi, kind, label, ScriptedUi, until } from './support';

const KEY = 'status-key';
const U = 123456; // the demo seed's universe
const NAME = 'Status Tests';

suite('status bar and row keys', () => {
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let service: SuiteService;
  let emulator: TestEmulator;
  let client: OpenApiClient;
  let dir: string;

  async function child(parent: TreeNode | undefined, name: string, contextValue?: string): Promise<TreeNode> {
    const children = await ctx.tree.getChildren(parent);
    const node = children.find((n) => label(n) === name && (!contextValue || kind(n).startsWith(contextValue)));
    assert.ok(node, `no ${name} in ${children.map(label).join(', ')}`);
    return node;
  }

  async function universe(): Promise<TreeNode> {
    return child(await child(undefined, NAME), 'Demo Universe');
  }

  async function store(name: string): Promise<TreeNode> {
    return child(await child(await universe(), 'Data Stores'), name, 'dataStore');
  }

  async function select(node: TreeNode): Promise<void> {
    await ctx.view.reveal(node, { select: true, focus: true });
    await until('the row selected', () => ctx.view.selection[0]?.id === node.id);
  }

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    // 30 reads every 3 s: an export of 40 entries takes a few windows, long enough to be seen.
    service = await SuiteService.start(KEY, {
      seed: 'demo',
      rateLimits: true,
      rateLimitScale: 0.1,
      rateLimitWindowScale: 0.05,
    });
    ({ emulator, client, dir } = service);
    await service.connect(ctx, NAME, [{ id: U, name: 'Demo Universe' }]);
  });

  teardown(async () => {
    ctx.ui = realUi;
    await vscode.workspace
      .getConfiguration('universeExplorer')
      .update('readOnlyUniverses', undefined, vscode.ConfigurationTarget.Global);
  });

  suiteTeardown(() => service.close(ctx));

  test('the status bar names the connection of the selected row, marked when its universe is read-only', async () => {
    await select(await universe());
    await until('the status bar to name the connection', () => ctx.status.item.text === `$(plug) ${NAME}`);
    assert.match(String(ctx.status.item.tooltip), new RegExp(`${NAME} \\(${emulator.url.replace(/[.]/g, '\\.')}\\)`));
    await vscode.workspace
      .getConfiguration('universeExplorer')
      .update('readOnlyUniverses', [U], vscode.ConfigurationTarget.Global);
    await until('read-only marked', () => ctx.status.item.text === `$(plug) ${NAME} (read-only) $(lock)`);
    assert.equal(ctx.status.item.accessibilityInformation?.label, `Universe Explorer: ${NAME} (read-only)`);
    const details = ctx.status.details().map((d) => `${d.label} | ${d.detail ?? ''}`);
    assert.ok(
      details.includes(`$(lock) Demo Universe | universe ${U}, read-only (universeExplorer.readOnlyUniverses)`),
    );
  });

  test("during an export the status bar shows its rate and the service's rate budget left, then the connection", async () => {
    const inventory = await store('Inventory');
    const ui = new ScriptedUi().on('saveDialog', /^Export Inventory/, vscode.Uri.file(path.join(dir, 'inv.ndjson')));
    ctx.ui = ui;
    const seen = new Set<string>();
    const watch = setInterval(() => seen.add(ctx.status.item.text), 20);
    try {
      const result = (await vscode.commands.executeCommand(
        'universeExplorer.exportDataStore',
        inventory,
      )) as ExportResult;
      assert.equal(result?.exported, 40);
    } finally {
      clearInterval(watch);
    }
    const during = [...seen].filter((t) => t.startsWith('$(sync~spin) Exporting Inventory (scope global): '));
    assert.ok(
      during.some((t) => /: \d+\/s · \d+ of 30 requests left this window · at most 50% of it$/.test(t)),
      `no status with a rate and budget among: ${[...seen].join(' | ')}`,
    );
    await until('the status bar back on the connection', () => !ctx.status.item.text.includes('Exporting'));
  });

  test('Delete on a selected entry asks the entry\'s own confirmation, and deletes only on "Delete"', async () => {
    const board = await store('Leaderboard');
    const [entry] = (await ctx.tree.getChildren(board)).filter((n) => kind(n) === 'entry');
    assert.ok(entry, 'no entry under Leaderboard');
    const key = label(entry);
    const read = () =>
      client.datastores.getEntry({ universeId: U, datastoreName: 'Leaderboard', scope: 'global', entryKey: key });
    await select(entry);

    const cancel = new ScriptedUi();
    ctx.ui = cancel;
    await vscode.commands.executeCommand('universeExplorer.deleteSelection');
    assert.deepEqual(
      cancel.prompts.map((p) => p.text),
      [`Delete "${key}" (scope global) from Leaderboard?`],
    );
    await read(); // still there

    const confirm = new ScriptedUi().on('warn', /^Delete "/, 'Delete');
    ctx.ui = confirm;
    await vscode.commands.executeCommand('universeExplorer.deleteSelection');
    await assert.rejects(read(), NotFoundError);
    assert.match(
      confirm.messages('info')[0] ?? '',
      new RegExp(`^Deleted "${key}" \\(scope global\\) from Leaderboard\\.`),
    );
  });

  test('Delete on a row with nothing to delete, or in a read-only universe, asks nothing and writes nothing', async () => {
    const ui = new ScriptedUi();
    ctx.ui = ui;
    await select(await store('Leaderboard'));
    await vscode.commands.executeCommand('universeExplorer.deleteSelection');
    await vscode.workspace
      .getConfiguration('universeExplorer')
      .update('readOnlyUniverses', [U], vscode.ConfigurationTarget.Global);
    const board = await store('Leaderboard');
    ctx.tree.refresh(board);
    const [entry] = (await ctx.tree.getChildren(board)).filter((n) => kind(n) === 'entry.readOnly');
    assert.ok(entry, 'no read-only entry under Leaderboard');
    await select(entry);
    await vscode.commands.executeCommand('universeExplorer.deleteSelection');
    assert.deepEqual(ui.prompts, []);
    await client.datastores.getEntry({
      universeId: U,
      datastoreName: 'Leaderboard',
      scope: 'global',
      entryKey: label(entry),
    });
  });

  test('Choose Scope takes a scope name typed into its list', async () => {
    const inventory = await store('Inventory');
    ctx.ui = new ScriptedUi().on('pick', /^Scope of Inventory/, 'season2');
    await vscode.commands.executeCommand('universeExplorer.chooseScope', inventory);
    const again = await store('Inventory');
    assert.equal(again.item().description, 'season2');
    const keys = (await ctx.tree.getChildren(again)).filter((n) => kind(n) === 'entry');
    assert.equal(keys.length, 25); // the demo's season2 scope
    ctx.ui = new ScriptedUi().on('pick', /^Scope of Inventory/, 'global');
    await vscode.commands.executeCommand('universeExplorer.chooseScope', again);
  });

  test('Enter on a ban opens its Edit Restriction prompts', async () => {
    const restrictions = await child(await universe(), 'User Restrictions');
    const [ban] = (await ctx.tree.getChildren(restrictions)).filter((n) => kind(n) === 'restriction.active');
    assert.ok(ban, 'no active ban in the demo universe');
    const ui = new ScriptedUi();
    ctx.ui = ui;
    await select(ban);
    await vscode.commands.executeCommand('universeExplorer.openSelection');
    assert.ok(
      ui.prompts.some((p) => p.kind === 'pick' || p.kind === 'input'),
      `Edit Restriction asked nothing: ${JSON.stringify(ui.prompts)}`,
    );
  });
});

suite('the Local Sandbox for a new user', () => {
  test("the sandbox's Assets group lists the demo's assets, which the API cannot list", async () => {
    const ctx = (await extensionApi()).testing.ctx;
    await vscode.commands.executeCommand('universeExplorer.startSandbox');
    const [sandbox] = (await ctx.tree.getChildren()).filter((n) => label(n) === 'Local Sandbox');
    assert.ok(sandbox, 'no Local Sandbox in the tree');
    const [universe] = await ctx.tree.getChildren(sandbox);
    const group = (await ctx.tree.getChildren(universe)).find((n) => label(n) === 'Assets');
    assert.ok(group, 'no Assets group');
    const shown = await until('the demo assets', async () => {
      ctx.tree.refresh(group);
      const names = (await ctx.tree.getChildren(group)).map(label);
      return names.includes('Universe Logo') && names;
    });
    for (const name of ['Universe Logo', 'Pine Tree', 'Theme Song', 'Fan Art [review]', 'Old Banner [reject]']) {
      assert.ok(shown.includes(name), `${name} is not listed: ${shown.join(', ')}`);
    }
  });

  test("an upload to the Local Sandbox starts from the demo's creator, user 1001", async () => {
    const ctx = (await extensionApi()).testing.ctx;
    const realUi = ctx.ui;
    await vscode.commands.executeCommand('universeExplorer.startSandbox');
    const ui = new ScriptedUi()
      .on('pick', /^Connection/, 'Local Sandbox')
      .on('pick', /asset type/i, 'Image')
      .on('input', /^Display name for red\.png/, 'Red')
      .on('input', /^Description/, '');
    const offered: (string | undefined)[] = [];
    const input = ui.input.bind(ui);
    ui.input = (options) => {
      if (options.title === 'Creator') offered.push(options.value);
      return input(options);
    };
    ctx.ui = ui;
    try {
      const red = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'assets', 'red.png');
      await vscode.commands.executeCommand('universeExplorer.uploadAsset', red); // the Creator prompt is cancelled
    } finally {
      ctx.ui = realUi;
    }
    assert.deepEqual(offered, ['user 1001'], `prompts: ${JSON.stringify(ui.prompts)}`);
  });
});
