// Every single write asks first in a production universe, in a real VS Code against the emulator: for each command
// of the table, a declined question sends no write (the emulator's write requests are counted) and an accepted one
// writes; the same commands in a development universe ask nothing more than they always do, and write.
import * as assert from 'node:assert/strict';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { OpenApiClient } from '../../../src/api';
import type { AssetNode } from '../../../src/assets/tree';
import type { Connection } from '../../../src/core/connections';
import type { Role } from '../../../src/core/universe';
import type { TreeNode } from '../../../src/core/tree/node';
import type { TestContext } from '../../../src/extension';
import type { TestEmulator } from '../../unit/support/emulator';
import { SuiteService } from './service';
import { extensionApi, isVersion, kind, label, ScriptedUi, until } from './support';

const KEY = 'roles-writes-key';
const NAME = 'Roles Writes';
const LIVE = 7201;
const file = (name: string) => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'assets', name);
const pattern = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

/** A command of the table: `n` makes each run's subject fresh. */
interface Case {
  name: string;
  command: string;
  /** Arranges the subject through the test's own client; the tree row the command runs on. */
  node(n: number): Promise<TreeNode>;
  /** Answers the command's own prompts. */
  prompts?(ui: ScriptedUi, n: number): void;
  /** The question that goes first (its text without "Production: ") and the answer that goes ahead. */
  question(n: number): { kind: 'warn' | 'input'; text: string; answer: string };
  /** The command asks that question in every universe: in production only its words say so. */
  asksAnyway?: boolean;
}

suite('roles: every single write asks first', () => {
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let service: SuiteService;
  let emulator: TestEmulator;
  let client: OpenApiClient;
  let connection: Connection;
  let runs = 0;

  const live = () => ({ connectionId: connection.id, universeId: LIVE });
  const at = (datastoreName: string, entryKey: string) => ({
    universeId: LIVE,
    datastoreName,
    scope: 'global',
    entryKey,
  });
  const writesSent = async () =>
    (await emulator.requests()).filter((r) => r.method !== 'GET' && !r.path.includes(':snapshot')).length;

  async function child(parent: TreeNode | undefined, name: string): Promise<TreeNode> {
    const children = await ctx.tree.getChildren(parent);
    const node = children.find((n) => label(n) === name);
    assert.ok(node, `no ${name} in ${children.map(label).join(', ')}`);
    return node;
  }
  const universeRow = async () => child(await child(undefined, NAME), 'Live Game');
  async function storesGroup(): Promise<TreeNode> {
    const group = await child(await universeRow(), 'Data Stores');
    ctx.tree.refresh(group);
    return group;
  }
  const store = async (name: string) => child(await storesGroup(), name);
  const entry = async (storeName: string, key: string) => child(await store(storeName), key);

  /** An asset made through the client (at version 2 when `versions` says), added to the list with Add Asset by ID. */
  async function assetRow(displayName: string, arrange: { versions?: 2; archived?: true } = {}): Promise<AssetNode> {
    const op = await client.assets.create({
      request: { assetType: 'Decal', displayName, description: '', creationContext: { creator: { userId: 1001 } } },
      file: { path: file('red.png').fsPath },
    });
    const { response } = await client.assets.waitForOperation(op, { initialDelayMs: 20 });
    assert.ok(response);
    const assetId = response.assetId;
    if (arrange.versions) {
      const update = await client.assets.update({ assetId, request: {}, file: { path: file('blue.png').fsPath } });
      await client.assets.waitForOperation(update, { initialDelayMs: 20 });
    }
    if (arrange.archived) await client.assets.archive({ assetId });
    ctx.ui = new ScriptedUi().on('pick', /^Connection/, NAME).on('input', /^Add Asset by ID/, assetId);
    await vscode.commands.executeCommand('universeExplorer.addAssetById');
    const assets = await child(await universeRow(), 'Assets');
    const row = (await ctx.tree.getChildren(assets)).find((n) => (n as Partial<AssetNode>).assetId === assetId);
    assert.ok(row, `asset ${assetId} is not in the tree`);
    return row as AssetNode;
  }

  const cases: Case[] = [
    {
      name: 'New Entry',
      command: 'universeExplorer.newEntry',
      node: () => store('Players'),
      prompts: (ui, n) => ui.on('input', /^New key in Players/, `new${n}`).on('input', /^Value of /, '{"n":1}'),
      question: (n) => ({ kind: 'warn', text: `Create "new${n}" (Players, scope global)?`, answer: 'Create' }),
    },
    {
      name: 'Go to Key (create)',
      command: 'universeExplorer.goToKey',
      node: () => store('Players'),
      prompts: (ui, n) => ui.on('pick', /^Key in Players/, `typed${n}`),
      question: (n) => ({
        kind: 'warn',
        text: `"typed${n}" (Players, scope global) does not exist.`,
        answer: 'Create',
      }),
      asksAnyway: true,
    },
    {
      name: 'Increment',
      command: 'universeExplorer.incrementEntry',
      node: async (n) => {
        await client.datastores.setEntry({ ...at('Players', `count${n}`), value: 1 });
        return entry('Players', `count${n}`);
      },
      prompts: (ui) => ui.on('input', /^Increment count\d+ by/, '5'),
      question: (n) => ({
        kind: 'warn',
        text: `Increment "count${n}" (Players, scope global) by 5?`,
        answer: 'Increment',
      }),
    },
    {
      name: 'Edit Attributes and User IDs',
      command: 'universeExplorer.editMetadata',
      node: async (n) => {
        await client.datastores.setEntry({ ...at('Players', `meta${n}`), value: 1 });
        return entry('Players', `meta${n}`);
      },
      prompts: (ui) => ui.on('input', /^Attributes of /, '{"tier":"gold"}').on('input', /^User ids of /, '55'),
      question: (n) => ({
        kind: 'warn',
        text: `Save the attributes and user ids of "meta${n}" (Players, scope global)?`,
        answer: 'Save',
      }),
    },
    {
      name: 'Restore This Version',
      command: 'universeExplorer.restoreVersion',
      node: async (n) => {
        await client.datastores.setEntry({ ...at('Players', `old${n}`), value: 1 });
        await client.datastores.setEntry({ ...at('Players', `old${n}`), value: 2 });
        const versions = (await ctx.tree.getChildren(await entry('Players', `old${n}`))).filter(isVersion);
        assert.equal(versions.length, 2);
        return versions[1];
      },
      question: (n) => ({ kind: 'warn', text: `Restore "old${n}" to the version of `, answer: 'Restore' }),
      asksAnyway: true,
    },
    {
      name: 'Undelete Entry',
      command: 'universeExplorer.undeleteEntry',
      node: async (n) => {
        await client.datastores.setEntry({ ...at('Bin', `gone${n}`), value: 1 });
        await client.datastores.deleteEntry(at('Bin', `gone${n}`));
        await vscode.commands.executeCommand('universeExplorer.showDeletedEntries', await store('Bin'));
        const row = await entry('Bin', `gone${n}`);
        await until(`gone${n} marked deleted`, () => kind(row) === 'entry.deleted');
        return row;
      },
      question: (n) => ({ kind: 'warn', text: `Undelete "gone${n}" in Bin?`, answer: 'Undelete' }),
    },
    {
      name: 'Delete Data Store',
      command: 'universeExplorer.deleteDataStore',
      node: async (n) => {
        await client.datastores.setEntry({ ...at(`Doomed${n}`, 'k'), value: 1 });
        return store(`Doomed${n}`);
      },
      question: (n) => ({ kind: 'input', text: `Delete data store Doomed${n} `, answer: `Doomed${n}` }),
      asksAnyway: true,
    },
    {
      name: 'Undelete Data Store',
      command: 'universeExplorer.undeleteDataStore',
      node: async (n) => {
        await client.datastores.setEntry({ ...at(`Dropped${n}`, 'k'), value: 1 });
        await client.datastoresV2.deleteDataStore({ universeId: LIVE, datastoreName: `Dropped${n}` });
        await vscode.commands.executeCommand('universeExplorer.showDeletedStores', await storesGroup());
        const row = await store(`Dropped${n}`);
        assert.equal(kind(row), 'dataStore.deleted');
        return row;
      },
      question: (n) => ({ kind: 'warn', text: `Undelete data store Dropped${n}?`, answer: 'Undelete' }),
    },
    {
      name: 'Update Content',
      command: 'universeExplorer.updateAssetContent',
      node: (n) => assetRow(`Content ${n}`),
      prompts: (ui) => ui.on('openDialog', /^New content for /, [file('blue.png')]),
      question: (n) => ({
        kind: 'warn',
        text: `Upload blue.png as the new content of "Content ${n}"`,
        answer: 'Upload',
      }),
    },
    {
      name: 'Edit Name and Description',
      command: 'universeExplorer.editAssetInfo',
      node: (n) => assetRow(`Info ${n}`),
      prompts: (ui, n) => ui.on('input', /^Name of asset/, `Renamed ${n}`).on('input', /^Description of /, 'words'),
      question: (n) => ({ kind: 'warn', text: `Save the name and description of "Info ${n}"`, answer: 'Save' }),
    },
    {
      name: 'Edit Previews',
      command: 'universeExplorer.editAssetPreviews',
      node: (n) => assetRow(`Previews ${n}`),
      prompts: (ui) => ui.on('input', /^Previews of /, '123 = Front'),
      question: (n) => ({ kind: 'warn', text: `Save the previews of "Previews ${n}"`, answer: 'Save' }),
    },
    {
      name: 'Edit Social Links',
      command: 'universeExplorer.editAssetSocialLinks',
      node: (n) => assetRow(`Links ${n}`),
      prompts: (ui) =>
        ui
          .on('input', /^Twitch link /, '')
          .on('input', /^GitHub link /, 'https://github.com/example/roles')
          .on('input', /^GitHub link title/, ''),
      question: (n) => ({ kind: 'warn', text: `Save the social links of "Links ${n}"`, answer: 'Save' }),
    },
    {
      name: 'Archive',
      command: 'universeExplorer.archiveAsset',
      node: (n) => assetRow(`Archived ${n}`),
      question: (n) => ({ kind: 'warn', text: `Archive "Archived ${n}"`, answer: 'Archive' }),
      asksAnyway: true,
    },
    {
      name: 'Restore (asset)',
      command: 'universeExplorer.restoreAsset',
      node: (n) => assetRow(`Restored ${n}`, { archived: true }),
      question: (n) => ({ kind: 'warn', text: `Restore "Restored ${n}"`, answer: 'Restore' }),
    },
    {
      name: 'Roll Back',
      command: 'universeExplorer.rollbackAsset',
      node: async (n) => {
        const row = await assetRow(`Rolled ${n}`, { versions: 2 });
        return child(row, 'Version 1');
      },
      question: (n) => ({ kind: 'warn', text: `Roll back "Rolled ${n}" to version 1?`, answer: 'Roll Back' }),
      asksAnyway: true,
    },
  ];

  /** Runs a case's command with its prompts answered (and its question too when `answer`); the writes it sent. */
  async function run(c: Case, role: Role, answer: boolean): Promise<{ ui: ScriptedUi; writes: number; asked: string }> {
    await ctx.connections.setRole(live(), role);
    const n = ++runs;
    const node = await c.node(n);
    const question = c.question(n);
    const asked = role === 'production' ? `Production: ${question.text}` : question.text;
    const ui = new ScriptedUi();
    c.prompts?.(ui, n);
    if (answer) ui.on(question.kind, pattern(asked), question.answer);
    ctx.ui = ui;
    const before = await writesSent();
    await vscode.commands.executeCommand(c.command, node);
    const writes = (await writesSent()) - before;
    return { ui, writes, asked };
  }

  const askedOf = (ui: ScriptedUi, kind: 'warn' | 'input', text: string) =>
    ui.prompts.filter((p) => p.kind === kind && p.text.startsWith(text));

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    service = await SuiteService.start(KEY);
    ({ emulator, client } = service);
    await client.datastores.setEntry({ ...at('Players', 'seed'), value: 0 });
    await client.datastores.setEntry({ ...at('Bin', 'seed'), value: 0 });
    connection = await service.connect(ctx, NAME, [{ id: LIVE, name: 'Live Game' }], 'v2');
  });

  teardown(async () => {
    ctx.ui = realUi;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await ctx.connections.setRole(live(), 'development');
  });

  suiteTeardown(async () => {
    for (const known of ctx.assets.list(connection.id)) await ctx.assets.forget(connection.id, known.id);
    await service.close(ctx);
  });

  for (const c of cases) {
    test(`${c.name} in production: declined, nothing is sent; accepted, it writes`, async () => {
      const declined = await run(c, 'production', false);
      assert.equal(
        askedOf(declined.ui, c.question(runs).kind, declined.asked).length,
        1,
        JSON.stringify(declined.ui.prompts),
      );
      assert.deepEqual(declined.ui.messages('error'), []);
      assert.equal(declined.writes, 0, 'a declined write was sent');

      const accepted = await run(c, 'production', true);
      assert.equal(
        askedOf(accepted.ui, c.question(runs).kind, accepted.asked).length,
        1,
        JSON.stringify(accepted.ui.prompts),
      );
      assert.deepEqual(accepted.ui.messages('error'), []);
      assert.ok(accepted.writes > 0, 'the accepted write was not sent');
    });
  }

  test('in a development universe the same commands ask nothing more than they always do, and write', async () => {
    for (const c of cases) {
      const { ui, writes, asked } = await run(c, 'development', true);
      const question = c.question(runs);
      assert.deepEqual(
        ui.prompts.filter((p) => p.text.startsWith('Production')),
        [],
        `${c.name} asked about production`,
      );
      assert.equal(
        askedOf(ui, question.kind, asked).length,
        c.asksAnyway ? 1 : 0,
        `${c.name}: ${JSON.stringify(ui.prompts)}`,
      );
      assert.deepEqual(ui.messages('error'), [], c.name);
      assert.ok(writes > 0, `${c.name} wrote nothing`);
    }
  });
});
