// Roles per universe in a real VS Code against the emulator: production marked in the tree, on entry tabs and in the
// status bar; a production save asks (declined: the edit stays, nothing is written), a bulk Apply asks for the name
// typed; a read-only universe is refused from the tree's commands and by the client itself, with no request sent.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { OpenApiClient } from '../../../src/api';
import type { Connection } from '../../../src/core/connections';
import type { TreeNode } from '../../../src/core/tree/node';
import { entryUri } from '../../../src/datastores/editor/uris';
import type { OperationReview } from '../../../src/datastores/operations/reviewFlow';
import type { TestContext } from '../../../src/extension';
import type { TestEmulator } from '../../unit/support/emulator';
import { SuiteService } from './service';
import {
  applyReview,
  extensionApi,
  kind,
  label,
  openEditor,
  replaceText,
  ScriptedUi,
  until,
  revertAndCloseAll,
} from './support';

const KEY = 'roles-tests-key';
const NAME = 'Roles Tests';
const LIVE = 7101;
const DEV = 7102;

suite('roles per universe', () => {
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let service: SuiteService;
  let emulator: TestEmulator;
  let client: OpenApiClient;
  let connection: Connection;
  let ui: ScriptedUi;

  const at = (universeId: number, entryKey: string) => ({
    universeId,
    datastoreName: 'Players',
    scope: 'global',
    entryKey,
  });
  const uriOf = (universeId: number, key: string) =>
    entryUri({ connectionId: connection.id, universeId, datastoreName: 'Players', scope: 'global', key });
  const live = () => ({ connectionId: connection.id, universeId: LIVE });
  const writesSent = async () =>
    (await emulator.requests()).filter((r) => r.method !== 'GET' && !r.path.includes(':snapshot')).length;

  function answer(): ScriptedUi {
    ui = new ScriptedUi();
    ctx.ui = ui;
    return ui;
  }

  async function child(parent: TreeNode | undefined, name: string): Promise<TreeNode> {
    const children = await ctx.tree.getChildren(parent);
    const node = children.find((n) => label(n) === name);
    assert.ok(node, `no ${name} in ${children.map(label).join(', ')}`);
    return node;
  }

  const universeRow = async (name = 'Live Game') => child(await child(undefined, NAME), name);

  async function entryRow(key: string): Promise<TreeNode> {
    const stores = await child(await universeRow(), 'Data Stores');
    ctx.tree.refresh(stores);
    return child(await child(stores, 'Players'), key);
  }

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    service = await SuiteService.start(KEY);
    ({ emulator, client } = service);
    connection = await service.connect(ctx, NAME, [
      { id: LIVE, name: 'Live Game' },
      { id: DEV, name: 'Dev Game' },
    ]);
  });

  teardown(async () => {
    ctx.ui = realUi;
    await revertAndCloseAll();
    await ctx.connections.setRole(live(), 'development');
    await ctx.connections.setReadOnly(live(), false);
  });

  suiteTeardown(() => service.close(ctx));

  test('Set Universe Role… on a row makes it production: kept with the connection, shown in the row', async () => {
    const before = await universeRow();
    assert.equal(before.item().description, String(LIVE));
    answer().on('pick', /^Role of "Live Game" \(universe 7101\) on Roles Tests/, 'production');
    assert.equal(await vscode.commands.executeCommand('universeExplorer.setUniverseRole', before), 'production');
    const picked = ui.prompts.find((p) => p.kind === 'pick');
    assert.ok(picked, 'no pick shown');
    assert.equal(ctx.connections.get(connection.id)?.universes.find((u) => u.id === LIVE)?.role, 'production');
    assert.equal(ctx.roleOf(live()), 'production');
    assert.equal(ctx.roleOf(LIVE), 'production');
    assert.equal(ctx.roleOf(DEV), 'development');
    const item = (await universeRow()).item();
    assert.equal(item.description, `${LIVE} · production`);
    assert.match(String(item.tooltip), /Role: production \(writes ask first\)/);
    const icon = item.iconPath as vscode.ThemeIcon;
    assert.equal(icon.color?.id, 'universeExplorer.productionForeground');
    assert.equal((await universeRow('Dev Game')).item().description, String(DEV));
  });

  test('an entry of a production universe: a badge on its tab and the status bar names the universe', async () => {
    await client.datastores.setEntry({ ...at(LIVE, 'p1'), value: { coins: 1 } });
    await client.datastores.setEntry({ ...at(DEV, 'd1'), value: { coins: 1 } });
    await ctx.connections.setRole(live(), 'production');
    const decoration = ctx.marks.provideFileDecoration(uriOf(LIVE, 'p1'));
    assert.equal(decoration?.badge, 'P');
    assert.equal(decoration?.color?.id, 'universeExplorer.productionForeground');
    assert.match(decoration?.tooltip ?? '', /^Production: "Live Game" \(universe 7101\) on Roles Tests/);
    assert.equal(ctx.marks.provideFileDecoration(uriOf(DEV, 'd1')), undefined);

    await openEditor(uriOf(LIVE, 'p1'));
    await until('the production item shown', () => ctx.marks.shown);
    assert.equal(ctx.marks.item.text, '$(warning) Production: "Live Game" (universe 7101) on Roles Tests');
    assert.equal((ctx.marks.item.backgroundColor as vscode.ThemeColor).id, 'statusBarItem.warningBackground');
    await openEditor(uriOf(DEV, 'd1'));
    await until('the production item hidden', () => !ctx.marks.shown);
  });

  test('saving a production entry asks first: declined, the edit stays and nothing is written; accepted, it is', async () => {
    await client.datastores.setEntry({ ...at(LIVE, 'p2'), value: { coins: 1 } });
    await ctx.connections.setRole(live(), 'production');
    const editor = await openEditor(uriOf(LIVE, 'p2'));
    await replaceText(editor, '{ "coins": 2 }\n');
    const sent = await writesSent();

    answer(); // no answer: the modal dismissed
    await vscode.commands.executeCommand('universeExplorer.saveEntry');
    assert.deepEqual(ui.messages('warn'), ['Production: Save "p2" (Players, scope global)?']);
    assert.deepEqual(ui.messages('error'), []);
    assert.ok(editor.document.isDirty, 'the declined edit is kept');
    assert.equal(await writesSent(), sent);
    assert.equal((await client.datastores.getEntry(at(LIVE, 'p2'))).raw.toString(), '{"coins":1}');

    // VS Code's own save (File > Save) reaches the same question, and a decline keeps the edit too.
    answer();
    assert.equal(await editor.document.save(), false);
    assert.equal(ui.messages('warn').length, 1);
    assert.ok(editor.document.isDirty);
    assert.equal(await writesSent(), sent);

    answer().on('warn', /^Production: Save "p2"/, 'Save');
    await vscode.commands.executeCommand('universeExplorer.saveEntry');
    await until('the document saved', () => !editor.document.isDirty);
    assert.equal(ui.messages('warn').length, 1, 'asked once');
    assert.equal((await client.datastores.getEntry(at(LIVE, 'p2'))).raw.toString(), '{"coins":2}');
  });

  test('a development universe saves without asking', async () => {
    await client.datastores.setEntry({ ...at(DEV, 'd2'), value: 1 });
    const editor = await openEditor(uriOf(DEV, 'd2'));
    await replaceText(editor, '2\n');
    answer();
    await vscode.commands.executeCommand('universeExplorer.saveEntry');
    await until('the document saved', () => !editor.document.isDirty);
    assert.deepEqual(ui.prompts, []);
  });

  test('a ban in production asks first, and a declined one sends nothing', async () => {
    await ctx.connections.setRole(live(), 'production');
    const sent = await writesSent();
    answer()
      .on('pick', /^Duration of the restriction/, '1 hour')
      .on('input', /^Display reason/, 'Rule 1')
      .on('input', /^Private reason/, 'griefing')
      .on('pick', /^Alt accounts/, 'Ban only this account');
    await vscode.commands.executeCommand('universeExplorer.banUser', { ...live(), userId: 55 });
    const asked = ui.messages('warn');
    assert.equal(asked.at(-1), 'Production: Ban user 55 from universe 7101?', JSON.stringify(ui.prompts));
    assert.equal(await writesSent(), sent);
  });

  test('a bulk Apply in production asks for the universe name typed; Escape runs nothing', async () => {
    await ctx.connections.setRole(live(), 'production');
    const file = path.join(service.dir, 'roles-import.ndjson');
    fs.writeFileSync(file, `${JSON.stringify({ scope: 'global', key: 'bulk1', value: 1 })}\n`);
    const store = async () => {
      await client.datastores.setEntry({ ...at(LIVE, 'seed'), value: 0 });
      const stores = await child(await universeRow(), 'Data Stores');
      ctx.tree.refresh(stores);
      return child(stores, 'Players');
    };
    answer()
      .on('openDialog', /^Import into Players$/, [vscode.Uri.file(file)])
      .on('pick', /^Import roles-import\.ndjson into Players/, 'Create Only')
      .on('warn', /snapshot/i, 'Continue Without');
    const review = (await vscode.commands.executeCommand('universeExplorer.importDataStore', await store())) as
      OperationReview | undefined;
    assert.ok(review, `no review: ${JSON.stringify(ui.prompts)}`);
    const sent = await writesSent();
    await review.panel.receive({ type: 'button', id: 'apply' });
    const typed = ui.prompts.filter((p) => p.kind === 'input');
    assert.deepEqual(
      typed.map((p) => p.text),
      [
        'Apply to production: import roles-import.ndjson into Players "Live Game" (universe 7101) on Roles Tests is a production universe. Type its name, Live Game, to apply.',
      ],
    );
    assert.equal(await writesSent(), sent);
    assert.equal(review.op.state, 'planned');

    ui.on('input', /^Apply to production/, 'Live Game');
    assert.deepEqual(await applyReview(review), { written: 1 });
    assert.equal((await client.datastores.getEntry(at(LIVE, 'bulk1'))).value, 1);
    review.panel.dispose();
  });

  test('Make Read-Only: the row says so, tree commands are refused with the reason, and the client sends nothing', async () => {
    await client.datastores.setEntry({ ...at(LIVE, 'ro'), value: 1 });
    answer();
    await vscode.commands.executeCommand('universeExplorer.makeReadOnly', await universeRow());
    const row = (await universeRow()).item();
    assert.equal(row.contextValue, 'universe.readOnly');
    assert.equal(row.description, `${LIVE} · read-only`);
    assert.equal((row.iconPath as vscode.ThemeIcon).id, 'lock');
    assert.equal(kind(await entryRow('ro')), 'entry.readOnly');
    assert.equal(ctx.marks.provideFileDecoration(uriOf(LIVE, 'ro'))?.badge, 'RO');

    const sent = await writesSent();
    await vscode.commands.executeCommand('universeExplorer.deleteEntry', await entryRow('ro'));
    assert.deepEqual(ui.messages('error'), [
      'Failed to delete the entry: "Live Game" (universe 7101) on Roles Tests is read-only; to write to it, choose Allow Writes on its row in the Universes view',
    ]);
    assert.deepEqual(ui.messages('warn'), [], 'nothing asked before the refusal');
    // The client refuses on its own, whatever path a write takes.
    const own = await ctx.connections.client(connection.id);
    await assert.rejects(own.datastores.setEntry({ ...at(LIVE, 'ro'), value: 2 }), {
      name: 'WriteRefusedError',
      message: /"Live Game" \(universe 7101\) on Roles Tests is read-only/,
    });
    await assert.rejects(
      own.restrictions.update({ ...at(LIVE, ''), userId: 5, gameJoinRestriction: { active: true } }),
      {
        name: 'WriteRefusedError',
      },
    );
    await assert.rejects(own.assets.archive({ assetId: 1 }), {
      name: 'WriteRefusedError',
      message: /^assets are shared by every universe of "Roles Tests", and "Live Game"/,
    });
    await own.datastores.setEntry({ ...at(DEV, 'other'), value: 1 }); // another universe of the connection writes
    assert.equal(await writesSent(), sent + 1);

    await vscode.commands.executeCommand('universeExplorer.allowWrites', await universeRow());
    assert.equal((await universeRow()).item().contextValue, 'universe');
    await own.datastores.setEntry({ ...at(LIVE, 'ro'), value: 3 });
    assert.equal((await client.datastores.getEntry(at(LIVE, 'ro'))).value, 3);
  });
});
