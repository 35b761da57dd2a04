// The review page (runs in the webview; bundled by esbuild.js to media/review/main.js). It draws only the rows in
// view: the host holds them all and answers each window the page asks for. Every value is set as text.
import { element } from '../../pageDom';
import { formatBytes } from '../../format';
import { fromBundle, t, useTranslator } from '../../text';
import { reviewGrid } from './grid';
import { MAX_WINDOW, type ReviewRow, type ReviewState, type ToHost, type ToPage } from '../protocol';

interface VsCodeApi {
  postMessage(message: ToHost): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const ROW_HEIGHT = 24;
/** Rows drawn above and below those in view, so a scroll shows rows at once. */
const OVERSCAN = 20;

const heading = element('heading');
const direction = element('direction');
const summary = element('summary');
const notes = element('notes');
const problem = element('problem');
const buttons = element('buttons');
const kinds = element('kinds');
const search = element<HTMLInputElement>('search');
const table = element('table');
const viewport = element('viewport');
const spacer = element('spacer');
const empty = element('empty');
const hint = element('hint');

let state: ReviewState | undefined;
/** Rows of the current generation, by their place in the filtered list. */
let cache = new Map<number, ReviewRow>();
/** The window asked for and not answered yet. */
let pending: { generation: number; start: number } | undefined;
/** The focused row's place in the filtered list. */
let active = 0;
let paintedOnce = false;
let drawQueued = false;

const send = (message: ToHost) => vscode.postMessage(message);

function kindLabel(id: string): string {
  return state?.kinds.find((k) => k.id === id)?.label ?? id;
}

function toneOf(id: string): string {
  return state?.kinds.find((k) => k.id === id)?.tone ?? 'same';
}

function cell(className: string, text: string): HTMLElement {
  const span = document.createElement('span');
  span.className = className;
  span.setAttribute('role', 'gridcell');
  span.textContent = text;
  span.title = text;
  return span;
}

function rowElement(n: number, row: ReviewRow | undefined): HTMLElement {
  const el = document.createElement('div');
  el.className = 'row';
  el.id = `row-${n}`;
  el.setAttribute('role', 'row');
  el.setAttribute('aria-rowindex', String(n + 2));
  el.style.top = `${n * ROW_HEIGHT}px`;
  if (n === active) el.classList.add('active');
  if (!row) {
    el.append(cell('col-key muted', t`Loading…`));
    return el;
  }
  el.dataset.i = String(row.i);
  if (row.opens) el.classList.add('opens');
  el.setAttribute('aria-selected', String(n === active));
  const kind = cell(`col-kind tone-${toneOf(row.kind)}`, kindLabel(row.kind));
  el.append(
    cell('col-key', row.key),
    cell('col-scope', row.store === undefined ? row.scope : `${row.store} · ${row.scope}`),
    kind,
    cell('col-bytes', row.bytes === undefined ? '' : formatBytes(row.bytes)),
    cell('col-version', row.version ?? ''),
    cell('col-note', row.note ?? ''),
  );
  return el;
}

/** Draws the rows in view, and asks for those the page does not have. */
function draw(): void {
  drawQueued = false;
  if (!state) return;
  const total = state.total;
  const first = Math.max(0, Math.floor(viewport.scrollTop / ROW_HEIGHT) - OVERSCAN);
  const inView = Math.ceil((viewport.clientHeight || 400) / ROW_HEIGHT);
  const last = Math.min(total, first + inView + 2 * OVERSCAN);
  const drawn: HTMLElement[] = [];
  let missing: number | undefined;
  for (let n = first; n < last; n++) {
    const row = cache.get(n);
    if (!row && missing === undefined) missing = n;
    drawn.push(rowElement(n, row));
  }
  spacer.replaceChildren(...drawn);
  table.setAttribute('aria-activedescendant', total ? `row-${active}` : '');
  if (missing !== undefined && !pending) {
    pending = { generation: state.generation, start: missing };
    send({ type: 'rows', generation: state.generation, start: missing, count: Math.min(MAX_WINDOW, last - missing) });
  }
  if (!paintedOnce && (missing === undefined || total === 0)) {
    paintedOnce = true;
    send({ type: 'painted', ms: performance.now(), rows: drawn.length });
  }
}

function queueDraw(): void {
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(draw);
}

function showState(next: ReviewState): void {
  const fresh = next.generation !== state?.generation;
  state = next;
  heading.textContent = next.heading;
  direction.textContent = next.direction;
  summary.textContent = next.busy ?? next.summary;
  notes.replaceChildren(
    ...next.notes.map((text) => {
      const li = document.createElement('li');
      li.textContent = text;
      return li;
    }),
  );
  problem.textContent = next.error ?? '';
  problem.hidden = !next.error;
  showButtons(next);
  showKinds(next);
  if (document.activeElement !== search) search.value = next.filter.search;
  document.body.classList.toggle('scoped', next.scoped);
  document.body.classList.toggle('stored', next.stored);
  showColumns(next);
  hint.hidden = !next.opens;
  hint.textContent = next.hint;
  if (fresh) {
    cache = new Map();
    pending = undefined;
    active = Math.min(active, Math.max(0, next.total - 1));
  }
  table.setAttribute('aria-rowcount', String(next.total + 1));
  spacer.style.height = `${next.total * ROW_HEIGHT}px`;
  empty.hidden = next.total > 0 || next.kinds.every((k) => !k.listed);
  draw();
}

/** The columns' names, and the grid without the columns a review hides. */
function showColumns(next: ReviewState): void {
  const c = next.columns;
  const grid = reviewGrid(c, next);
  document.body.style.setProperty('--columns', grid.template);
  document.body.style.setProperty('--table-min-width', grid.minWidth);
  for (const id of ['key', 'scope', 'kind', 'bytes', 'version', 'note'] as const) {
    element(`head-${id}`).textContent = c[id];
    if (id !== 'scope') document.body.classList.toggle(`no-${id}`, c[id] === '');
  }
  element('search-label').textContent = c.search;
}

function showButtons(next: ReviewState): void {
  const focused = document.activeElement instanceof HTMLButtonElement ? document.activeElement.dataset.id : undefined;
  buttons.replaceChildren(
    ...next.buttons.map((b) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = b.label;
      button.dataset.id = b.id;
      if (b.title) button.title = b.title;
      if (!b.primary) button.classList.add('secondary');
      if (next.busy) button.setAttribute('aria-disabled', 'true');
      button.addEventListener('click', () => {
        if (!state?.busy) send({ type: 'button', id: b.id });
      });
      return button;
    }),
  );
  if (focused) buttons.querySelector<HTMLButtonElement>(`button[data-id="${CSS.escape(focused)}"]`)?.focus();
}

function showKinds(next: ReviewState): void {
  const focused = document.activeElement instanceof HTMLButtonElement ? document.activeElement.dataset.kind : undefined;
  const chosen = new Set(next.filter.kinds);
  kinds.replaceChildren(
    ...next.kinds.map((k) => {
      const chip = document.createElement('button');
      chip.type = 'button';
      chip.className = `chip tone-${k.tone}`;
      chip.dataset.kind = k.id;
      chip.textContent = `${k.label} ${k.count.toLocaleString('en-US')}`;
      if (!k.listed) {
        chip.setAttribute('aria-disabled', 'true');
        chip.title = k.count ? t`Counted, not listed` : '';
        return chip;
      }
      chip.setAttribute('aria-pressed', String(chosen.has(k.id)));
      chip.addEventListener('click', () => {
        const kindsNow = new Set(state?.filter.kinds ?? []);
        if (kindsNow.has(k.id)) kindsNow.delete(k.id);
        else kindsNow.add(k.id);
        send({ type: 'filter', filter: { kinds: [...kindsNow], search: search.value } });
      });
      return chip;
    }),
  );
  if (focused) kinds.querySelector<HTMLButtonElement>(`button[data-kind="${CSS.escape(focused)}"]`)?.focus();
}

function setActive(n: number): void {
  if (!state?.total) return;
  active = Math.max(0, Math.min(state.total - 1, n));
  const top = active * ROW_HEIGHT;
  if (top < viewport.scrollTop) viewport.scrollTop = top;
  else if (top + ROW_HEIGHT > viewport.scrollTop + viewport.clientHeight)
    viewport.scrollTop = top + ROW_HEIGHT - viewport.clientHeight;
  draw();
}

function openRow(n: number): void {
  const row = cache.get(n);
  if (row?.opens && state) send({ type: 'open', i: row.i, generation: state.generation });
}

table.addEventListener('keydown', (event) => {
  const page = Math.max(1, Math.floor(viewport.clientHeight / ROW_HEIGHT) - 1);
  const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
  if (event.key in moves) setActive(active + moves[event.key]);
  else if (event.key === 'Home') setActive(0);
  else if (event.key === 'End') setActive((state?.total ?? 1) - 1);
  else if (event.key === 'Enter' || event.key === ' ') openRow(active);
  else return;
  event.preventDefault();
});

spacer.addEventListener('click', (event) => {
  const row = (event.target as HTMLElement).closest<HTMLElement>('.row');
  if (!row) return;
  const n = Number(row.id.slice('row-'.length));
  active = n;
  table.focus();
  draw();
  openRow(n);
});

viewport.addEventListener('scroll', queueDraw);
window.addEventListener('resize', queueDraw);

let searchTimer: ReturnType<typeof setTimeout> | undefined;
search.addEventListener('input', () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(
    () => send({ type: 'filter', filter: { kinds: state?.filter.kinds ?? [], search: search.value } }),
    150,
  );
});

window.addEventListener('message', (event: MessageEvent<ToPage>) => {
  const message = event.data;
  if (message?.type === 'texts') useTranslator(fromBundle(message.bundle));
  if (message?.type === 'state') showState(message.state);
  if (message?.type === 'rows' && message.generation === state?.generation) {
    pending = undefined;
    message.rows.forEach((row, k) => cache.set(message.start + k, row));
    draw();
  }
});

send({ type: 'ready' });
