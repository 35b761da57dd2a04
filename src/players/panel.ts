// The player page, host side: one panel per user of a universe. It reads the player's entries from the universe's
// query index, the ban at the universe and each known place, and the restriction log, and keeps what the page shows;
// the page draws it and sends back the buttons pressed. Writes (ban, unban, restore, erase) are the other areas'
// commands, run with a plain argument; the page reads again when they are done.
import fs = require('node:fs');
import vscode = require('vscode');
import type { OpenApiClient } from '../api';
import { isCancel, reason } from '../core/errors';
import { settings } from '../core/settings';
import { t } from '../core/text';
import { timeOfDay } from '../core/time';
import { isReadOnly } from '../core/universe';
import { pageHtml, receiveFromPage, sendTexts } from '../core/webviewPage';
import { playerMarkup } from './markup';
import { runAction, type PlayerActions } from './actions';
import type { PlayerDeps } from './deps';
import {
  readToHost,
  type EntryRow,
  type IndexFacts,
  type Painted,
  type PlayerRef,
  type PlayerState,
  type ToHost,
  type ToPage,
} from './protocol';
import { playerEntryRows } from '../query';
import { checkLive, readBans, readLog, readOrdered } from './reads';

/** Entries listed at most (a player seldom has more; the page says when there were). */
export const ENTRY_LIMIT = 5000;

type Sections = Pick<PlayerState, 'entries' | 'bans' | 'log' | 'ordered' | 'index'>;

/** The sections read from the service, each by one call, loaded alike. */
type Read = 'bans' | 'log' | 'ordered';

const fresh = (): Sections => ({
  index: { built: false },
  entries: { rows: [], loading: true, truncated: false },
  bans: { rows: [], loading: true },
  log: { rows: [], loading: true, more: false },
  ordered: { rows: [], loading: true, stores: 0 },
});

export class PlayerPanel implements vscode.Disposable {
  static readonly viewType = 'universeExplorer.player';

  readonly panel: vscode.WebviewPanel;
  pageLoads = 0;
  /** What the page drew last (each row's cell texts), and for which state. */
  painted?: Painted;
  private sections: Sections = fresh();
  /** Every store of the universe, when listed (the restore's pick). */
  stores: string[] = [];
  private busy: string | undefined;
  private generation = 0;
  /** Each load of a section has a number; an older load's answer is dropped. */
  private readonly loads = { entries: 0, bans: 0, log: 0, ordered: 0 };
  private readonly abort = new AbortController();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly deps: PlayerDeps,
    readonly ref: PlayerRef,
    /** How the universe reads: `Demo Universe (123456) on Local Sandbox`. */
    readonly where: string,
    restored?: vscode.WebviewPanel,
  ) {
    const media = vscode.Uri.joinPath(deps.extensionUri, 'media');
    const options = { enableScripts: true, localResourceRoots: [media] };
    const title = t`Player ${ref.userId}`;
    this.panel =
      restored ??
      vscode.window.createWebviewPanel(PlayerPanel.viewType, title, vscode.ViewColumn.Active, {
        ...options,
        enableFindWidget: true,
      });
    if (restored) {
      restored.webview.options = options;
      restored.title = title;
    }
    this.disposables.push(
      this.panel.onDidDispose(() => this.dispose()),
      this.panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
    );
    this.panel.webview.html = this.html(vscode.Uri.joinPath(media, 'players'));
    void this.refresh();
  }

  get state(): PlayerState {
    return {
      heading: t`User ${this.ref.userId}`,
      where: this.where,
      restore: { ...this.ref },
      ...this.sections,
      busy: this.busy,
      readOnly: isReadOnly(this.ref),
      generation: this.generation,
    };
  }

  /** Reads every section again; resolves when each is read (or has failed, which it shows). */
  async refresh(): Promise<void> {
    await Promise.all([this.loadEntries(), this.loadBans(), this.loadLog(), this.loadOrdered()]);
  }

  /** The bans and the log again (after a ban or unban). */
  async refreshRestrictions(): Promise<void> {
    await Promise.all([this.loadBans(), this.loadLog()]);
  }

  /** Handles one message from the page (any value: it is checked first). Resolves when its work is done. */
  async receive(message: unknown): Promise<unknown> {
    return receiveFromPage(
      message,
      { name: 'Player page', log: this.deps.log },
      readToHost,
      (m) => this.handle(m),
      (error) => {
        const text = t`Failed to ${failureOf(readToHost(message))} (user ${this.ref.userId} in ${this.where}): ${reason(error)}`;
        this.deps.log.error(text, error);
        void this.deps.ui.error(text);
      },
    );
  }

  private async handle(m: ToHost): Promise<unknown> {
    switch (m.type) {
      case 'ready': {
        this.pageLoads++;
        sendTexts(this.panel.webview);
        this.post();
        return undefined;
      }
      case 'painted':
        this.painted = { generation: m.generation, entries: m.entries, bans: m.bans, log: m.log, ordered: m.ordered };
        return undefined;
      case 'open':
        return this.open(m.row);
      case 'action':
        if (m.action === 'refresh') return this.refresh();
        if (m.action === 'checkLive') return this.checkLive();
        return runAction(this.actions, m.action);
      case 'ban':
      case 'unban':
        return runAction(this.actions, m.type, m.placeId);
    }
  }

  private get actions(): PlayerActions {
    return { deps: this.deps, panel: this };
  }

  /** Opens the live entry of a row, in the data stores' editor. */
  async open(row: number): Promise<void> {
    const entry = this.sections.entries.rows[row];
    if (!entry) throw new Error(t`there is no row ${row + 1}`);
    const { connectionId, universeId } = this.ref;
    await this.deps.openEntry({
      connectionId,
      universeId,
      datastoreName: entry.store,
      scope: entry.scope,
      key: entry.key,
    });
  }

  /** Reads every listed entry from the service again, under a cancellable notification, and marks each row. */
  async checkLive(): Promise<void> {
    const rows = this.sections.entries.rows;
    if (!rows.length || this.busy) return;
    const client = await this.deps.connections.client(this.ref.connectionId);
    for (const row of rows) row.live = undefined;
    const n = rows.length;
    const title = t`Checking ${n} entries of user ${this.ref.userId} in ${this.where} live`;
    this.setBusy(t`Checking live: 0 of ${n}…`);
    let drawn = Date.now();
    try {
      await this.deps.ui.progress(title, (signal, report) =>
        checkLive(client, this.ref, rows, {
          signal: AbortSignal.any([signal, this.abort.signal]),
          budgetShare: settings().bulkBudgetShare,
          onMarked: (done) => {
            report(t`${done} of ${n}`);
            // The page is drawn again at most every 250 ms while rows are marked (and once at the end).
            if (Date.now() - drawn < 250) return;
            drawn = Date.now();
            this.setBusy(t`Checking live: ${done} of ${n}…`);
          },
        }),
      );
      this.sections.entries.checked = t`Checked live at ${timeOfDay(Date.now())}: ${liveSummary(rows)}.`;
    } catch (error) {
      if (!isCancel(error)) throw error;
      this.sections.entries.checked = t`Check Live was stopped: ${liveSummary(rows)}.`;
    } finally {
      this.setBusy(undefined);
    }
  }

  private setBusy(text: string | undefined): void {
    this.busy = text;
    this.post();
  }

  private async loadEntries(): Promise<void> {
    const n = ++this.loads.entries;
    this.sections.entries = { ...this.sections.entries, loading: true };
    this.post();
    let index: IndexFacts = { built: false };
    let entries: PlayerState['entries'];
    try {
      const read = await this.readEntries();
      index = read.index;
      entries = { rows: read.rows, loading: false, truncated: read.truncated };
    } catch (error) {
      if (isCancel(error) || this.abort.signal.aborted) return;
      this.deps.log.error(`Player ${this.ref.userId} in ${this.where}: reading the query index failed`, error);
      entries = {
        rows: [],
        loading: false,
        truncated: false,
        error: t`Could not read the query index of ${this.where} for user ${this.ref.userId}: ${reason(error)}. Press Refresh to try again; if another window uses the index, close it there first.`,
      };
    }
    if (n !== this.loads.entries) return;
    this.sections.index = index;
    this.sections.entries = entries;
    this.post();
  }

  private async readEntries(): Promise<{ index: IndexFacts; rows: EntryRow[]; truncated: boolean }> {
    const { indexes } = this.deps;
    const index = indexes.index(this.ref);
    const signal = this.abort.signal;
    const stores = this.listStores();
    // A universe never indexed has no file: it is not made (nor DuckDB loaded) just to say so.
    const parts = fs.existsSync(index.file) ? await indexes.covered(this.ref) : [];
    const listed = await stores;
    if (!parts.length) return { index: { built: false, notIndexed: listed }, rows: [], truncated: false };
    const indexed = new Set(parts.map((p) => p.store));
    const result = await index.playerEntries(this.ref.userId, { signal, limit: ENTRY_LIMIT });
    return {
      index: {
        built: true,
        coverage: indexes.describe(parts),
        notIndexed: listed?.filter((s) => !indexed.has(s)),
      },
      rows: playerEntryRows(result, this.ref.userId),
      truncated: result.truncated,
    };
  }

  /** The universe's store names (at most 1,000), or undefined when they cannot be listed (it is logged). */
  private async listStores(): Promise<string[] | undefined> {
    try {
      const client = await this.deps.connections.client(this.ref.connectionId);
      const names: string[] = [];
      const listing = client.datastores.listDataStores(
        { universeId: this.ref.universeId },
        { signal: this.abort.signal },
      );
      for await (const store of listing) {
        names.push(store.name);
        if (names.length >= 1000) break;
      }
      this.stores = names;
      return names;
    } catch (error) {
      if (!this.abort.signal.aborted)
        this.deps.log.warn(`Player page: listing the stores of ${this.where}: ${reason(error)}`);
      return undefined;
    }
  }

  private loadBans(): Promise<void> {
    const { ref, where } = this;
    return this.load(
      'bans',
      async (client, signal) => ({ rows: await readBans(client, ref, this.deps.places(ref), signal) }),
      (why) => ({
        rows: [],
        error: t`Could not read the bans of user ${ref.userId} in ${where}: ${why}. Check the connection (Test Connection), then press Refresh.`,
      }),
    );
  }

  private loadLog(): Promise<void> {
    const { ref, where } = this;
    return this.load(
      'log',
      (client, signal) => readLog(client, ref, signal),
      (why) => ({
        rows: [],
        more: false,
        error: t`Could not read the restriction log of user ${ref.userId} in ${where}: ${why}. Check the connection (Test Connection), then press Refresh.`,
      }),
    );
  }

  private loadOrdered(): Promise<void> {
    const { ref, where } = this;
    const stores = this.deps.orderedStores(ref);
    return this.load(
      'ordered',
      async (client, signal) => ({ rows: await readOrdered(client, ref, stores, signal), stores: stores.length }),
      (why) => ({
        rows: [],
        stores: stores.length,
        error: t`Could not read the ordered data stores of ${where} for user ${ref.userId}: ${why}. Check the connection (Test Connection), then press Refresh.`,
      }),
    );
  }

  /** Reads one section through the client; an older read's answer, or one after the page closed, is dropped. */
  private async load<K extends Read>(
    key: K,
    read: (client: OpenApiClient, signal: AbortSignal) => Promise<Omit<Sections[K], 'loading'>>,
    failed: (why: string) => Omit<Sections[K], 'loading'>,
  ): Promise<void> {
    const n = ++this.loads[key];
    this.sections[key] = { ...this.sections[key], loading: true };
    this.post();
    let section: Omit<Sections[K], 'loading'>;
    try {
      const client = await this.deps.connections.client(this.ref.connectionId);
      section = await read(client, this.abort.signal);
    } catch (error) {
      if (this.abort.signal.aborted) return;
      section = failed(reason(error));
    }
    if (n !== this.loads[key]) return;
    this.sections[key] = { ...section, loading: false } as Sections[K];
    this.post();
  }

  get ready(): boolean {
    return this.pageLoads > 0;
  }

  private post(): void {
    this.generation++;
    if (this.ready) this.postMessage({ type: 'state', state: this.state });
  }

  private postMessage(message: ToPage): void {
    if (!this.abort.signal.aborted) void this.panel.webview.postMessage(message);
  }

  /** Static markup only: every value reaches the page by message and is set as text. */
  private html(media: vscode.Uri): string {
    return pageHtml(this.panel.webview, media, t`Player`, playerMarkup());
  }

  dispose(): void {
    if (this.abort.signal.aborted) return;
    this.abort.abort();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}

/** `2 the same, 1 changed since indexed, 1 deleted` (kinds with none left out). */
export function liveSummary(rows: readonly EntryRow[]): string {
  const count = (mark: string) => rows.filter((r) => r.live?.mark === mark).length;
  const parts = [
    [count('same'), t`the same version`],
    [count('changed'), t`changed since indexed`],
    [count('deleted'), t`deleted`],
    [count('untied'), t`no longer tied`],
    [count('failed'), t`could not be read`],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`);
  const unchecked = rows.filter((r) => !r.live).length;
  if (unchecked) said.push(t`${unchecked} not checked`);
  return said.join(', ');
}

function failureOf(message: ToHost | undefined): string {
  switch (message?.type) {
    case 'open':
      return t`open the entry`;
    case 'ban':
      return t`ban the user`;
    case 'unban':
      return t`unban the user`;
    case 'action':
      return {
        refresh: t`refresh the player page`,
        checkLive: t`check the entries live`,
        buildIndex: t`build the query index`,
        restore: t`restore the player to a time`,
        erase: t`erase the player's data`,
      }[message.action];
    default:
      return t`show the player page`;
  }
}
