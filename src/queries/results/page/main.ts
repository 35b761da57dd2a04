// The query results page (runs in the webview; bundled by esbuild.js to media/queryResults/main.js). The host keeps
// the rows: this page draws only those in view (plus a margin), asking the host for each window, with spacer rows
// above and below so the scroll bar reads the whole result. Every value is set with textContent, never as HTML.
// The query and its universe are kept with vscode.setState, so VS Code can bring the panel back after a reload.
import { element } from '../../../core/pageDom';
import { fromBundle, t, useTranslator } from '../../../core/text';
import type { Cell, ResultRestore, ResultState, ToHost, ToPage } from '../protocol';

interface VsCodeApi {
  postMessage(message: ToHost): void;
  setState(state: { restore: ResultRestore }): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const ROW_HEIGHT = 24;
const MARGIN = 20;

const title = element('title');
const status = element('status');
const viewport = element('viewport');
const head = element('head');
const body = element('rows');
const notRun = element('notRun');
const exportCsv = element<HTMLButtonElement>('exportCsv');
const exportNdjson = element<HTMLButtonElement>('exportNdjson');
const banUsers = element<HTMLButtonElement>('banUsers');
const unbanUsers = element<HTMLButtonElement>('unbanUsers');

let state: ResultState | undefined;
/** The window asked for last, and the one drawn. */
let asked: { generation: number; start: number; count: number } | undefined;

const send = (message: ToHost) => vscode.postMessage(message);

function drawState(next: ResultState): void {
  state = next;
  vscode.setState({ restore: next.restore });
  title.textContent = next.title;
  notRun.hidden = !next.notRun;
  viewport.hidden = next.notRun;
  exportCsv.hidden = exportNdjson.hidden = banUsers.hidden = unbanUsers.hidden = next.notRun;
  element('notRunSql').textContent = next.restore.sql;
  status.textContent = next.notRun
    ? t`not run in this window`
    : next.truncated
      ? t`${next.total} rows (the query gave more; add a LIMIT or a WHERE to see the rest)`
      : next.total === 1
        ? t`1 row`
        : t`${next.total} rows`;
  if (next.opensEntries) status.textContent += ' · ' + t`double-click a row to open its entry`;
  head.replaceChildren(
    ...next.columns.map((c, i) => {
      const th = document.createElement('th');
      th.scope = 'col';
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'sort';
      const arrow = next.sort?.column === i ? (next.sort.descending ? ' ▼' : ' ▲') : '';
      button.textContent = c.name + arrow;
      button.title = t`${c.type}: click to sort`;
      button.addEventListener('click', () => send({ type: 'sort', column: i }));
      th.setAttribute(
        'aria-sort',
        next.sort?.column === i ? (next.sort.descending ? 'descending' : 'ascending') : 'none',
      );
      th.append(button);
      return th;
    }),
  );
  asked = undefined;
  askWindow();
}

function askWindow(): void {
  if (!state) return;
  const first = Math.max(0, Math.floor(viewport.scrollTop / ROW_HEIGHT) - MARGIN);
  const count = Math.ceil(viewport.clientHeight / ROW_HEIGHT) + 2 * MARGIN;
  if (asked && asked.generation === state.generation && asked.start === first && asked.count >= count) return;
  asked = { generation: state.generation, start: first, count };
  send({ type: 'window', start: first, count });
}

function spacer(rows: number, columns: number): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.className = 'spacer';
  tr.setAttribute('aria-hidden', 'true');
  const td = document.createElement('td');
  td.colSpan = Math.max(1, columns);
  td.style.height = `${rows * ROW_HEIGHT}px`;
  tr.append(td);
  return tr;
}

function drawRows(generation: number, start: number, rows: Cell[][]): void {
  if (!state || generation !== state.generation) return;
  const columns = state.columns.length;
  const drawn = rows.map((cells, i) => {
    const tr = document.createElement('tr');
    tr.dataset.row = String(start + i);
    tr.setAttribute('aria-rowindex', String(start + i + 2));
    for (const cell of cells) {
      const td = document.createElement('td');
      if (cell === null) {
        td.className = 'null';
        td.textContent = 'NULL';
      } else {
        td.textContent = cell;
        td.title = cell.length > 80 ? cell.slice(0, 2000) : '';
      }
      tr.append(td);
    }
    return tr;
  });
  const after = Math.max(0, state.total - start - rows.length);
  body.replaceChildren(spacer(start, columns), ...drawn, spacer(after, columns));
}

body.addEventListener('dblclick', (event) => {
  if (!state?.opensEntries) return;
  const row = (event.target as HTMLElement).closest('tr')?.dataset.row;
  if (row !== undefined) send({ type: 'open', row: Number(row) });
});
viewport.addEventListener('scroll', () => askWindow(), { passive: true });
window.addEventListener('resize', () => askWindow());
exportCsv.addEventListener('click', () => send({ type: 'export', format: 'csv' }));
exportNdjson.addEventListener('click', () => send({ type: 'export', format: 'ndjson' }));
banUsers.addEventListener('click', () => send({ type: 'banUsers', kind: 'ban' }));
unbanUsers.addEventListener('click', () => send({ type: 'banUsers', kind: 'unban' }));
element('runAgain').addEventListener('click', () => send({ type: 'runAgain' }));

window.addEventListener('message', (event: MessageEvent<ToPage>) => {
  const m = event.data;
  if (m.type === 'texts') useTranslator(fromBundle(m.bundle));
  else if (m.type === 'state') drawState(m.state);
  else if (m.type === 'rows') drawRows(m.generation, m.start, m.rows);
});

send({ type: 'ready' });
