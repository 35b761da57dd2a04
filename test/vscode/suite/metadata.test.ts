// Metadata is never lost, in a real VS Code: an entry written with user ids and attributes keeps them exactly after
// each editor path that changes its value (save, Re-create, Increment and its Undo, Restore This Version and its
// Undo, Undo of a Delete, Restore to Time and Undo a Restore…, Import…). Edit Attributes and User IDs is left out: it
// changes them on purpose. Each test reads the entry back with the suite's own client and checks that the value
// really changed (a path that wrote nothing would keep the metadata for free). The emulator's clock starts hours in
// the past, so the history Restore to Time goes back into ends before this machine's "now". The suite runs once on
// a v1 connection and once on a cloud v2 one (what Add Connection… and the sandbox make), each with its own emulator.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import { exportDataStore, NotFoundError, OpenApiClient } from '../../../src/api';
import type { ReviewPanel } from '../../../src/core/review/panel';
import type { OperationReview } from '../../../src/datastores/operations/reviewFlow';
import type { TreeNode } from '../../../src/core/tree/node';
import type { EntryNode } from '../../../src/datastores/tree';
import { entryUri } from '../../../src/datastores/editor/uris';
import type { Connection } from '../../../src/core/connections';
import type { TestContext } from '../../../src/extension';
import { TestEmulator } from '../../unit/support/emulator';
import { SuiteService } from './service';
import {
  applyReview,
  extensionApi,
  isEntry,
  reviewCounts,
  isVersion,
  label,
  openEditor,
  replaceText,
  ScriptedUi,
  until,
  revertAndCloseAll,
} from './support';

const U = 7373;
const KEY = 'metadata-tests-key';
const UNIVERSE = 'Metadata Universe';
const USERS = [1234, 5678];
const ATTRIBUTES = { tier: 'gold', n: 1 };
const META = { userIds: USERS, attributes: ATTRIBUTES };
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Five minutes into an hour eight hours ago: hour 0 of the history; its changes are at hour 2. */
const START = Math.floor(Date.now() / HOUR) * HOUR - 8 * HOUR + 5 * MINUTE;

for (const api of ['v1', 'v2'] as const) {
  suite(`metadata is never lost (a ${api} connection)`, () => {
    const NAME = `Metadata Tests ${api}`;
    let ctx: TestContext;
    let realUi: TestContext['ui'];
    let service: SuiteService;
    let emulator: TestEmulator;
    let client: OpenApiClient;
    let connection: Connection;
    let ui: ScriptedUi;
    /** The raw value each seeded key held when the suite set it up (hour 0, then hour 2). */
    const seeded = new Map<string, string[]>();

    const at = (datastoreName: string, key: string) => ({
      universeId: U,
      datastoreName,
      scope: 'global',
      entryKey: key,
    });
    const uriOf = (datastoreName: string, key: string) =>
      entryUri({ connectionId: connection.id, universeId: U, datastoreName, scope: 'global', key });

    async function seed(datastoreName: string, key: string, value: unknown): Promise<string> {
      await client.datastores.setEntry({ ...at(datastoreName, key), raw: JSON.stringify(value), ...META });
      const raw = (await client.datastores.getEntry(at(datastoreName, key))).raw.toString();
      const id = `${datastoreName}/${key}`;
      seeded.set(id, [...(seeded.get(id) ?? []), raw]);
      return raw;
    }

    /** The entry holds `raw` (not `before`: the value really changed) and exactly the seeded user ids and attributes. */
    async function assertKept(datastoreName: string, key: string, before: string, raw: string): Promise<void> {
      const e = await client.datastores.getEntry(at(datastoreName, key));
      assert.notEqual(e.raw.toString(), before, `${key}: the value did not change, so nothing was written`);
      assert.equal(e.raw.toString(), raw, `${key}: not the value expected`);
      assert.deepEqual(
        { userIds: e.userIds, attributes: e.attributes },
        { userIds: USERS, attributes: ATTRIBUTES },
        `${key}: user ids or attributes lost or changed`,
      );
    }

    async function rawOf(datastoreName: string, key: string): Promise<string | undefined> {
      try {
        return (await client.datastores.getEntry(at(datastoreName, key))).raw.toString();
      } catch (error) {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      }
    }

    /** A ScriptedUi for the next step; on a v2 connection, the snapshot offered before a restore or import is taken. */
    function answer(): ScriptedUi {
      ui = new ScriptedUi().on('warn', /^Take a snapshot of universe /, 'Take Snapshot', false);
      ctx.ui = ui;
      return ui;
    }

    async function child(parent: TreeNode | undefined, name: string): Promise<TreeNode> {
      const children = await ctx.tree.getChildren(parent);
      const node = children.find((n) => label(n) === name);
      assert.ok(node, `no ${name} in ${children.map(label).join(', ')}`);
      return node;
    }

    const storeNode = async (name: string) =>
      child(await child(await child(await child(undefined, NAME), UNIVERSE), 'Data Stores'), name);

    async function entryNode(store: string, key: string): Promise<EntryNode> {
      const node = (await ctx.tree.getChildren(await storeNode(store))).find((n) => isEntry(n) && n.entry.key === key);
      assert.ok(node && isEntry(node), `no entry ${key} in ${store}`);
      return node;
    }

    suiteSetup(async () => {
      ctx = (await extensionApi()).testing.ctx;
      realUi = ctx.ui;
      service = await SuiteService.start(KEY, { clock: new Date(START).toISOString() });
      ({ emulator, client } = service);
      // Hour 0.
      await seed('Meta', 'history', { level: 1 });
      await seed('MetaTime', 'changed', { level: 1 });
      await seed('MetaTime', 'gone', { level: 7 });
      await emulator.advanceClock(2 * HOUR);
      // Hour 2: the history moves on with the same user ids and attributes; "gone" is deleted.
      await seed('Meta', 'history', { level: 2 });
      await seed('MetaTime', 'changed', { level: 2 });
      await client.datastores.deleteEntry(at('MetaTime', 'gone'));
      for (const key of ['saved', 'recreated', 'doomed']) await seed('Meta', key, { coins: 1 });
      await seed('Meta', 'counter', 10);
      await seed('MetaImport', 'plain', { coins: 1 });
      await seed('MetaRoundTrip', 'exported', { coins: 1 });
      connection = await service.connect(ctx, NAME, [{ id: U, name: UNIVERSE }]);
      if (api === 'v2') {
        connection.datastoresApi = 'v2';
        await ctx.connections.update(connection);
      }
      assert.equal(ctx.datastores.apiVersion({ connectionId: connection.id, universeId: U }), api);
    });

    teardown(async () => {
      ctx.ui = realUi;
      await revertAndCloseAll();
    });

    suiteTeardown(() => service.close(ctx));

    test('save of an edited entry document', async () => {
      const before = seeded.get('Meta/saved')![0];
      answer();
      const editor = await openEditor(uriOf('Meta', 'saved'));
      await replaceText(editor, '{\n  "coins": 2\n}\n');
      await vscode.commands.executeCommand('universeExplorer.saveEntry');
      await until('the save', () => !editor.document.isDirty);
      assert.deepEqual([...ui.messages('error'), ...ui.messages('warn')], []);
      await assertKept('Meta', 'saved', before, '{"coins":2}');
    });

    test('save of an entry deleted meanwhile, with Re-create', async () => {
      const before = seeded.get('Meta/recreated')![0];
      const editor = await openEditor(uriOf('Meta', 'recreated'));
      await replaceText(editor, '{"coins": 3}');
      await client.datastores.deleteEntry(at('Meta', 'recreated'));
      answer().on('warn', /^"recreated" \(Meta, scope global\) was deleted in the service/, 'Re-create');
      await vscode.commands.executeCommand('universeExplorer.saveEntry');
      await until('the save', () => !editor.document.isDirty);
      await assertKept('Meta', 'recreated', before, '{"coins":3}');
    });

    test('Increment, then Undo of another increment', async () => {
      answer().on('input', /^Increment counter by/, '5');
      await vscode.commands.executeCommand('universeExplorer.incrementEntry', await entryNode('Meta', 'counter'));
      assert.deepEqual(ui.messages('error'), []);
      await assertKept('Meta', 'counter', '10', '15');

      const increments = async () =>
        (await emulator.requests({ method: 'POST', path: '/entries/entry/increment' })).filter((r) => r.status < 300)
          .length;
      const done = await increments();
      answer()
        .on('input', /^Increment counter by/, '3')
        .on('info', /^counter is now 18 /, 'Undo');
      await vscode.commands.executeCommand('universeExplorer.incrementEntry', await entryNode('Meta', 'counter'));
      await until('the increment undone', () =>
        ui.messages('info').includes('Incremented "counter" by -3, undoing the increment.'),
      );
      assert.deepEqual(ui.messages('error'), []);
      assert.equal((await increments()) - done, 2, 'the increment and its undo');
      // 18 after the increment, 15 after its undo: the metadata after both.
      await assertKept('Meta', 'counter', '18', '15');
    });

    test('Restore This Version on a version row, then Undo of another restore', async () => {
      const [hour0, hour2] = seeded.get('Meta/history')!;
      const versions = (await ctx.tree.getChildren(await entryNode('Meta', 'history'))).filter(isVersion);
      assert.equal(versions.length, 2, 'the two versions of the history');
      const [newest, oldest] = versions;
      answer()
        .on('warn', /^Restore "history" to the version of /, 'Restore')
        .on('info', /^Restored "history"/, undefined);
      await vscode.commands.executeCommand('universeExplorer.restoreVersion', oldest);
      assert.deepEqual(ui.messages('error'), []);
      await assertKept('Meta', 'history', hour2, hour0);

      // Restore the hour-2 version with Undo: Undo writes the version before it (hour 0's value) as a new version.
      answer()
        .on('warn', /^Restore "history" to the version of /, 'Restore')
        .on('info', /^Restored "history"/, 'Undo');
      const written = (await vscode.commands.executeCommand('universeExplorer.restoreVersion', newest)) as {
        version: string;
      };
      assert.ok(written?.version, 'Restore This Version returned no version');
      await until('the restore undone', () =>
        ui.messages('info').includes('"history" holds its earlier value again, as a new version.'),
      );
      assert.deepEqual(ui.messages('error'), []);
      const now = await client.datastores.getEntry(at('Meta', 'history'));
      assert.notEqual(now.version, written.version, 'Undo wrote nothing');
      await assertKept('Meta', 'history', hour2, hour0);
    });

    test('Delete, then Undo from its confirmation', async () => {
      const before = seeded.get('Meta/doomed')![0];
      answer()
        .on('warn', /^Delete "doomed"/, 'Delete')
        .on('info', /^Deleted "doomed"/, 'Undo');
      await vscode.commands.executeCommand('universeExplorer.deleteEntry', await entryNode('Meta', 'doomed'));
      await until('the delete undone', () =>
        ui.messages('info').includes('"doomed" holds its earlier value again, as a new version.'),
      );
      assert.deepEqual(ui.messages('error'), []);
      const versions = await client.datastores.listEntryVersions({ ...at('Meta', 'doomed'), sortOrder: 'Descending' });
      assert.deepEqual(
        versions.items.slice(0, 2).map((v) => v.deleted),
        [false, true],
        'the history ends with the delete and the re-creation',
      );
      // The value is the one before the delete; "changed" here is from deleted back to it.
      const e = await client.datastores.getEntry(at('Meta', 'doomed'));
      assert.deepEqual([e.raw.toString(), e.userIds, e.attributes], [before, USERS, ATTRIBUTES]);
    });

    test('Restore to Time: a changed key and a re-created deleted key, then Undo a Restore…', async () => {
      const [changed0, changed2] = seeded.get('MetaTime/changed')!;
      const [gone0] = seeded.get('MetaTime/gone')!;
      answer()
        .on('pick', /^Restore MetaTime \(scope global\) to a time /, new Date(START + HOUR).toISOString())
        .on('pick', /^Restore MetaTime to .*: which keys\?/, 'Every Key');
      const review = (await vscode.commands.executeCommand(
        'universeExplorer.restoreToTime',
        await storeNode('MetaTime'),
      )) as OperationReview | undefined;
      assert.ok(review, `no review; prompts: ${JSON.stringify(ui.prompts)}`);
      await review.panel.receive({ type: 'button', id: 'apply' });
      const done = (panel: ReviewPanel) =>
        Object.fromEntries(panel.state.kinds.filter((k) => k.count).map((k) => [k.id, k.count]));
      assert.deepEqual(done(review.panel), { written: 1, recreated: 1 });
      await assertKept('MetaTime', 'changed', changed2, changed0);
      const gone = await client.datastores.getEntry(at('MetaTime', 'gone'));
      assert.deepEqual(
        [gone.raw.toString(), gone.userIds, gone.attributes],
        [gone0, USERS, ATTRIBUTES],
        're-created with the value and metadata of the moment',
      );

      answer().on(
        'pick',
        /^Undo which restore of MetaTime\?/,
        `Restore of MetaTime (scope global) to ${review.op.when}`,
      );
      const undo = (await vscode.commands.executeCommand(
        'universeExplorer.undoRestore',
        await storeNode('MetaTime'),
      )) as OperationReview | undefined;
      assert.ok(undo, `no review; prompts: ${JSON.stringify(ui.prompts)}`);
      await undo.panel.receive({ type: 'button', id: 'apply' });
      assert.deepEqual(done(undo.panel), { written: 1, deleted: 1 });
      await assertKept('MetaTime', 'changed', changed0, changed2);
      assert.equal(await rawOf('MetaTime', 'gone'), undefined, 'the re-creation undone');
    });

    test('Import… in Overwrite mode, a line with a key and a value only', async () => {
      const before = seeded.get('MetaImport/plain')![0];
      const file = path.join(service.dir, 'plain.ndjson');
      fs.writeFileSync(file, `${JSON.stringify({ scope: 'global', key: 'plain', value: { coins: 2 } })}\n`);
      answer()
        .on('openDialog', /^Import into MetaImport$/, [vscode.Uri.file(file)])
        .on('pick', /^Import plain\.ndjson into MetaImport/, 'Overwrite');
      const review = (await vscode.commands.executeCommand(
        'universeExplorer.importDataStore',
        await storeNode('MetaImport'),
      )) as OperationReview | undefined;
      assert.ok(review, `no review; prompts: ${JSON.stringify(ui.prompts)}`);
      assert.deepEqual(reviewCounts(review.panel), { overwrite: 1 });
      assert.deepEqual(await applyReview(review), { written: 1 });
      await assertKept('MetaImport', 'plain', before, '{"coins":2}');
    });

    test('Import… in Overwrite mode of an export file puts the value back with its metadata', async () => {
      const exported = seeded.get('MetaRoundTrip/exported')![0];
      const file = path.join(service.dir, 'roundtrip.ndjson');
      await exportDataStore(client, { universeId: U, datastoreName: 'MetaRoundTrip', file, resume: false });
      const changed = await seed('MetaRoundTrip', 'exported', { coins: 99 });
      answer()
        .on('openDialog', /^Import into MetaRoundTrip$/, [vscode.Uri.file(file)])
        .on('pick', /^Import roundtrip\.ndjson into MetaRoundTrip/, 'Overwrite');
      const review = (await vscode.commands.executeCommand(
        'universeExplorer.importDataStore',
        await storeNode('MetaRoundTrip'),
      )) as OperationReview | undefined;
      assert.ok(review, `no review; prompts: ${JSON.stringify(ui.prompts)}`);
      assert.deepEqual(reviewCounts(review.panel), { overwrite: 1 });
      assert.deepEqual(await applyReview(review), { written: 1 });
      await assertKept('MetaRoundTrip', 'exported', changed, exported);
    });
  });
}
