// The restriction log panel, host side: one panel per universe. It keeps the filter and every loaded entry here,
// so a panel that was hidden (its page discarded) shows the same rows again after the page's `ready`.
import vscode = require('vscode');
import type { RestrictionLog } from '../../api';
import { SANDBOX_ID, type Connections } from '../../core/connections';
import { isCancel, reason } from '../../core/errors';
import type { Log } from '../../core/log';
import { t } from '../../core/text';
import { Pager } from '../../core/tree/pager';
import type { Ui } from '../../core/ui';
import { escapeHtml, pageHtml, receiveFromPage, sendTexts } from '../../core/webviewPage';
import { sameUniverse, universeKey, type UniverseAddress } from '../../core/universe';
import type { RestrictionsModel } from '../model';
import type { BanRuns } from '../runs/store';
import { logCsv, rowsOf } from './rows';
import { LogRuns } from './runs';
import { selectionSource } from './selection';
import {
  checkFilterId,
  readRestore,
  readToHost,
  type LogFilter,
  type LogState,
  type ToHost,
  type ToPage,
} from './protocol';

export interface LogTarget extends UniverseAddress {
  connectionName: string;
  universeName?: string;
}

/** What a panel uses: the model's log reads, the connections' names, the Ui (save dialog, messages) and the log. */
export interface LogPanelDeps {
  model: RestrictionsModel;
  connections: Connections;
  ui: Ui;
  log: Log;
  extensionUri: vscode.Uri;
  /** The ban runs, whose entries the log groups. */
  runs: BanRuns;
}

/** The open restriction log panels, one per universe; each reloads when the universe's restrictions change. */
export class LogPanels implements vscode.Disposable {
  private readonly open = new Map<string, RestrictionLogPanel>();
  private readonly following: vscode.Disposable;

  constructor(private readonly deps: LogPanelDeps) {
    this.following = deps.model.onDidChange((u) => {
      for (const panel of this.open.values())
        if (sameUniverse(panel.target, u)) void panel.receive({ type: 'refresh' });
    });
  }

  /** The universe as the panel's title shows it. */
  target(u: UniverseAddress): LogTarget {
    const connection = this.deps.connections.get(u.connectionId);
    return {
      connectionId: u.connectionId,
      connectionName: connection?.name ?? (u.connectionId === SANDBOX_ID ? t`Local Sandbox` : t`a removed connection`),
      universeId: u.universeId,
      universeName: connection?.universes.find((x) => x.id === u.universeId)?.name,
    };
  }

  /** Opens (or reveals) the universe's panel; a filter (or ban run) given here replaces the panel's. */
  show(u: UniverseAddress, filter?: LogFilter, run?: string): RestrictionLogPanel {
    const key = universeKey(u);
    const panel = this.open.get(key);
    if (!panel) return this.add(new RestrictionLogPanel(this.deps, this.target(u), filter, undefined, run));
    panel.panel.reveal();
    if (filter) void panel.receive({ type: 'applyFilter', filter });
    if (run !== undefined) void panel.receive({ type: 'filterRun', run });
    return panel;
  }

  /**
   * Brings back a panel VS Code restored after a window reload, from the state its page saved. A state that is not
   * ours, or a universe whose log is already open, closes it. A connection that is gone (or a sandbox not started
   * again) shows as the panel's error until it is back and the user refreshes.
   */
  revive(panel: vscode.WebviewPanel, state: unknown): RestrictionLogPanel | undefined {
    const restore = readRestore(state);
    if (!restore || this.open.has(universeKey(restore))) {
      panel.dispose();
      return undefined;
    }
    return this.add(new RestrictionLogPanel(this.deps, this.target(restore), restore.filter, panel, restore.run));
  }

  dispose(): void {
    this.following.dispose();
    for (const panel of [...this.open.values()]) panel.dispose();
  }

  private add(panel: RestrictionLogPanel): RestrictionLogPanel {
    const key = universeKey(panel.target);
    this.open.set(key, panel);
    panel.panel.onDidDispose(() => {
      if (this.open.get(key) === panel) this.open.delete(key);
    });
    return panel;
  }
}

export class RestrictionLogPanel implements vscode.Disposable {
  static readonly viewType = 'universeExplorer.restrictionLog';

  readonly panel: vscode.WebviewPanel;
  /** How often the page has loaded and said `ready` (a hidden panel's page is discarded and loads again). */
  pageLoads = 0;
  private filter: LogFilter = { user: '', place: '' };
  /** The ban run whose entries alone are shown, or "". */
  private run: string;
  private readonly runs: LogRuns;
  /** Reading the runs again after the store said one changed, and whether it said so again meanwhile. */
  private following: Promise<void> | undefined;
  private changedAgain = false;
  private readonly pager: Pager<RestrictionLog>;
  private loading = false;
  private error: string | undefined;
  private generation = 0;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly deps: LogPanelDeps,
    readonly target: LogTarget,
    filter?: LogFilter,
    restored?: vscode.WebviewPanel,
    run = '',
  ) {
    const media = vscode.Uri.joinPath(deps.extensionUri, 'media', 'restrictionLog');
    const options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(deps.extensionUri, 'media')] };
    const title = t`Restriction Log: ${target.universeName ?? target.universeId}`;
    this.panel =
      restored ??
      vscode.window.createWebviewPanel(RestrictionLogPanel.viewType, title, vscode.ViewColumn.Active, {
        ...options,
        enableFindWidget: true,
      });
    if (restored) {
      restored.webview.options = options;
      restored.title = title;
    }
    this.pager = new Pager((pageToken, signal) => deps.model.listLogs(target, this.filter, pageToken, signal));
    this.run = run;
    this.runs = new LogRuns(deps.runs, target);
    this.disposables.push(
      this.panel.onDidDispose(() => this.dispose()),
      this.panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      deps.runs.onDidChange(() => this.runsChanged()),
    );
    this.panel.webview.html = this.html(media);
    void this.receive(filter ? { type: 'applyFilter', filter } : { type: 'refresh' });
  }

  /** What the page shows. */
  get state(): LogState {
    const target = this.target;
    const rows = rowsOf(this.pager.items, this.runs.of(this.pager.items));
    const run = this.run;
    return {
      title: target.universeName
        ? t`Universe ${target.universeId} (${target.universeName}) on ${target.connectionName}`
        : t`Universe ${target.universeId} on ${target.connectionName}`,
      restore: {
        connectionId: target.connectionId,
        universeId: target.universeId,
        filter: { ...this.filter },
        ...(run ? { run } : {}),
      },
      filter: { ...this.filter },
      run,
      runs: this.runs.infos,
      rows: run ? rows.filter((r) => r.run === run) : rows,
      loaded: this.pager.items.length,
      hasMore: this.pager.hasMore,
      loading: this.loading,
      error: this.error,
    };
  }

  /** Handles one message from the page (any value: it is checked first). Resolves when its work is done. */
  async receive(message: unknown): Promise<unknown> {
    return receiveFromPage(
      message,
      { name: 'Restriction log', log: this.deps.log },
      readToHost,
      (m) => this.handle(m),
      (error) => this.failed(error),
    );
  }

  private failed(error: unknown): void {
    this.error = reason(error);
    this.deps.log.error(`Restriction log of universe ${this.target.universeId}: ${this.error}`);
    this.post();
  }

  /**
   * A run was made or written by: its entries are found again (and, when it is the one shown, loaded back to it).
   * A run writing fast says so often: one reading at a time, and one more after it for what came meanwhile.
   */
  private runsChanged(): void {
    if (this.following) {
      this.changedAgain = true;
      return;
    }
    this.following = (async () => {
      do {
        this.changedAgain = false;
        await this.runs.reload();
        if (this.run && !this.runs.has(this.run)) this.run = '';
        if (this.run && !this.loading) await this.load('run');
        else this.post();
      } while (this.changedAgain);
    })()
      .catch((error: unknown) => this.failed(error))
      .finally(() => (this.following = undefined));
  }

  private async handle(m: ToHost): Promise<unknown> {
    switch (m.type) {
      case 'ready': {
        this.pageLoads++;
        sendTexts(this.panel.webview);
        this.post();
        return undefined;
      }
      case 'applyFilter': {
        const problem = checkFilterId(m.filter.user, 'User') ?? checkFilterId(m.filter.place, 'Place');
        if (problem) throw new Error(problem);
        this.filter = m.filter;
        return this.load('fresh');
      }
      case 'refresh':
        return this.load('fresh');
      case 'loadMore':
        return this.load('more');
      case 'filterRun':
        if (m.run && !this.runs.has(m.run))
          throw new Error(t`The ban run is no longer known: its plan file was moved or deleted. Choose another run.`);
        this.run = m.run;
        if (m.run) return this.load('run');
        this.generation++; // the walk in flight stops, and a failure of its page is not shown
        this.loading = false;
        this.post();
        return undefined;
      case 'exportCsv':
        return this.exportCsv();
      case 'showPlayer': {
        const { connectionId, universeId } = this.target;
        return vscode.commands.executeCommand('universeExplorer.showPlayer', {
          connectionId,
          universeId,
          userId: m.user,
        });
      }
      case 'banSelected':
      case 'unbanSelected': {
        const { connectionId, universeId } = this.target;
        const command =
          m.type === 'banSelected' ? 'universeExplorer.banUsersFromList' : 'universeExplorer.unbanEverywhere';
        const source = selectionSource(m.rows);
        return vscode.commands.executeCommand(command, { connectionId, universeId, userIds: m.userIds, source });
      }
    }
  }

  /**
   * Loads the first page again (`fresh`, reading the runs again too) or the next one (`more`); then, while a run is
   * chosen, pages back to its first write (`run`: only those). The newest load decides what the page shows.
   */
  private async load(how: 'fresh' | 'more' | 'run'): Promise<void> {
    const generation = ++this.generation;
    if (how === 'fresh') this.pager.reset();
    this.loading = true;
    this.post();
    try {
      if (how === 'fresh') {
        await this.runs.reload();
        if (this.run && !this.runs.has(this.run)) this.run = '';
      }
      if (how !== 'run') await this.pager.loadMore();
      const back = () => generation === this.generation && this.run && this.pager.hasMore;
      while (back() && this.runs.needsOlder(this.run, this.pager.items)) {
        await this.pager.loadMore();
        this.post();
      }
      if (generation === this.generation) this.error = undefined;
    } catch (error) {
      if (generation === this.generation && !isCancel(error)) throw error;
    } finally {
      if (generation === this.generation) this.loading = false;
      this.post();
    }
  }

  /** Every entry loaded so far (of the run, when one is chosen), with a header row. Undefined when cancelled. */
  private async exportCsv(): Promise<vscode.Uri | undefined> {
    const logs = [...this.pager.items];
    const runs = this.runs.of(this.pager.items);
    const shown = logs.map((_, i) => i).filter((i) => !this.run || runs[i] === this.run);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = await this.deps.ui.saveDialog({
      title: t`Export the restriction log of universe ${this.target.universeId}`,
      saveLabel: t`Export`,
      filters: { [t`CSV files`]: ['csv'] },
      defaultUri: folder && vscode.Uri.joinPath(folder, `restriction-log-${this.target.universeId}.csv`),
    });
    if (!uri) return undefined;
    const text = logCsv(logs, shown, (i) => this.runs.csvName(runs[i]));
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
    this.deps.log.info(`Exported ${shown.length} restriction log entries to ${uri.toString(true)}`);
    const openFile = t`Open File`;
    void this.deps.ui
      .info(t`Exported ${shown.length} restriction log entries to ${uri.fsPath}.`, openFile)
      .then((choice) => {
        if (choice === openFile) void vscode.window.showTextDocument(uri, { preview: false });
      });
    return uri;
  }

  /** The host posts nothing before the page's first `ready`. */
  get ready(): boolean {
    return this.pageLoads > 0;
  }

  private post(): void {
    if (!this.ready) return;
    const message: ToPage = { type: 'state', state: this.state };
    void this.panel.webview.postMessage(message);
  }

  /** Static markup only: every value from the service reaches the page by message and is set as text. */
  private html(media: vscode.Uri): string {
    const escape = escapeHtml;
    const headers = [
      t`Time`,
      t`User`,
      t`Action`,
      t`Place`,
      t`Moderator`,
      t`Active`,
      t`Duration`,
      t`Display reason`,
      t`Private reason`,
      t`Exclude alt accounts`,
    ].map((h) => `<th scope="col">${escape(h)}</th>`);
    const all = escape(t`Select all rows shown`);
    return pageHtml(
      this.panel.webview,
      media,
      t`Restriction Log`,
      `<header>
  <h1>${escape(t`Restriction log`)}</h1>
  <p id="where" class="where"></p>
</header>
<form id="filter" class="toolbar" novalidate>
  <label for="user">${escape(t`User id`)}</label>
  <input id="user" name="user" inputmode="numeric" autocomplete="off" spellcheck="false" aria-describedby="problem">
  <label for="place">${escape(t`Place id`)}</label>
  <input id="place" name="place" inputmode="numeric" autocomplete="off" spellcheck="false" aria-describedby="problem">
  <button type="submit" id="apply">${escape(t`Apply filter`)}</button>
  <button type="button" id="clear" class="secondary">${escape(t`Clear filter`)}</button>
  <span id="runFilter" hidden>
    <label for="run">${escape(t`Run`)}</label>
    <select id="run"><option value="">${escape(t`All entries`)}</option></select>
  </span>
  <span class="spacer"></span>
  <button type="button" id="refresh" class="secondary">${escape(t`Refresh`)}</button>
  <button type="button" id="export" class="secondary">${escape(t`Export CSV…`)}</button>
</form>
<div class="toolbar" role="group" aria-label="${escape(t`Selected rows`)}">
  <span id="selected" role="status" aria-live="polite"></span>
  <button type="button" id="banSelected" aria-disabled="true">${escape(t`Ban Selected Users…`)}</button>
  <button type="button" id="unbanSelected" class="secondary" aria-disabled="true">${escape(t`Unban Selected Users Everywhere…`)}</button>
</div>
<p id="problem" class="problem" role="alert" hidden></p>
<p id="status" class="status" role="status" aria-live="polite"></p>
<div class="table" role="region" aria-labelledby="caption" tabindex="0">
<table>
  <caption id="caption">${escape(t`Restriction log entries, newest first`)}</caption>
  <thead><tr>
    <th scope="col" class="select"><input type="checkbox" id="selectAll" aria-label="${all}" title="${all}"></th>
    ${headers.join('\n    ')}
  </tr></thead>
  <tbody id="rows"></tbody>
</table>
</div>
<p><button type="button" id="more">${escape(t`Load more`)}</button></p>`,
    );
  }

  dispose(): void {
    this.pager.reset();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}
