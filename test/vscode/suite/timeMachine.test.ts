// The data-store time machine's commands: Compare with Time… on a store and History of a Field… on an entry, against
// an emulator whose clock starts hours in the past, so a history written over simulated hours ends before this
// machine's "now". Expectations come from the versions written, never from the code under test.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import { OpenApiClient, type EntryVersion } from '../../../src/api';
import type { Connection } from '../../../src/core/connections';
import type { TreeNode } from '../../../src/core/tree/node';
import type { CompareWithTimeResult } from '../../../src/datastores/commands/compareWithTime';
import type { FieldHistoryResult } from '../../../src/datastores/commands/fieldHistory';
import { askMoment } from '../../../src/datastores/commands/moment';
import type { EntryNode } from '../../../src/datastores/tree';
import { versionTime } from '../../../src/datastores/uris';
import type { TestContext } from '../../../src/extension';
import { TestEmulator } from '../../unit/support/emulator';
import { extensionApi, ScriptedUi, until } from './support';

const KEY = 'time-machine-key';
const U = 123456;
const NAME = 'Time Machine Tests';
const STORE = 'Players';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Five minutes into an hour six hours ago: the history's three writes, two hours apart, all end in the past. */
const START = Math.floor(Date.now() / HOUR) * HOUR - 6 * HOUR + 5 * MINUTE;
const label = (n: TreeNode) => String(n.item().label);

suite('time machine', () => {
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let emulator: TestEmulator;
  let client: OpenApiClient;
  let connection: Connection;
  let dir: string;
  /** Every version written to a key, oldest first. */
  const written = new Map<string, EntryVersion[]>();

  const at = (key: string) => ({ universeId: U, datastoreName: STORE, scope: 'global', entryKey: key });
  async function set(key: string, value: unknown): Promise<void> {
    const v = await client.datastores.setEntry({ ...at(key), raw: JSON.stringify(value) });
    written.set(key, [...(written.get(key) ?? []), v]);
  }
  const version = (key: string, n: number) => written.get(key)![n];

  async function child(parent: TreeNode | undefined, name: string): Promise<TreeNode> {
    const children = await ctx.tree.getChildren(parent);
    const node = children.find((n) => label(n) === name);
    assert.ok(node, `no ${name} in ${children.map(label).join(', ')}`);
    return node;
  }

  async function store(): Promise<TreeNode> {
    return child(await child(await child(await child(undefined, NAME), 'TM Universe'), 'Data Stores'), STORE);
  }

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    emulator = await TestEmulator.start({ apiKeys: [{ key: KEY }], clock: new Date(START).toISOString() });
    client = new OpenApiClient({ baseUrl: emulator.url, apiKey: KEY });
    // Hour 0: a, b, c. Hour 2: a's coins change, c is deleted, d is created. Hour 4: a's sword changes.
    await set('a', { coins: 10, inventory: { sword: 1 } });
    await set('b', 'b1');
    await set('c', 'c1');
    await emulator.advanceClock(2 * HOUR);
    await set('a', { coins: 20, inventory: { sword: 1 } });
    await client.datastores.deleteEntry(at('c'));
    await set('d', 'd1');
    await emulator.advanceClock(2 * HOUR);
    await set('a', { coins: 20, inventory: { sword: 2 } });
    connection = await ctx.connections.add(
      { name: NAME, baseUrl: emulator.url, entryHeaderPrefix: 'platform', universes: [{ id: U, name: 'TM Universe' }] },
      KEY,
    );
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-time-machine-'));
  });

  teardown(async () => {
    ctx.ui = realUi;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  suiteTeardown(async () => {
    await ctx.connections.remove(connection.id);
    await client.close();
    await emulator.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('Compare with Time: a typed time, the NDJSON, the summary, and Show Differences opens the diff of a key', async () => {
    const then = new Date(START + HOUR).toISOString(); // between hour 0 and hour 2
    const file = path.join(dir, 'compare.ndjson');
    const ui = new ScriptedUi()
      .on('pick', /^Compare Players \(scope global\) with a time /, then)
      .on('saveDialog', /^Save the comparison of Players \(scope global\) with /, vscode.Uri.file(file))
      .on('info', /^Players \(scope global\) since /, 'Show Differences')
      .on('pick', /^Players \(scope global\): keys that differ from /, 'a');
    ctx.ui = ui;
    const result = (await vscode.commands.executeCommand(
      'universeExplorer.compareWithTime',
      await store(),
    )) as CompareWithTimeResult;
    assert.ok(result, `no result; messages: ${JSON.stringify(ui.prompts)}`);
    assert.ok(ui.prompts[0].text.includes('superseded versions for 30 days'), ui.prompts[0].text);

    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { key: string; status: string; then?: { version: string }; now?: { version: string } },
      );
    assert.deepEqual(Object.fromEntries(lines.map((l) => [l.key, l.status])), {
      a: 'changed',
      b: 'unchanged',
      c: 'deleted',
      d: 'created',
    });
    const a = lines.find((l) => l.key === 'a')!;
    assert.equal(a.then?.version, version('a', 0).version);
    assert.equal(a.now?.version, version('a', 2).version);
    assert.match(
      ui.messages('info')[0] ?? '',
      /^Players \(scope global\) since .*: 1 changed, 1 created, 1 deleted, 1 unchanged \(4 keys compared in [\d.]+ s; compare\.ndjson lists them\)\.$/,
    );
    assert.deepEqual(
      result.differences.map((d) => `${d.key} ${d.status}`),
      ['a changed', 'c deleted', 'd created'],
    );

    const title = `a.json (version of ${versionTime(version('a', 0).createdTime)}) ↔ a.json (current, ${versionTime(version('a', 2).createdTime)})`;
    const tab = await until('the diff of a', () => {
      const active = vscode.window.tabGroups.activeTabGroup.activeTab;
      return active?.input instanceof vscode.TabInputTextDiff && active;
    });
    assert.equal(tab.label, title);
    assert.ok(!tab.label.includes(version('a', 0).version), tab.label);
    const original = await vscode.workspace.openTextDocument((tab.input as vscode.TabInputTextDiff).original);
    assert.match(original.getText(), /"coins": 10/);
  });

  test('History of a Field: the versions where inventory.sword changed, and the diff of one against the one before', async () => {
    const entry = await child(await store(), 'a');
    const newest = versionTime(version('a', 2).createdTime);
    const ui = new ScriptedUi()
      .on('input', /^History of a field of "a"/, 'inventory.sword')
      .on('pick', /^inventory\.sword in "a": 2 changes found/, newest);
    ctx.ui = ui;
    const result = (await vscode.commands.executeCommand('universeExplorer.fieldHistory', entry)) as FieldHistoryResult;
    assert.ok(result, `no result; messages: ${JSON.stringify(ui.prompts)}`);
    assert.deepEqual(
      result.changes.map((c) => [c.version, c.before, c.after]),
      [
        [version('a', 0).version, undefined, 1],
        [version('a', 2).version, 1, 2],
      ],
    );
    const tab = await until('the diff of the sword change', () => {
      const active = vscode.window.tabGroups.activeTabGroup.activeTab;
      return active?.input instanceof vscode.TabInputTextDiff && active;
    });
    assert.equal(
      tab.label,
      `a.json (version of ${versionTime(version('a', 1).createdTime)}) ↔ a.json (version of ${newest})`,
    );

    const coins = new ScriptedUi().on('input', /^History of a field of "a"/, 'coins');
    ctx.ui = coins;
    const history = (await vscode.commands.executeCommand(
      'universeExplorer.fieldHistory',
      entry as EntryNode,
    )) as FieldHistoryResult;
    assert.deepEqual(
      history.changes.map((c) => [c.before, c.after]),
      [
        [undefined, 10],
        [10, 20],
      ],
    );
  });

  test('a time older than 30 days is refused with the reason, and the prompt asks again', async () => {
    const ui = new ScriptedUi().on('pick', /^Compare Players \(scope global\) with a time /, '31d');
    ctx.ui = ui;
    const result = await vscode.commands.executeCommand('universeExplorer.compareWithTime', await store());
    assert.equal(result, undefined); // the second prompt is dismissed: a cancel
    assert.equal(ui.prompts.length, 2, JSON.stringify(ui.prompts));
    assert.match(
      ui.prompts[1].text,
      /^Compare Players \(scope global\) with a time: .* is more than 30 days ago: the service keeps superseded versions for 30 days, so the oldest time it can show is .*\. Choose another time /,
    );
    assert.deepEqual(ui.messages('error'), []);
  });

  test('for an entry, the moment prompt offers "just before" each recent version', async () => {
    const entry = (await child(await store(), 'a')) as EntryNode;
    const middle = version('a', 1);
    const ui = new ScriptedUi().on(
      'pick',
      /^Restore a to /,
      `Just before version of ${versionTime(middle.createdTime)}`,
    );
    const time = await askMoment(ui, {
      title: 'Restore a to',
      entry: { model: ctx.datastores, address: entry.address, signal: new AbortController().signal },
    });
    assert.equal(time.toISOString(), new Date(Date.parse(middle.createdTime) - 1).toISOString());
  });
});
