// The agent tools inside VS Code: as language model tools, invoked through vscode.lm.invokeTool as Copilot's agent
// mode would; plans write nothing, apply_plan opens the plan in the review panel and only a person's Apply writes.
// And the MCP server the extension offers: its definition started as VS Code would start it, listed by an MCP client.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readBanPlanText } from '../../../src/api';
import type { ReviewPanel } from '../../../src/core/review/panel';
import type { OperationReview } from '../../../src/datastores/operations/reviewFlow';
import type { TestContext } from '../../../src/extension';
import { SuiteService } from './service';
import { extensionApi, until } from './support';

const U = 515151;
const KEY = 'agents-suite-key';

suite('agents: language model tools and the MCP server', () => {
  let ctx: TestContext;
  let service: SuiteService;
  let connectionId: string;
  const at = (key: string) => ({ universeId: U, datastoreName: 'Players', scope: 'global', entryKey: key });
  const value = async (key: string) => (await service.client.datastores.getEntry(at(key))).value;
  /** Invokes a tool as a chat would, and reads its JSON answer. */
  async function invoke(name: string, input: object): Promise<Record<string, unknown>> {
    const result = await vscode.lm.invokeTool(
      name,
      { input, toolInvocationToken: undefined },
      new vscode.CancellationTokenSource().token,
    );
    const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    return JSON.parse(text) as Record<string, unknown>;
  }

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    service = await SuiteService.start(KEY);
    await service.client.datastores.setEntry({ ...at('Player_1'), value: { coins: 10 } });
    connectionId = (await service.connect(ctx, 'Agents Tests', [{ id: U, name: 'Agent Universe' }])).id;
  });

  teardown(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));
  suiteTeardown(() => service.close(ctx));

  test('every agent tool is a language model tool, with its input schema', () => {
    const ours = vscode.lm.tools.filter((t) => t.name.startsWith('ue_'));
    const names = ours.map((t) => t.name).sort();
    for (const name of ['ue_list_stores', 'ue_get_entry', 'ue_plan_set_entry', 'ue_plan_ban', 'ue_apply_plan'])
      assert.ok(names.includes(name), names.join(', '));
    const get = ours.find((t) => t.name === 'ue_get_entry')!;
    assert.deepEqual((get.inputSchema as { required: string[] }).required.sort(), ['key', 'store', 'universe']);
  });

  test('read tools answer from the connection that lists the universe; one it does not list is named', async () => {
    const stores = await invoke('ue_list_stores', { universe: String(U) });
    assert.deepEqual(
      (stores.stores as { name: string }[]).map((s) => s.name),
      ['Players'],
    );
    const entry = await invoke('ue_get_entry', { universe: String(U), store: 'Players', key: 'Player_1' });
    assert.deepEqual(entry.value, { coins: 10 });
    // A value that holds the connection's key reaches the model with the key hidden.
    await service.client.datastores.setEntry({ ...at('Leaky'), value: { note: `key ${KEY} pasted here` } });
    const leaky = await invoke('ue_get_entry', { universe: String(U), store: 'Players', key: 'Leaky' });
    assert.deepEqual(leaky.value, { note: 'key *** pasted here' });
    await assert.rejects(
      invoke('ue_list_stores', { universe: '999' }),
      /universe 999 is in no connection of Universe Explorer: add it to a connection/,
    );
  });

  test('a plan writes nothing; apply_plan opens it in the review; only Apply writes', async () => {
    const planned = await invoke('ue_plan_set_entry', {
      universe: String(U),
      store: 'Players',
      key: 'Player_1',
      value: { coins: 20 },
    });
    assert.equal(typeof planned.planId, 'string');
    assert.deepEqual(await value('Player_1'), { coins: 10 }, 'a plan writes nothing');
    const told = await invoke('ue_apply_plan', { planId: planned.planId as string });
    assert.equal(told.applied, false);
    assert.match(told.note as string, /nothing is written until a person presses Apply/);
    assert.deepEqual(await value('Player_1'), { coins: 10 }, 'apply_plan writes nothing in VS Code');
    const review = ctx.agents.opened.at(-1) as OperationReview;
    await until('the review page to draw its rows', () => review.panel.painted, 30_000);
    assert.equal(review.panel.state.heading, 'Apply a plan');
    assert.deepEqual(
      review.panel.state.buttons.map((b) => b.label),
      ['Apply', 'Export Plan…', 'Cancel'],
    );
    assert.deepEqual(
      review.panel.rows(0, 10).map((r) => `${r.key} ${r.kind}`),
      ['Player_1 write'],
    );
    await review.panel.receive({ type: 'button', id: 'apply' });
    assert.equal(review.panel.state.phase, 'result');
    assert.match(review.panel.state.summary, /^Applied part-1\.ndjson to Players \(.*\): 1 written, /);
    assert.deepEqual(await value('Player_1'), { coins: 20 });
  });

  test('a ban plan opens as one row; Apply bans the user', async () => {
    const planned = await invoke('ue_plan_ban', {
      universe: String(U),
      user: '2001',
      duration: '7d',
      reason: 'exploit',
    });
    await invoke('ue_apply_plan', { planId: planned.planId as string });
    const restriction = () => service.client.restrictions.get({ universeId: U, userId: 2001 });
    assert.equal((await restriction()).gameJoinRestriction.active, false, 'nothing written before Apply');
    const panel = ctx.agents.opened.at(-1) as ReviewPanel;
    assert.deepEqual(
      panel.rows(0, 5).map((r) => `${r.key} ${r.kind} ${r.note}`),
      ['user 2001 ban exploit, for 7d'],
    );
    await panel.receive({ type: 'button', id: 'apply' });
    assert.equal(panel.state.phase, 'result');
    assert.equal((await restriction()).gameJoinRestriction.active, true);
  });

  test("a plan of bans of many users opens in the bulk ban review, with the plan's file", async () => {
    const planned = await invoke('ue_plan_ban_many', {
      universe: String(U),
      users: '2101\n2102\nnot-an-id',
      duration: '1d',
    });
    assert.deepEqual(planned.counts, { new: 2 });
    assert.equal((planned.unusedLines as unknown[]).length, 1);
    // The bulk ban review is the restrictions area's: stand in for it only while this branch has none.
    const handed: { file: string; connectionId: string }[] = [];
    const stub = (await vscode.commands.getCommands(true)).includes('universeExplorer.reviewBanPlan')
      ? undefined
      : vscode.commands.registerCommand(
          'universeExplorer.reviewBanPlan',
          (args: { file: string; connectionId: string }) => {
            handed.push(args);
            return args;
          },
        );
    const before = ctx.agents.opened.length;
    try {
      const told = await invoke('ue_apply_plan', { planId: planned.planId as string });
      assert.equal(told.applied, false);
      assert.match(told.note as string, /nothing is written until a person presses Apply/);
    } finally {
      stub?.dispose();
    }
    assert.equal(ctx.agents.opened.length, before + 1, 'the review was opened');
    if (stub) {
      assert.deepEqual(handed, [{ file: planned.bansFile, connectionId }]);
      const plan = readBanPlanText(await fs.promises.readFile(handed[0].file, 'utf8'));
      assert.deepEqual(
        plan.actions.map((a) => `${a.userId} ${a.change}`),
        ['2101 new', '2102 new'],
      );
    }
    const restriction = await service.client.restrictions.get({ universeId: U, userId: 2101 });
    assert.equal(restriction.gameJoinRestriction.active, false, 'nothing written before a person applies it');
  });

  test("the MCP server definition of a connection starts the bundled server with the connection's key", async () => {
    const provider = ctx.agents.mcpServers;
    const definitions = (await provider.provideMcpServerDefinitions(new vscode.CancellationTokenSource().token)) ?? [];
    const ours = definitions.find((d) => d.label === 'Universe Explorer: Agents Tests');
    assert.ok(ours, definitions.map((d) => d.label).join(', '));
    assert.ok(!JSON.stringify(ours).includes(KEY), 'no key in a definition VS Code may keep');
    const resolved = await provider.resolveMcpServerDefinition!(ours, new vscode.CancellationTokenSource().token);
    assert.ok(resolved);
    assert.equal(resolved.env.UE_API_KEY, KEY);
    const env = Object.fromEntries(
      Object.entries({ ...process.env, ...resolved.env }).filter(
        (e): e is [string, string] => typeof e[1] === 'string',
      ),
    );
    const client = new Client({ name: 'suite', version: '1' });
    await client.connect(
      new StdioClientTransport({ command: resolved.command, args: resolved.args, env, stderr: 'pipe' }),
    );
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'list_stores'));
      const called = await client.callTool({ name: 'list_stores', arguments: { universe: String(U) } });
      assert.match(JSON.stringify(called.content), /Players/);
      const refused = await client.callTool({
        name: 'apply_plan',
        arguments: { planId: 'set_entry-20260101T000000Z-abcdef' },
      });
      assert.equal(refused.isError, true, 'the server VS Code starts writes nothing');
    } finally {
      await client.close();
    }
  });

  test('with the user setting off, no MCP server is offered, and VS Code is told the list changed', async () => {
    const provider = ctx.agents.mcpServers;
    const token = new vscode.CancellationTokenSource().token;
    const labels = async () => ((await provider.provideMcpServerDefinitions(token)) ?? []).map((d) => d.label);
    const ours = ((await provider.provideMcpServerDefinitions(token)) ?? []).find(
      (d) => d.label === 'Universe Explorer: Agents Tests',
    );
    assert.ok(ours);
    const config = vscode.workspace.getConfiguration('universeExplorer');
    const told = new Promise<void>((resolve) => {
      const listening = provider.onDidChangeMcpServerDefinitions!(() => {
        listening.dispose();
        resolve();
      });
    });
    await config.update('agents.offerMcpServer', false, vscode.ConfigurationTarget.Global);
    try {
      await told;
      assert.deepEqual(await labels(), []);
      assert.equal(await provider.resolveMcpServerDefinition!(ours, token), undefined, 'a listed one does not start');
    } finally {
      await config.update('agents.offerMcpServer', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.ok((await labels()).includes('Universe Explorer: Agents Tests'));
  });
});
