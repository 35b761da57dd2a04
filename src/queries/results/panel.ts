// The query results panel, host side: it keeps every row of a result and its sort order, and answers the page's
// windows (the page draws only the rows in view). One panel per query document; running it again replaces its rows.
import vscode = require('vscode');
import { toCsv, type CsvValue } from '../../core/csv';
import { isCancel, reason } from '../../core/errors';
import type { Log } from '../../core/log';
import { t } from '../../core/text';
import type { Ui } from '../../core/ui';
import type { UniverseAddress } from '../../core/universe';
import { escapeHtml, pageHtml, sendTexts } from '../../core/webviewPage';
import type { QueryResult } from '../../query';
import { banResultUsers, type BanKind } from './banUsers';
import { readRestore, readToHost, type Cell, type ResultState, type ToHost, type ToPage } from './protocol';

/** An entry a result row names, to open in its editor. */
export interface RowEntry extends UniverseAddress {
  datastoreName: string;
  scope: string;
  key: string;
}

export interface ResultPanelDeps {
  ui: Ui;
  log: Log;
  extensionUri: vscode.Uri;
  /** Opens the live entry (handed over by the wiring: this area cannot name the data stores editor). */
  openEntry(entry: RowEntry): Promise<unknown>;
  /** Runs a query on a universe's index (Run Again in a panel brought back after a window reload). */
  runQuery(universe: UniverseAddress, sql: string): Promise<ShownResult>;
}

export interface ShownResult {
  universe: UniverseAddress;
  /** How the universe reads in titles. */
  universeName: string;
  /** The query that gave the rows. */
  sql: string;
  result: QueryResult;
}

const NO_ROWS: QueryResult = { columns: [], rows: [], truncated: false };

/** The open results panels, one per query document. */
export class ResultPanels implements vscode.Disposable {
  private readonly open = new Map<string, ResultPanel>();

  constructor(private readonly deps: ResultPanelDeps) {}

  /** Shows a result in the document's panel (made when there is none). */
  show(document: vscode.Uri, shown: ShownResult): ResultPanel {
    const key = document.toString();
    const existing = this.open.get(key);
    if (existing) {
      existing.replace(shown);
      existing.panel.reveal(undefined, true);
      return existing;
    }
    return this.add(key, new ResultPanel(this.deps, shown, key));
  }

  /**
   * Brings back a panel VS Code restored after a window reload, from the query its page saved: no rows until the
   * user runs it again (the index may be gone, or slow to open). A state that is not ours, or a document whose panel
   * is open already, closes it.
   */
  revive(panel: vscode.WebviewPanel, state: unknown): ResultPanel | undefined {
    const restore = readRestore(state);
    if (!restore || this.open.has(restore.document)) {
      panel.dispose();
      return undefined;
    }
    const { connectionId, universeId, universeName, sql } = restore;
    const shown = { universe: { connectionId, universeId }, universeName, sql, result: NO_ROWS };
    return this.add(restore.document, new ResultPanel(this.deps, shown, restore.document, panel));
  }

  private add(key: string, panel: ResultPanel): ResultPanel {
    this.open.set(key, panel);
    panel.panel.onDidDispose(() => {
      if (this.open.get(key) === panel) this.open.delete(key);
    });
    return panel;
  }

  /** The panel of a document, when open. */
  of(document: vscode.Uri): ResultPanel | undefined {
    return this.open.get(document.toString());
  }

  dispose(): void {
    for (const panel of [...this.open.values()]) panel.dispose();
  }
}

/** A cell as text: JSON columns and numbers as DuckDB gave them, lists and structs as JSON. */
export function cellText(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Sort order of two values: NULL last, numbers (and whole numbers given as text) by value, the rest as text. */
export function compareValues(a: unknown, b: unknown): number {
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const bigA = wholeOf(a);
  const bigB = wholeOf(b);
  if (bigA !== undefined && bigB !== undefined) return bigA < bigB ? -1 : bigA > bigB ? 1 : 0;
  const x = cellText(a)!;
  const y = cellText(b)!;
  return x < y ? -1 : x > y ? 1 : 0;
}

function wholeOf(v: unknown): bigint | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^-?\d{1,40}$/.test(v)) return BigInt(v);
  return undefined;
}

export class ResultPanel implements vscode.Disposable {
  static readonly viewType = 'universeExplorer.queryResults';

  readonly panel: vscode.WebviewPanel;
  pageLoads = 0;
  /** The window the page asked for last: only the rows in view, with a margin. */
  lastWindow: { start: number; count: number } | undefined;
  private shown: ShownResult;
  /** Row numbers in the order shown. */
  private order: number[] = [];
  private sort: ResultState['sort'];
  private generation = 0;
  /** Brought back after a window reload and not run again yet. */
  private notRun: boolean;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly deps: ResultPanelDeps,
    shown: ShownResult,
    /** The query document's URI. */
    private readonly document: string,
    restored?: vscode.WebviewPanel,
  ) {
    this.shown = shown;
    this.notRun = restored !== undefined;
    this.order = shown.result.rows.map((_, i) => i);
    const media = vscode.Uri.joinPath(deps.extensionUri, 'media', 'queryResults');
    const options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(deps.extensionUri, 'media')] };
    this.panel =
      restored ??
      vscode.window.createWebviewPanel(
        ResultPanel.viewType,
        this.tabTitle,
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        options,
      );
    if (restored) {
      restored.webview.options = options;
      restored.title = this.tabTitle;
    }
    this.disposables.push(
      this.panel.onDidDispose(() => this.dispose()),
      this.panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
    );
    this.panel.webview.html = this.html(media);
  }

  private get tabTitle(): string {
    return t`Query Results: ${this.shown.universeName}`;
  }

  /** Shows a new result (a query run again): unsorted, from the top. */
  replace(shown: ShownResult): void {
    this.shown = shown;
    this.notRun = false;
    this.order = shown.result.rows.map((_, i) => i);
    this.sort = undefined;
    this.panel.title = this.tabTitle;
    this.post();
  }

  get state(): ResultState {
    const names = this.shown.result.columns.map((c) => c.name);
    return {
      title: this.shown.universeName,
      columns: this.shown.result.columns.map((c) => ({ name: c.name, type: c.type })),
      total: this.order.length,
      truncated: this.shown.result.truncated,
      sort: this.sort && { ...this.sort },
      opensEntries: ['store', 'scope', 'key'].every((n) => names.includes(n)),
      generation: this.generation,
      restore: {
        ...this.shown.universe,
        universeName: this.shown.universeName,
        sql: this.shown.sql,
        document: this.document,
      },
      notRun: this.notRun,
    };
  }

  /** The rows `start` to `start + count` in the order shown, as the page draws them. */
  window(start: number, count: number): Cell[][] {
    return this.order.slice(start, start + count).map((i) => this.shown.result.rows[i].map(cellText));
  }

  /** Handles one message from the page (any value: it is checked first). Resolves when its work is done. */
  async receive(message: unknown): Promise<unknown> {
    const m = readToHost(message);
    if (!m) {
      this.deps.log.warn('Query results: ignored an unknown message from the page');
      return undefined;
    }
    try {
      return await this.handle(m);
    } catch (error) {
      if (isCancel(error)) return undefined;
      const message = t`Failed to ${failureOf(m)}: ${reason(error)}`;
      this.deps.log.error(message, error);
      void this.deps.ui.error(message);
      return undefined;
    }
  }

  private async handle(m: ToHost): Promise<unknown> {
    switch (m.type) {
      case 'ready': {
        this.pageLoads++;
        sendTexts(this.panel.webview);
        this.post();
        return undefined;
      }
      case 'window':
        this.lastWindow = { start: m.start, count: m.count };
        this.postMessage({
          type: 'rows',
          generation: this.generation,
          start: m.start,
          rows: this.window(m.start, m.count),
        });
        return undefined;
      case 'sort':
        return this.sortBy(m.column);
      case 'export':
        return this.export(m.format);
      case 'open':
        return this.openRow(m.row);
      case 'runAgain':
        return this.runAgain();
      case 'banUsers':
        return this.banUsers(m.kind);
    }
  }

  /** Ban Users… or Unban Users Everywhere…: the users of a user id column, over every row held. */
  banUsers(kind: BanKind): Promise<unknown> {
    return banResultUsers(this.deps.ui, kind, { ...this.shown, document: this.document });
  }

  /** Runs the panel's query again (a panel brought back after a window reload) and shows its rows. */
  async runAgain(): Promise<ResultState> {
    this.replace(await this.deps.runQuery(this.shown.universe, this.shown.sql));
    return this.state;
  }

  /** Sorts by a column (the same column again: the other way), keeping equal rows in the query's order. */
  sortBy(column: number): ResultState['sort'] {
    if (column >= this.shown.result.columns.length) throw new Error(t`there is no column ${column + 1}`);
    const descending = this.sort?.column === column ? !this.sort.descending : false;
    const rows = this.shown.result.rows;
    this.order = rows
      .map((_, i) => i)
      .sort((a, b) => (descending ? -1 : 1) * compareValues(rows[a][column], rows[b][column]) || a - b);
    this.sort = { column, descending };
    this.post();
    return this.sort;
  }

  /** The rows in the order shown, to a file the user picks. Returns the file, or undefined when cancelled. */
  private async export(format: 'csv' | 'ndjson'): Promise<vscode.Uri | undefined> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `query-results-${this.shown.universe.universeId}.${format}`;
    const uri = await this.deps.ui.saveDialog({
      title: t`Export the query results of ${this.shown.universeName}`,
      saveLabel: t`Export`,
      filters: format === 'csv' ? { [t`CSV files`]: ['csv'] } : { [t`NDJSON files`]: ['ndjson', 'jsonl'] },
      defaultUri: folder && vscode.Uri.joinPath(folder, name),
    });
    if (!uri) return undefined;
    await vscode.workspace.fs.writeFile(uri, Buffer.from(this.exportText(format), 'utf8'));
    this.deps.log.info(`Exported ${this.order.length} query result rows to ${uri.toString(true)}`);
    const openFile = t`Open File`;
    void this.deps.ui.info(t`Exported ${this.order.length} rows to ${uri.fsPath}.`, openFile).then((choice) => {
      if (choice === openFile) void vscode.window.showTextDocument(uri, { preview: false });
    });
    return uri;
  }

  /**
   * CSV: a header of column names, each cell as the grid shows it (formula-safe, core/csv.ts). NDJSON: one object a
   * row, JSON columns as their JSON rather than as text.
   */
  exportText(format: 'csv' | 'ndjson'): string {
    const { columns, rows } = this.shown.result;
    if (format === 'csv') {
      return toCsv(
        columns.map((c) => c.name),
        this.order.map((i) =>
          rows[i].map((v): CsvValue => (typeof v === 'object' && v !== null ? cellText(v) : (v as CsvValue))),
        ),
      );
    }
    return this.order
      .map((i) => {
        const record: Record<string, unknown> = {};
        columns.forEach((c, j) => (record[c.name] = c.type === 'JSON' ? parsedJson(rows[i][j]) : rows[i][j]));
        return JSON.stringify(record) + '\n';
      })
      .join('');
  }

  /** Opens the entry a row names (its store, scope and key columns), in the order shown. */
  async openRow(row: number): Promise<RowEntry> {
    const { columns, rows } = this.shown.result;
    const at = (name: string) => columns.findIndex((c) => c.name === name);
    const [store, scope, key] = [at('store'), at('scope'), at('key')];
    if (store < 0 || scope < 0 || key < 0) throw new Error(t`the results have no store, scope and key columns`);
    const i = this.order[row];
    if (i === undefined) throw new Error(t`there is no row ${row + 1}`);
    const values = [rows[i][store], rows[i][scope], rows[i][key]];
    if (!values.every((v) => typeof v === 'string')) throw new Error(t`row ${row + 1} names no entry`);
    const [datastoreName, entryScope, entryKey] = values as string[];
    const entry: RowEntry = { ...this.shown.universe, datastoreName, scope: entryScope, key: entryKey };
    await this.deps.openEntry(entry);
    return entry;
  }

  get ready(): boolean {
    return this.pageLoads > 0;
  }

  private post(): void {
    this.generation++;
    if (this.ready) this.postMessage({ type: 'state', state: this.state });
  }

  private postMessage(message: ToPage): void {
    void this.panel.webview.postMessage(message);
  }

  /** Static markup only: every value reaches the page by message and is set as text. */
  private html(media: vscode.Uri): string {
    const e = escapeHtml;
    return pageHtml(
      this.panel.webview,
      media,
      t`Query Results`,
      `<header class="toolbar">
  <h1 id="title"></h1>
  <span id="status" class="status" role="status" aria-live="polite"></span>
  <span class="spacer"></span>
  <button type="button" id="banUsers" class="secondary">${e(t`Ban Users…`)}</button>
  <button type="button" id="unbanUsers" class="secondary">${e(t`Unban Users Everywhere…`)}</button>
  <button type="button" id="exportCsv" class="secondary">${e(t`Export CSV…`)}</button>
  <button type="button" id="exportNdjson" class="secondary">${e(t`Export NDJSON…`)}</button>
</header>
<div id="notRun" class="notRun" hidden>
  <p>${e(t`The rows of this query are not kept across a window reload.`)}</p>
  <pre id="notRunSql" class="sql"></pre>
  <button type="button" id="runAgain">${e(t`Run Again`)}</button>
</div>
<div id="viewport" class="viewport" role="region" aria-label="${e(t`Query results`)}" tabindex="0">
<table id="grid">
  <thead><tr id="head"></tr></thead>
  <tbody id="rows"></tbody>
</table>
</div>`,
    );
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}

function parsedJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

function failureOf(m: ToHost): string {
  switch (m.type) {
    case 'export':
      return t`export the query results`;
    case 'open':
      return t`open the entry of the row`;
    case 'sort':
      return t`sort the query results`;
    case 'runAgain':
      return t`run the query`;
    case 'banUsers':
      return m.kind === 'ban' ? t`ban the users of the query results` : t`unban the users of the query results`;
    default:
      return t`show the query results`;
  }
}
