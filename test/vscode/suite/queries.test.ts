// Queries in a real VS Code, against an emulator this suite starts, with real DuckDB: Build Query Index… (stores
// picked), the Query Index row, Query Data… and Run Query on a query document, completions (columns, functions, the
// JSON fields seen in the index), the results panel's host (windows, sort, CSV that is formula-safe, NDJSON, a row
// opening its entry), Find Value…, Refresh Query Index, Export Index as Parquet…, Load Query Index from Export
// File…, the time left of a first build, and the errors (no index yet, SQL DuckDB refuses, a statement that writes,
// an export of another universe).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import { exportDataStore } from '../../../src/api';
import type { IndexedPart } from '../../../src/query';
import type { TestContext } from '../../../src/extension';
import type { ResultPanel } from '../../../src/queries/results/panel';
import { parseCsv } from '../../unit/support/csv';
import { SuiteService } from './service';
import { extensionApi, label, replaceText, ScriptedUi, universeChild, until } from './support';

const U = 8181;
const KEY = 'query-tests-key';
const NAME = 'Query Tests';
const UNIVERSE = 'Query Universe';

const PLAYERS: Record<string, unknown> = {
  Player_1: { name: 'Alice', coins: 2001, note: '=HYPERLINK("x")' },
  Player_2: { name: 'bob', coins: 50, note: '+cmd', stash: { sword: 1 } },
  Player_3: { name: 'Carol', coins: 300, tag: 'Player_2001' },
};
const INVENTORY: Record<string, unknown> = {
  Player_1: { items: ['sword'] },
  Player_2: { items: ['shield', '@home'] },
};

suite('queries: the query index, query documents and results', function () {
  this.timeout(120_000);
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let service: SuiteService;
  let ui: ScriptedUi;
  let connectionId: string;

  function answer(): ScriptedUi {
    ui = new ScriptedUi();
    ctx.ui = ui;
    return ui;
  }

  const header = () => `-- universe: ${connectionId}/${U}`;

  /** Opens a query document through Query Data… and puts `sql` under its header. */
  async function queryDocument(sql: string): Promise<vscode.TextDocument> {
    const uri = (await vscode.commands.executeCommand(
      'universeExplorer.queryData',
      await universeChild(ctx.tree, NAME, 'Data Stores'),
    )) as vscode.Uri;
    const editor = await until(
      'the query editor',
      () =>
        vscode.window.activeTextEditor?.document.uri.toString() === uri.toString() && vscode.window.activeTextEditor,
    );
    assert.match(editor.document.getText(), new RegExp(`^${header()}\n`));
    assert.equal(editor.document.languageId, 'universe-query');
    await replaceText(editor, `${header()}\n${sql}\n`);
    return editor.document;
  }

  /** Our completions at a position (VS Code's word suggestions are not among them). */
  async function completions(
    document: vscode.TextDocument,
    position: vscode.Position,
    trigger?: string,
  ): Promise<vscode.CompletionItem[]> {
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      document.uri,
      position,
      trigger,
    );
    return list.items.filter((i) => i.kind !== vscode.CompletionItemKind.Text);
  }

  /** The position just after the first `text` on a line of the document. */
  const after = (document: vscode.TextDocument, line: number, text: string): vscode.Position => {
    const at = document.lineAt(line).text.indexOf(text);
    assert.ok(at >= 0, `${text} on line ${line}`);
    return new vscode.Position(line, at + text.length);
  };

  const itemLabel = (i: vscode.CompletionItem): string => (typeof i.label === 'string' ? i.label : i.label.label);
  const byLabel = (items: vscode.CompletionItem[]) => new Map(items.map((i) => [itemLabel(i), i]));
  const inserted = (i: vscode.CompletionItem | undefined): string | undefined =>
    i?.insertText instanceof vscode.SnippetString ? i.insertText.value : i?.insertText;

  async function run(document: vscode.TextDocument): Promise<ResultPanel | undefined> {
    return (await vscode.commands.executeCommand('universeExplorer.runQuery', document.uri)) as ResultPanel | undefined;
  }

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    service = await SuiteService.start(KEY);
    for (const [key, value] of Object.entries(PLAYERS)) {
      await service.client.datastores.setEntry({
        universeId: U,
        datastoreName: 'PlayerData',
        scope: 'global',
        entryKey: key,
        value,
      });
    }
    for (const [key, value] of Object.entries(INVENTORY)) {
      await service.client.datastores.setEntry({
        universeId: U,
        datastoreName: 'Inventory',
        scope: 'global',
        entryKey: key,
        value,
      });
    }
    await service.client.datastores.setEntry({
      universeId: U,
      datastoreName: 'Other',
      scope: 'global',
      entryKey: 'x',
      value: 2001,
    });
    connectionId = (await service.connect(ctx, NAME, [{ id: U, name: UNIVERSE }])).id;
  });

  teardown(() => {
    ctx.ui = realUi;
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await ctx.queryIndexes.index({ connectionId, universeId: U }).close();
    await service.close(ctx);
  });

  test('before the index is built, completions offer the table, its columns and functions, and open no index', async () => {
    const document = await queryDocument('SELECT  FROM entries');
    const items = byLabel(await completions(document, new vscode.Position(1, 7)));
    for (const name of ['entries', 'index_info', 'store', 'key', 'value', 'user_ids', 'json_extract', 'list_contains'])
      assert.ok(items.has(name), `${name} is offered`);
    assert.equal(items.get('user_ids')?.detail, 'BIGINT[]');
    assert.equal(items.get('value')?.detail, 'JSON');
    assert.equal(inserted(items.get('list_contains')), 'list_contains(${1:user_ids}, ${2:2001})');
    assert.ok(![...items.keys()].includes('coins'), 'no JSON fields without an index');
    assert.equal(fs.existsSync(ctx.queryIndexes.index({ connectionId, universeId: U }).file), false, 'no index opened');
  });

  test('a query before the index is built says to build it first', async () => {
    const document = await queryDocument('SELECT * FROM entries');
    answer();
    assert.equal(await run(document), undefined);
    const [message] = ui.messages('error');
    assert.match(message, /^Failed to run the query: Query Universe \(8181\) on Query Tests has no query index yet/);
    assert.match(message, /Build Query Index…/);
    assert.equal(label(await universeChild(ctx.tree, NAME, 'Query Index')), 'Query Index');
    assert.equal((await universeChild(ctx.tree, NAME, 'Query Index')).item().description, 'not built');
  });

  test('Build Query Index… indexes the stores picked, and the Query Index row says what it covers', async () => {
    answer().on('pickMany', /^Build Query Index of Query Universe/, ['PlayerData', 'Inventory']);
    const parts = (await vscode.commands.executeCommand(
      'universeExplorer.buildQueryIndex',
      await universeChild(ctx.tree, NAME, 'Data Stores'),
    )) as IndexedPart[];
    assert.deepEqual(ui.messages('error'), []);
    assert.deepEqual(
      parts.map((p) => [p.store, p.entries]),
      [
        ['Inventory', 2],
        ['PlayerData', 3],
      ],
    );
    assert.match(ui.messages('info')[0], /Inventory, PlayerData · 5 entries · as of \d\d:\d\d, just now/);
    const row = await until('the row to show the index', async () => {
      const item = (await universeChild(ctx.tree, NAME, 'Query Index')).item();
      return item.contextValue === 'queryIndex.built' && item;
    });
    assert.match(String(row.description), /^Inventory, PlayerData · 5 entries · as of \d\d:\d\d, just now$/);
    assert.match(String(row.tooltip), /no change feed/);
  });

  test("completions offer the JSON fields seen in the index: paths inside value->>'…', value->>'…' elsewhere", async () => {
    const document = await queryDocument(
      [
        'SELECT  FROM entries',
        "WHERE value->>'' = 'x'",
        "  AND value->'stash'->>'' IS NOT NULL",
        "  AND json_extract(value, '$.st') IS NOT NULL -- value->>'",
      ].join('\n'),
    );
    // Plain SQL: the columns, and each field as value->>'<path>', the most common first.
    const sql = await completions(document, new vscode.Position(1, 7));
    const fields = sql.filter((i) => typeof i.label !== 'string');
    assert.deepEqual(fields.map((i) => [itemLabel(i), inserted(i)]).slice(0, 2), [
      ['coins', "value->>'coins'"],
      ['name', "value->>'name'"],
    ]);
    const stash = byLabel(sql).get('stash.sword');
    assert.equal(inserted(stash), "value->>'$.stash.sword'");
    assert.equal(stash?.detail, 'number');
    assert.equal(stash?.documentation, 'Seen in 1 of 5 entries looked at.');
    assert.equal(byLabel(sql).get('items')?.detail, 'array');
    assert.ok(byLabel(sql).has('value'), 'the columns too');

    // Inside value->>'…': the paths, as DuckDB reads them there.
    const inString = await completions(document, after(document, 2, "value->>'"), "'");
    const paths = byLabel(inString);
    assert.equal(inserted(paths.get('coins')), 'coins');
    assert.equal(inserted(paths.get('stash.sword')), '$.stash.sword');
    assert.equal(paths.get('coins')?.documentation, 'Seen in 3 of 5 entries looked at.');
    assert.ok(!paths.has('value') && !paths.has('entries'), 'no columns in a string');
    assert.deepEqual((paths.get('coins')?.range as vscode.Range).start, after(document, 2, "value->>'"));

    // value->'stash'->>'…': the fields inside stash.
    const inStash = await completions(document, after(document, 3, "->>'"), "'");
    assert.deepEqual(
      inStash.map((i) => [itemLabel(i), inserted(i)]),
      [['sword', 'sword']],
    );

    // json_extract(value, '$.st…'): typed as a path, written as one.
    const inExtract = byLabel(await completions(document, after(document, 4, "'$.st")));
    assert.equal(inserted(inExtract.get('stash.sword')), '$.stash.sword');
    assert.equal(inExtract.get('stash.sword')?.filterText, '$.stash.sword');

    // In a comment: nothing.
    assert.deepEqual(await completions(document, document.lineAt(4).range.end, "'"), []);
  });

  test('Run Query shows the rows; the host answers windows and sorts by a column', async () => {
    const document = await queryDocument(
      "SELECT key, value->>'name' AS name, CAST(value->>'coins' AS INTEGER) AS coins, value->>'note' AS note, " +
        "store, scope FROM entries WHERE store = 'PlayerData' ORDER BY key",
    );
    answer();
    const panel = await run(document);
    assert.deepEqual(ui.messages('error'), []);
    assert.ok(panel);
    assert.equal(panel.state.total, 3);
    assert.equal(panel.state.opensEntries, true);
    assert.deepEqual(
      panel.state.columns.map((c) => c.name),
      ['key', 'name', 'coins', 'note', 'store', 'scope'],
    );
    assert.deepEqual(panel.window(1, 1), [['Player_2', 'bob', '50', '+cmd', 'PlayerData', 'global']]);
    assert.deepEqual(panel.window(2, 5)[0][3], null); // Player_3 has no note: NULL, not ""
    await until('the page to load', () => panel.ready);

    await panel.receive({ type: 'sort', column: 2 });
    assert.deepEqual(
      panel.window(0, 3).map((r) => r[0]),
      ['Player_2', 'Player_3', 'Player_1'],
    );
    await panel.receive({ type: 'sort', column: 2 });
    assert.deepEqual(panel.state.sort, { column: 2, descending: true });
    assert.deepEqual(
      panel.window(0, 3).map((r) => r[0]),
      ['Player_1', 'Player_3', 'Player_2'],
    );

    // Export CSV: in the order shown, formula-looking text prefixed with a quote.
    const csvFile = path.join(service.dir, 'results.csv');
    answer().on('saveDialog', /^Export the query results of Query Universe/, vscode.Uri.file(csvFile));
    await panel.receive({ type: 'export', format: 'csv' });
    assert.deepEqual(ui.messages('error'), []);
    const csv = parseCsv(fs.readFileSync(csvFile, 'utf8'));
    assert.deepEqual(csv[0], ['key', 'name', 'coins', 'note', 'store', 'scope']);
    assert.deepEqual(csv[1], ['Player_1', 'Alice', '2001', `'=HYPERLINK("x")`, 'PlayerData', 'global']);
    assert.deepEqual(csv[3], ['Player_2', 'bob', '50', "'+cmd", 'PlayerData', 'global']);
    assert.equal(csv[2][3], '');

    // Export NDJSON: one object a row.
    const ndjsonFile = path.join(service.dir, 'results.ndjson');
    answer().on('saveDialog', /^Export the query results/, vscode.Uri.file(ndjsonFile));
    await panel.receive({ type: 'export', format: 'ndjson' });
    const lines = fs
      .readFileSync(ndjsonFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(lines[0], {
      key: 'Player_1',
      name: 'Alice',
      coins: 2001,
      note: '=HYPERLINK("x")',
      store: 'PlayerData',
      scope: 'global',
    });
    assert.equal(lines.length, 3);

    // A row with store, scope and key opens the live entry.
    await panel.receive({ type: 'open', row: 2 });
    const opened = await until('the entry editor', () => {
      const uri = vscode.window.activeTextEditor?.document.uri;
      return uri?.scheme === 'universe-entry' && uri;
    });
    assert.match(opened.path, /\/PlayerData\/global\/Player_2\.json$/);
    assert.equal(JSON.parse(vscode.window.activeTextEditor!.document.getText()).name, 'bob');
  });

  test('the JSON value column is exported as JSON in NDJSON, and as its text in the grid', async () => {
    const document = await queryDocument("SELECT key, value FROM entries WHERE store = 'Inventory' ORDER BY key");
    answer();
    const panel = await run(document);
    assert.ok(panel);
    assert.deepEqual(panel.window(0, 2), [
      ['Player_1', '{"items":["sword"]}'],
      ['Player_2', '{"items":["shield","@home"]}'],
    ]);
    assert.equal(panel.state.opensEntries, false);
    assert.deepEqual(
      panel
        .exportText('ndjson')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
      [
        { key: 'Player_1', value: INVENTORY.Player_1 },
        { key: 'Player_2', value: INVENTORY.Player_2 },
      ],
    );
  });

  test('a results panel VS Code restores after a window reload offers Run Again, which shows its rows again', async () => {
    const document = await queryDocument("SELECT key FROM entries WHERE store = 'PlayerData' ORDER BY key");
    answer();
    const first = await run(document);
    assert.ok(first);
    // What the page saves with vscode.setState, and VS Code hands back to the serializer after a reload.
    const saved = { restore: first.state.restore };
    assert.deepEqual(saved.restore, {
      connectionId,
      universeId: U,
      universeName: 'Query Universe (8181) on Query Tests',
      sql: document.getText(),
      document: document.uri.toString(),
    });
    first.panel.dispose();

    const restoredPanel = () =>
      vscode.window.createWebviewPanel('universeExplorer.queryResults', 'Query Results', vscode.ViewColumn.Beside, {});
    const revived = ctx.queryResults.revive(restoredPanel(), saved);
    assert.ok(revived, 'the saved state was refused');
    assert.deepEqual([revived.state.notRun, revived.state.total], [true, 0]);
    assert.equal(revived.panel.title, 'Query Results: Query Universe (8181) on Query Tests');
    assert.equal(revived.panel.webview.options.enableScripts, true);
    await until('the revived page to load', () => revived.ready);
    await revived.receive({ type: 'runAgain' });
    assert.deepEqual(ui.messages('error'), []);
    assert.equal(revived.state.notRun, false);
    assert.deepEqual(revived.window(0, 5), [['Player_1'], ['Player_2'], ['Player_3']]);
    // (assert.ok, not equal: a failed equal would print the whole panel, and with it the extension host)
    assert.ok((await run(document)) === revived, 'running the document again shows its rows in the revived panel');

    // A state that is not ours, or a document whose panel is open already: the restored panel is closed.
    const bad = [
      undefined,
      'text',
      {},
      { restore: { ...saved.restore, universeId: 0 } },
      { restore: { ...saved.restore, sql: 1 } },
      saved,
    ];
    for (const state of bad) {
      const panel = restoredPanel();
      let closed = false;
      panel.onDidDispose(() => (closed = true));
      assert.ok(ctx.queryResults.revive(panel, state) === undefined, `a panel was made for ${JSON.stringify(state)}`);
      assert.ok(closed, `a panel was kept for ${JSON.stringify(state)}`);
    }
    revived.panel.dispose();
  });

  test('the page asks the host only for the rows in view', async () => {
    const document = await queryDocument('SELECT range AS n, entries.key FROM range(20000) LEFT JOIN entries ON false');
    answer();
    const panel = await run(document);
    assert.deepEqual(ui.messages('error'), []);
    assert.ok(panel);
    assert.equal(panel.state.total, 20000);
    const asked = await until('the page to ask for rows', () => panel.lastWindow);
    assert.equal(asked.start, 0);
    assert.ok(asked.count > 0 && asked.count <= 500, `the page asked for ${asked.count} rows`);
    assert.deepEqual(panel.window(19999, 5), [['19999', null]]);
  });

  test('Find Value… writes the SQL into a query document and shows what it found', async () => {
    answer().on('input', /^Find Value in Query Universe/, '2001');
    const panel = (await vscode.commands.executeCommand(
      'universeExplorer.findValue',
      await universeChild(ctx.tree, NAME, 'Data Stores'),
    )) as ResultPanel | undefined;
    assert.deepEqual(ui.messages('error'), []);
    assert.ok(panel);
    // 2001 as a number (Player_1's coins) and inside "Player_2001"; not in the store that is not indexed.
    assert.deepEqual(
      panel.window(0, 10).map((r) => [r[0], r[2]]),
      [
        ['PlayerData', 'Player_1'],
        ['PlayerData', 'Player_3'],
      ],
    );
    const text = vscode.window.activeTextEditor?.document.getText() ?? '';
    assert.match(text, new RegExp(`^${header()}\n-- Values holding the number 2001`));
    assert.match(text, /FROM entries/);
  });

  test('SQL DuckDB cannot read, and a statement that writes, fail in the product words', async () => {
    const document = await queryDocument('SELEC key FROM entries');
    answer();
    assert.equal(await run(document), undefined);
    assert.match(
      ui.messages('error')[0],
      /^Failed to run the query: the query index of Query Universe \(8181\) on Query Tests says: .*syntax error.*\(fix the SQL and run it again\)$/s,
    );

    const writes = await queryDocument('DELETE FROM entries');
    answer();
    assert.equal(await run(writes), undefined);
    assert.match(ui.messages('error')[0], /only one statement that reads/);
    const count = await ctx.queryIndexes
      .index({ connectionId, universeId: U })
      .query('SELECT count(*) AS n FROM entries');
    assert.equal(Number(count.rows[0][0]), 5);
  });

  test('Refresh Query Index reads the indexed stores again', async () => {
    await service.client.datastores.setEntry({
      universeId: U,
      datastoreName: 'PlayerData',
      scope: 'global',
      entryKey: 'Player_4',
      value: { name: 'Dan', coins: 1 },
    });
    answer();
    const parts = (await vscode.commands.executeCommand(
      'universeExplorer.refreshQueryIndex',
      await universeChild(ctx.tree, NAME, 'Query Index'),
    )) as IndexedPart[];
    assert.deepEqual(ui.messages('error'), []);
    assert.deepEqual(
      parts.map((p) => [p.store, p.entries]),
      [
        ['Inventory', 2],
        ['PlayerData', 4],
      ],
    );
    assert.match(String((await universeChild(ctx.tree, NAME, 'Query Index')).item().description), /· 6 entries ·/);
    // The JSON fields are read again after a build.
    const document = await queryDocument("SELECT value->>'' FROM entries");
    const coins = byLabel(await completions(document, after(document, 1, "value->>'"), "'")).get('coins');
    assert.equal(coins?.documentation, 'Seen in 4 of 6 entries looked at.');
  });

  test('Export Index as Parquet… writes entries.parquet, which reads back as the index rows', async () => {
    const out = path.join(service.dir, 'parquet');
    fs.mkdirSync(out);
    answer().on('openDialog', /^Export the Query Index of Query Universe \(8181\) on Query Tests as Parquet/, [
      vscode.Uri.file(out),
    ]);
    const written = (await vscode.commands.executeCommand(
      'universeExplorer.exportQueryIndexParquet',
      await universeChild(ctx.tree, NAME, 'Query Index'),
    )) as { file: string; rows: number } | undefined;
    assert.deepEqual(ui.messages('error'), []);
    assert.deepEqual(written, { file: path.join(out, 'entries.parquet'), rows: 6 });
    assert.match(
      ui.messages('info')[0],
      /^Exported 6 entries of Query Universe \(8181\) on Query Tests to .*entries\.parquet\. DuckDB reads it with SELECT key, value->>'coins' FROM 'entries\.parquet'; Spark, BigQuery and Athena/,
    );
    const index = ctx.queryIndexes.index({ connectionId, universeId: U });
    const parquet = `read_parquet('${written!.file.replace(/'/g, "''")}')`;
    const differ = await index.query(
      `SELECT (SELECT count(*) FROM (SELECT * FROM entries EXCEPT ALL SELECT * FROM ${parquet})) + ` +
        `(SELECT count(*) FROM (SELECT * FROM ${parquet} EXCEPT ALL SELECT * FROM entries))`,
    );
    assert.deepEqual(differ.rows, [[0]], 'the same rows both ways');
    const read = await index.query(
      `SELECT key, value->>'$.stash.sword', user_ids FROM ${parquet} WHERE store = 'PlayerData' AND key = 'Player_2'`,
    );
    assert.deepEqual(read.rows, [['Player_2', '1', []]]);

    // Into the same folder again: it asks first, and leaves the file when not told to replace it.
    answer().on('openDialog', /^Export the Query Index/, [vscode.Uri.file(out)]);
    const before = fs.statSync(written!.file).mtimeMs;
    assert.equal(
      await vscode.commands.executeCommand(
        'universeExplorer.exportQueryIndexParquet',
        await universeChild(ctx.tree, NAME, 'Query Index'),
      ),
      undefined,
    );
    assert.match(ui.messages('warn')[0], /parquet already holds entries\.parquet\. Replace it\?$/);
    assert.equal(fs.statSync(written!.file).mtimeMs, before);
  });

  test('Load Query Index from Export File… indexes what Export… wrote, and refuses an export of another universe', async () => {
    const stores = await ctx.tree.getChildren(await universeChild(ctx.tree, NAME, 'Data Stores'));
    const other = stores.find((n) => label(n) === 'Other');
    assert.ok(other, 'the Other store in the tree');
    const file = path.join(service.dir, 'other.ndjson');
    answer().on('saveDialog', /^Export Other/, vscode.Uri.file(file));
    await vscode.commands.executeCommand('universeExplorer.exportDataStore', other);
    assert.deepEqual(ui.messages('error'), []);

    answer().on('openDialog', /^Load the Query Index of Query Universe \(8181\) on Query Tests from an Export File$/, [
      vscode.Uri.file(file),
    ]);
    const parts = (await vscode.commands.executeCommand(
      'universeExplorer.loadQueryIndexFromFile',
      await universeChild(ctx.tree, NAME, 'Query Index'),
    )) as IndexedPart[];
    assert.deepEqual(ui.messages('error'), []);
    assert.deepEqual(
      parts.map((p) => [p.store, p.scope, p.entries, p.source]),
      [
        ['Inventory', undefined, 2, 'service'],
        ['Other', 'global', 1, file],
        ['PlayerData', undefined, 4, 'service'],
      ],
    );
    assert.match(ui.messages('info')[0], /: Inventory, Other \(global\), PlayerData · 7 entries · as of/);
    await until('the row to show the file loaded', async () =>
      /· 7 entries ·/.test(String((await universeChild(ctx.tree, NAME, 'Query Index')).item().description)),
    );
    const index = ctx.queryIndexes.index({ connectionId, universeId: U });
    assert.deepEqual((await index.query("SELECT key, value FROM entries WHERE store = 'Other'")).rows, [['x', '2001']]);

    // An export of universe 8282 is not loaded into 8181's index.
    await service.client.datastores.setEntry({ universeId: 8282, datastoreName: 'Other', entryKey: 'y', value: 1 });
    const foreign = path.join(service.dir, 'foreign.ndjson');
    await exportDataStore(service.client, { universeId: 8282, datastoreName: 'Other', file: foreign });
    answer().on('openDialog', /^Load the Query Index/, [vscode.Uri.file(foreign)]);
    assert.equal(
      await vscode.commands.executeCommand(
        'universeExplorer.loadQueryIndexFromFile',
        await universeChild(ctx.tree, NAME, 'Query Index'),
      ),
      undefined,
    );
    assert.match(
      ui.messages('error')[0],
      /^Failed to load the query index from the export file: foreign\.ndjson holds data store Other of universe 8282, not of Query Universe \(8181\) on Query Tests; choose an export of this universe/,
    );
    assert.deepEqual((await index.query('SELECT count(*) FROM entries')).rows, [[7]]);
  });

  test('a first build of a store says the time left once its keys are listed, with no earlier build to go by', async () => {
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        service.client.datastores.setEntry({ universeId: U, datastoreName: 'Many', entryKey: `k${i}`, value: { i } }),
      ),
    );
    // Reads take a while (lists do not), so the build lasts long enough to report while it reads.
    await service.emulator.fault({ method: 'GET', path: '/entries/entry', delayMs: 40, times: 300 });
    const reports: string[] = [];
    answer().on('pickMany', /^Build Query Index of Query Universe/, ['Many']);
    ui.progress = (_title, task) => task(new AbortController().signal, (message) => reports.push(message));
    const parts = (await vscode.commands.executeCommand(
      'universeExplorer.buildQueryIndex',
      await universeChild(ctx.tree, NAME, 'Query Index'),
    )) as IndexedPart[];
    assert.deepEqual(ui.messages('error'), []);
    assert.equal(parts.find((p) => p.store === 'Many')?.entries, 300);
    const reading = reports.filter((r) => r.startsWith('Many: ') && r.includes('/s'));
    assert.ok(
      reading.some((r) => /^Many: [\d,]+ entries · \d+\/s · \d+:\d\d elapsed · about \d+:\d\d left$/.test(r)),
      reading.join('\n'),
    );
  });
});
