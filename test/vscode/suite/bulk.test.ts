// Export… and Import… on the Local Sandbox's data store node, in a real VS Code: the dialogs (answered by a
// ScriptedUi), the file written, the summary shown and the failures file.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { ExportResult } from '../../../src/api';
import type { OperationReview } from '../../../src/datastores/operations/reviewFlow';
import type { TestContext } from '../../../src/extension';
import { allScopes } from '../../../src/datastores/listState';
import type { DataStoreNode } from '../../../src/datastores/tree';
import { addFault, cutShortEntryReadV2 } from '../faults';
import { applyReview, extensionApi, label, reviewCounts, ScriptedUi, until } from './support';

const lines = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
/** The entry lines of an export file: every line after its header. */
const entryLines = (file: string) => lines(file).filter((l) => !l.startsWith('{"export":'));
const INVENTORY_ENTRIES = 65; // the demo seed: 40 in global, 25 in season2

suite('export and import', () => {
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let dir: string;
  let ui: ScriptedUi;

  async function sandboxStore(name: string): Promise<DataStoreNode> {
    const sandbox = (await ctx.tree.getChildren()).find((n) => label(n) === 'Local Sandbox');
    assert.ok(sandbox, 'no Local Sandbox in the tree');
    const [universe] = await ctx.tree.getChildren(sandbox);
    const stores = (await ctx.tree.getChildren(universe)).find((n) => label(n) === 'Data Stores');
    assert.ok(stores, 'no Data Stores group');
    const children = await ctx.tree.getChildren(stores);
    // The suite is a bundle of its own, so nodes are told apart by contextValue, not instanceof.
    const store = children.find((n) => label(n) === name && String(n.item().contextValue).startsWith('dataStore'));
    assert.ok(store, `no store ${name} in ${children.map(label).join(', ')}`);
    return store as DataStoreNode;
  }

  function answer(): ScriptedUi {
    ui = new ScriptedUi();
    ctx.ui = ui;
    return ui;
  }

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    await vscode.commands.executeCommand('universeExplorer.startSandbox');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-bulk-vscode-'));
  });

  teardown(async () => {
    ctx.ui = realUi;
    ctx.datastores.lists.setFilter((await sandboxStore('Inventory')).ref, { scope: 'global' });
  });

  suiteTeardown(async () => {
    const client = await ctx.connections.client('sandbox');
    for (const key of ['bulk-a', 'bulk-b']) {
      await client.datastores
        .deleteEntry({ universeId: 123456, datastoreName: 'Inventory', scope: 'bulk-test', entryKey: key })
        .catch(() => undefined);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('Export… writes every entry of the store in all scopes to the chosen file and shows the count', async () => {
    const store = await sandboxStore('Inventory');
    ctx.datastores.lists.setFilter(store.ref, { scope: allScopes });
    const file = path.join(dir, 'inventory.ndjson');
    answer().on('saveDialog', /^Export Inventory \(all scopes\)$/, vscode.Uri.file(file));
    ctx.log.info('test: the export starts');
    const result = (await vscode.commands.executeCommand('universeExplorer.exportDataStore', store)) as ExportResult;
    assert.deepEqual(ui.messages('error'), []);
    assert.equal(result?.exported, INVENTORY_ENTRIES);
    // The sandbox speaks cloud v2: the export lists and reads through it, 256 keys a page.
    const logged = ctx.log.lines();
    const requests = logged.slice(logged.lastIndexOf('test: the export starts')).join('\n');
    assert.match(
      requests,
      /GET \/cloud\/v2\/universes\/123456\/data-stores\/Inventory\/scopes\/-\/entries\?maxPageSize/,
    );
    assert.match(
      requests,
      /GET \/cloud\/v2\/universes\/123456\/data-stores\/Inventory\/scopes\/\w+\/entries\/[^?\s]+@latest/,
    );
    assert.doesNotMatch(requests, /datastores\/v1/);
    assert.deepEqual(JSON.parse(lines(file)[0]), {
      export: { universeId: 123456, datastoreName: 'Inventory', allScopes: true },
    });
    const written = entryLines(file).map((l) => JSON.parse(l));
    assert.equal(written.length, INVENTORY_ENTRIES);
    assert.deepEqual([...new Set(written.map((e) => e.scope))].sort(), ['global', 'season2']);
    assert.ok(written.every((e) => typeof e.version === 'string' && 'value' in e && Array.isArray(e.userIds)));
    assert.match(
      ui.messages('info').join('\n'),
      /^Exported 65 entries of Inventory \(all scopes\) to inventory\.ndjson in [\d.]+ s\.$/m,
    );
  });

  test('Export… into the same file again asks, and Continue adds nothing that is already there', async () => {
    const store = await sandboxStore('Inventory');
    ctx.datastores.lists.setFilter(store.ref, { scope: allScopes });
    const file = path.join(dir, 'inventory.ndjson');
    const before = fs.readFileSync(file, 'utf8');
    answer()
      .on('saveDialog', /^Export Inventory/, vscode.Uri.file(file))
      .on('pick', /inventory\.ndjson already holds entries/, 'Continue');
    const result = (await vscode.commands.executeCommand('universeExplorer.exportDataStore', store)) as ExportResult;
    assert.deepEqual([result?.exported, result?.resumed], [0, INVENTORY_ENTRIES]);
    assert.equal(fs.readFileSync(file, 'utf8'), before);
    assert.match(ui.messages('info').join('\n'), /65 were already in the file/);
  });

  test('Cancel keeps the entries written so far and says how to continue; exporting again finishes without duplicates', async () => {
    const store = await sandboxStore('Inventory');
    ctx.datastores.lists.setFilter(store.ref, { scope: allScopes });
    const file = path.join(dir, 'cancelled.ndjson');
    const reports: string[] = [];
    answer().on('saveDialog', /^Export Inventory/, vscode.Uri.file(file));
    ui.progress = (title, task) => {
      const controller = new AbortController();
      return task(controller.signal, (message) => {
        reports.push(`${title}: ${message}`);
        controller.abort(); // the Cancel button, at the first report
      });
    };
    assert.equal(await vscode.commands.executeCommand('universeExplorer.exportDataStore', store), undefined);
    assert.match(reports[0], /^Exporting Inventory \(all scopes\): \d+ entries · [\d,]+\/s$/);
    assert.deepEqual(ui.messages('error'), [], 'a cancel is no error');
    const kept = entryLines(file).length;
    assert.ok(kept < INVENTORY_ENTRIES, `${kept} lines after the cancel`);
    assert.match(
      ui.messages('info').join('\n'),
      new RegExp(
        `stopped with ${kept} ${kept === 1 ? 'entry' : 'entries'} in cancelled\\.ndjson\\. Export into the same file again`,
      ),
    );

    answer()
      .on('saveDialog', /^Export Inventory/, vscode.Uri.file(file))
      .on('pick', /already holds entries/, 'Continue');
    const result = (await vscode.commands.executeCommand('universeExplorer.exportDataStore', store)) as ExportResult;
    assert.deepEqual([result?.resumed, result?.exported], [kept, INVENTORY_ENTRIES - kept]);
    const keys = entryLines(file).map((l) => `${JSON.parse(l).scope}/${JSON.parse(l).key}`);
    assert.equal(new Set(keys).size, INVENTORY_ENTRIES);
    assert.equal(keys.length, INVENTORY_ENTRIES);
  });

  test('Import… in Create Only mode: the dry run in a review, then it skips existing keys, adds new ones and lists the failed line', async () => {
    const store = await sandboxStore('Inventory');
    const input = path.join(dir, 'to-import.ndjson');
    const extra = [
      '{"scope":"bulk-test","key":"bulk-a","value":{"n":12345678901234567890},"attributes":{"from":"import"},"userIds":[7]}',
      '{"scope":"bulk-test","key":"broken",',
      JSON.stringify({ scope: 'bulk-test', key: 'bulk-b', value: [1, 2] }),
    ];
    fs.writeFileSync(input, fs.readFileSync(path.join(dir, 'inventory.ndjson'), 'utf8') + extra.join('\n') + '\n');
    answer()
      .on('openDialog', /^Import into Inventory$/, [vscode.Uri.file(input)])
      .on('pick', /^Import to-import\.ndjson into Inventory/, 'Create Only')
      .on(
        'warn',
        /^Take a snapshot of universe 123456 before importing to-import\.ndjson into Inventory\?/,
        'Continue Without',
      );
    const review = (await vscode.commands.executeCommand('universeExplorer.importDataStore', store)) as
      OperationReview | undefined;
    assert.deepEqual(ui.messages('error'), []);
    assert.ok(review, `no review; prompts: ${JSON.stringify(ui.prompts)}`);
    assert.deepEqual(reviewCounts(review.panel), { create: 2, skip: INVENTORY_ENTRIES, invalid: 1 });
    assert.match(
      review.panel.state.summary,
      /^2 to create, 0 to overwrite, 65 to skip \(already there\), 1 invalid \(68 lines\); \d+ B to write\.$/,
    );
    assert.deepEqual(await applyReview(review), { written: 2, skipped: INVENTORY_ENTRIES, failed: 1 });
    assert.equal(
      review.panel.state.summary,
      'Imported to-import.ndjson into Inventory: 2 written, 65 skipped (already there), 1 failed.',
    );
    const [failure] = review.panel.rows(0, 100).filter((r) => r.kind === 'failed');
    assert.equal(failure.version, `line ${1 + INVENTORY_ENTRIES + 2}`); // after the export's header and entries
    assert.match(failure.note ?? '', /not valid JSON/);
    assert.ok(!fs.existsSync(`${input}.failures.ndjson`), 'nothing is written next to the input');
    const client = await ctx.connections.client('sandbox');
    const added = await client.datastores.getEntry({
      universeId: 123456,
      datastoreName: 'Inventory',
      scope: 'bulk-test',
      entryKey: 'bulk-a',
    });
    assert.equal(added.raw.toString(), '{"n":12345678901234567890}');
    assert.deepEqual([added.attributes, added.userIds], [{ from: 'import' }, [7]]);
  });

  test('an entry that cannot be read is listed with its reason in a failures file; the export goes on and says so', async () => {
    const store = await sandboxStore('Inventory');
    const file = path.join(dir, 'with-failure.ndjson');
    await addFault(ctx.connections.get('sandbox')!.baseUrl, cutShortEntryReadV2(1));
    answer()
      .on('saveDialog', /^Export Inventory \(scope global\)$/, vscode.Uri.file(file))
      .on('warn', /could not be read/, 'Open Failures');
    const result = (await vscode.commands.executeCommand('universeExplorer.exportDataStore', store)) as ExportResult;
    assert.deepEqual([result?.exported, result?.failed], [39, 1]);
    assert.equal(entryLines(file).length, 39);
    assert.match(
      ui.messages('warn').join('\n'),
      /^Exported 39 entries of Inventory \(scope global\) to with-failure\.ndjson in [\d.]+ s; 1 entry could not be read and is listed with the reason in with-failure\.ndjson\.failures\.ndjson \(exporting into the same file again tries them again\)\.$/m,
    );
    const failures = lines(`${file}.failures.ndjson`).map((l) => JSON.parse(l));
    assert.equal(failures.length, 1);
    assert.equal(failures[0].scope, 'global');
    assert.ok(!entryLines(file).some((l) => JSON.parse(l).key === failures[0].key), 'the failed entry was exported');
    assert.match(JSON.stringify(failures[0]), /not valid JSON/);
    await until(
      'the failures file open',
      () => vscode.window.activeTextEditor?.document.uri.fsPath === `${file}.failures.ndjson`,
    );
  });

  test('dismissing the dialog does nothing and shows nothing', async () => {
    const store = await sandboxStore('Inventory');
    answer();
    assert.equal(await vscode.commands.executeCommand('universeExplorer.importDataStore', store), undefined);
    assert.equal(await vscode.commands.executeCommand('universeExplorer.exportDataStore', store), undefined);
    assert.deepEqual(
      ui.prompts.map((p) => p.kind),
      ['openDialog', 'saveDialog'],
    );
  });
});
