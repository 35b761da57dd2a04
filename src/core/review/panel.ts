// The review panel, host side: one webview per plan or comparison. An area hands it a Review (the heading, the
// direction in words, counts and every row) and a handler for its buttons and rows; the panel keeps the rows here,
// filters them, and sends the page only the window it shows, so 100,000 rows cost the page what 50 do.
import vscode = require('vscode');
import { reason } from '../errors';
import type { Log } from '../log';
import { t } from '../text';
import { escapeHtml, pageHtml, receiveFromPage, sendTexts } from '../webviewPage';
import {
  readToHost,
  type ReviewButton,
  type ReviewColumns,
  type ReviewFilter,
  type ReviewItem,
  type ReviewKind,
  type ReviewPhase,
  type ReviewRow,
  type ReviewState,
  type ToHost,
  type ToPage,
} from './protocol';

export type { ReviewItem };

export interface Review {
  /** The tab's title. */
  title: string;
  heading: string;
  direction: string;
  phase: ReviewPhase;
  summary: string;
  notes?: string[];
  /** The kinds in the order shown; a kind's count defaults to its rows. */
  kinds: (Omit<ReviewKind, 'count' | 'listed'> & { count?: number })[];
  items: readonly ReviewItem[];
  buttons: ReviewButton[];
  /** What Enter on a row opens, when not its difference: `the entry`. */
  opens?: string;
  /** Other names for the grid's columns (a review of bans: User, Change, Now, Writes); '' hides one. */
  columns?: Partial<ReviewColumns>;
}

const defaultColumns = (): ReviewColumns => ({
  key: t`Key`,
  scope: t`Scope`,
  kind: t`Action`,
  bytes: t`Size`,
  version: t`Version`,
  note: t`Why / what`,
  search: t`Search keys`,
});

export interface ReviewHandler {
  /** A button of the review; what it throws is shown in the panel (a cancel is not). */
  button(id: string, panel: ReviewPanel): Promise<unknown>;
  /** Opens the diff (or the value) of a row. */
  open(item: ReviewItem, panel: ReviewPanel): Promise<unknown>;
  /** The panel was closed (its tab, or a button that closes it). */
  closed?(panel: ReviewPanel): void;
}

export interface ReviewDeps {
  extensionUri: vscode.Uri;
  log: Log;
}

/** The kinds with their counts (a kind's rows unless given), whether rows span scopes, and whether any opens. */
function factsOf(r: Review): Pick<ReviewState, 'kinds' | 'scoped' | 'stored' | 'opens'> {
  const counts = new Map<string, number>();
  for (const item of r.items) counts.set(item.kind, (counts.get(item.kind) ?? 0) + 1);
  const scopes = new Set(r.items.map((i) => i.scope));
  return {
    kinds: r.kinds.map((k) => ({
      id: k.id,
      label: k.label,
      tone: k.tone,
      count: k.count ?? counts.get(k.id) ?? 0,
      listed: counts.has(k.id),
    })),
    stored: r.items.some((i) => i.store !== undefined),
    scoped: scopes.size > 1 || (scopes.size === 1 && !scopes.has('global')) || r.items.some((i) => i.store),
    opens: r.items.some((i) => i.opens !== false),
  };
}

export class ReviewPanel implements vscode.Disposable {
  static readonly viewType = 'universeExplorer.review';

  readonly panel: vscode.WebviewPanel;
  /** How often the page has loaded and said `ready`. */
  pageLoads = 0;
  /** The page's first paint after its last load: ms from the page's start, and the rows drawn. */
  painted?: { ms: number; rows: number };
  private review: Review;
  /** What the state says of the review's rows, worked out once per review (not once per message). */
  private facts: Pick<ReviewState, 'kinds' | 'scoped' | 'stored' | 'opens'>;
  private filter: ReviewFilter = { kinds: [], search: '' };
  private shown: number[] | undefined;
  private generation = 0;
  private busyText: string | undefined;
  private error: string | undefined;
  private disposed = false;
  private readonly paintWaiters: (() => void)[] = [];
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly deps: ReviewDeps,
    review: Review,
    private readonly handler: ReviewHandler,
  ) {
    this.review = review;
    this.facts = factsOf(review);
    const media = vscode.Uri.joinPath(deps.extensionUri, 'media');
    this.panel = vscode.window.createWebviewPanel(ReviewPanel.viewType, review.title, vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [media],
      retainContextWhenHidden: false,
    });
    this.disposables.push(
      this.panel.onDidDispose(() => this.dispose()),
      this.panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
    );
    this.panel.webview.html = this.html(vscode.Uri.joinPath(media, 'review'));
  }

  /** Shows another review in the same panel (the result after a run); the search is kept. */
  show(review: Review): void {
    this.review = review;
    this.facts = factsOf(review);
    this.panel.title = review.title;
    const kinds = new Set(review.kinds.map((k) => k.id));
    this.filter = { kinds: this.filter.kinds.filter((k) => kinds.has(k)), search: this.filter.search };
    this.shown = undefined;
    this.generation++;
    this.error = undefined;
    this.post();
  }

  /** Work under way (the buttons wait), or done (undefined). */
  busy(text: string | undefined): void {
    this.busyText = text;
    this.post();
  }

  get current(): Review {
    return this.review;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** What the page shows. */
  get state(): ReviewState {
    const r = this.review;
    return {
      heading: r.heading,
      direction: r.direction,
      phase: this.busyText ? 'running' : r.phase,
      summary: r.summary,
      notes: r.notes ?? [],
      ...this.facts,
      hint: t`Up and Down move between rows, Enter opens ${r.opens ?? t`the row's difference`}.`,
      buttons: r.buttons,
      filter: { kinds: [...this.filter.kinds], search: this.filter.search },
      total: this.indices().length,
      generation: this.generation,
      columns: { ...defaultColumns(), ...r.columns },
      busy: this.busyText,
      error: this.error,
    };
  }

  /** The rows the filter lets through, from `start`. */
  rows(start: number, count: number): ReviewRow[] {
    const shown = this.indices();
    const rows: ReviewRow[] = [];
    for (let n = start; n < Math.min(shown.length, start + count); n++) {
      const i = shown[n];
      const item = this.review.items[i];
      const { key, scope, store, kind, bytes, version, note } = item;
      const row: ReviewRow = { i, key, scope, kind, bytes, version, note, opens: item.opens !== false };
      if (store !== undefined) row.store = store;
      rows.push(row);
    }
    return rows;
  }

  /** Resolves once the page has drawn its rows after the next (or last) load. */
  whenPainted(): Promise<void> {
    if (this.painted) return Promise.resolve();
    return new Promise((resolve) => this.paintWaiters.push(resolve));
  }

  /** Handles one message from the page (any value: it is checked first). Resolves when its work is done. */
  async receive(message: unknown): Promise<unknown> {
    return receiveFromPage(
      message,
      { name: 'Review', log: this.deps.log },
      readToHost,
      (m) => this.handle(m),
      (error) => {
        this.error = reason(error);
        this.deps.log.error(`${this.review.heading}: ${this.error}`, error);
        this.post();
      },
    );
  }

  private async handle(m: ToHost): Promise<unknown> {
    switch (m.type) {
      case 'ready': {
        this.pageLoads++;
        this.painted = undefined;
        sendTexts(this.panel.webview);
        this.post();
        return undefined;
      }
      case 'rows':
        if (m.generation === this.generation)
          this.postMessage({
            type: 'rows',
            generation: m.generation,
            start: m.start,
            rows: this.rows(m.start, m.count),
          });
        return undefined;
      case 'filter':
        this.filter = m.filter;
        this.shown = undefined;
        this.generation++;
        this.post();
        return undefined;
      case 'button': {
        if (this.busyText || !this.review.buttons.some((b) => b.id === m.id)) return undefined;
        this.error = undefined;
        return this.handler.button(m.id, this);
      }
      case 'open': {
        if (m.generation !== this.generation) return undefined;
        const item = this.review.items[m.i];
        if (!item || item.opens === false) return undefined;
        return this.handler.open(item, this);
      }
      case 'painted':
        this.painted = { ms: m.ms, rows: m.rows };
        for (const resolve of this.paintWaiters.splice(0)) resolve();
        return undefined;
    }
  }

  /** The places of the rows the filter lets through, worked out once per filter. */
  private indices(): number[] {
    if (this.shown) return this.shown;
    const kinds = new Set(this.filter.kinds);
    const search = this.filter.search.trim().toLowerCase();
    const shown: number[] = [];
    const items = this.review.items;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (kinds.size && !kinds.has(item.kind)) continue;
      if (search && !item.key.toLowerCase().includes(search)) continue;
      shown.push(i);
    }
    this.shown = shown;
    return shown;
  }

  private post(): void {
    if (this.pageLoads === 0) return;
    this.postMessage({ type: 'state', state: this.state });
  }

  private postMessage(message: ToPage): void {
    if (!this.disposed) void this.panel.webview.postMessage(message);
  }

  /** Static markup only: every value reaches the page by message and is set as text. */
  private html(media: vscode.Uri): string {
    const escape = escapeHtml;
    const column = (id: string, text: string) =>
      `<span role="columnheader" id="head-${id}" class="col-${id}">${escape(text)}</span>`;
    return pageHtml(
      this.panel.webview,
      media,
      t`Review`,
      `<header>
  <h1 id="heading"></h1>
  <p id="direction" class="direction"></p>
  <p id="summary" class="summary" role="status" aria-live="polite"></p>
  <ul id="notes" class="notes"></ul>
  <p id="problem" class="problem" role="alert" hidden></p>
  <div id="buttons" class="toolbar" role="toolbar" aria-label="${escape(t`Actions`)}"></div>
</header>
<div class="toolbar filters">
  <div id="kinds" class="kinds" role="group" aria-label="${escape(t`Show`)}"></div>
  <span class="spacer"></span>
  <label for="search" id="search-label">${escape(t`Search keys`)}</label>
  <input id="search" type="search" autocomplete="off" spellcheck="false">
</div>
<div id="table" class="table" role="grid" aria-labelledby="heading" aria-rowcount="0" tabindex="0">
  <div class="head" role="row">
    ${column('key', t`Key`)}<span role="columnheader" class="col-scope"><span class="scope-only" id="head-scope">${escape(t`Scope`)}</span><span class="store-scope">${escape(t`Store · scope`)}</span></span>${column('kind', t`Action`)}${column('bytes', t`Size`)}${column('version', t`Version`)}${column('note', t`Why / what`)}
  </div>
  <div id="viewport" class="viewport"><div id="spacer" class="spacer-rows"></div></div>
</div>
<p id="empty" class="muted" hidden>${escape(t`No row matches the filter.`)}</p>
<p id="hint" class="muted hint"></p>`,
    );
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const resolve of this.paintWaiters.splice(0)) resolve();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
    this.handler.closed?.(this);
  }
}
