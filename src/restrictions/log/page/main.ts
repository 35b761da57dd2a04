// The restriction log page (runs in the webview; bundled by esbuild.js to media/restrictionLog/main.js).
// Every value from the service is set with textContent or as an attribute value, never parsed as HTML.
// The filter being typed, and what the host needs to reopen the panel after a reload, are kept with
// vscode.setState; rows come from the host after `ready`.
import { element } from '../../../core/pageDom';
import { fromBundle, t, useTranslator } from '../../../core/text';
import { localTime, utcTime } from '../../../core/time';
import { runHeader, runStretches, runTitle, type LogRunInfo } from '../groups';
import {
  checkFilterId,
  type LogFilter,
  type LogRestore,
  type LogRow,
  type LogState,
  type ToHost,
  type ToPage,
} from '../protocol';
import { RowSelection, type SavedSelection } from './select';

interface PageState {
  /** What is typed in the filter boxes, applied or not. */
  draft?: LogFilter;
  /** Read by the host's WebviewPanelSerializer after a window reload. */
  restore?: LogRestore;
  /** Per ban run (id): whether its rows are folded under its header, as the user last chose. */
  collapsed?: Record<string, boolean>;
  /** The rows selected, under the filter, run and universe they were selected in. */
  selection?: SavedSelection;
}

/** A run with more rows shown than this starts folded. */
const FEW_ROWS = 5;

interface VsCodeApi {
  postMessage(message: ToHost): void;
  getState(): PageState | undefined;
  setState(state: PageState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();

const form = element<HTMLFormElement>('filter');
const userInput = element<HTMLInputElement>('user');
const placeInput = element<HTMLInputElement>('place');
const where = element('where');
const problem = element('problem');
const status = element('status');
const rows = element('rows');
const more = element<HTMLButtonElement>('more');
const runSelect = element<HTMLSelectElement>('run');
const runFilter = element('runFilter');

let page: PageState = vscode.getState() ?? {};
let shown: LogState | undefined;
/** The filter box whose text cannot be used, while its message shows. */
let invalidField: HTMLInputElement | undefined;

const selection = new RowSelection(
  page.selection,
  rows,
  (saved) => {
    page = { ...page, selection: saved };
    vscode.setState(page);
  },
  send,
);

if (page.draft) {
  userInput.value = page.draft.user;
  placeInput.value = page.draft.place;
}

function send(message: ToHost): void {
  vscode.postMessage(message);
}

function saveDraft(): void {
  page = { ...page, draft: { user: userInput.value, place: placeInput.value } };
  vscode.setState(page);
}

function showProblem(text: string | undefined, field?: HTMLInputElement): void {
  invalidField = field;
  problem.textContent = text ?? '';
  problem.hidden = !text;
  for (const input of [userInput, placeInput]) input.setAttribute('aria-invalid', String(input === field));
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const filter = { user: userInput.value.trim(), place: placeInput.value.trim() };
  const userProblem = checkFilterId(filter.user, 'User');
  const placeProblem = checkFilterId(filter.place, 'Place');
  if (userProblem || placeProblem) {
    const field = userProblem ? userInput : placeInput;
    showProblem(userProblem ?? placeProblem, field);
    field.focus();
    return;
  }
  showProblem(undefined);
  send({ type: 'applyFilter', filter });
});

element('clear').addEventListener('click', () => {
  userInput.value = '';
  placeInput.value = '';
  saveDraft();
  showProblem(undefined);
  send({ type: 'applyFilter', filter: { user: '', place: '' } });
});
element('refresh').addEventListener('click', () => send({ type: 'refresh' }));
element('export').addEventListener('click', () => send({ type: 'exportCsv' }));
more.addEventListener('click', () => {
  if (more.getAttribute('aria-disabled') !== 'true') send({ type: 'loadMore' });
});
runSelect.addEventListener('change', () => send({ type: 'filterRun', run: runSelect.value }));
userInput.addEventListener('input', saveDraft);
placeInput.addEventListener('input', saveDraft);

function cell(text: string, className?: string): HTMLTableCellElement {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

/** The user id as a button that opens the player's page (Show Player…). */
function userCell(user: string): HTMLTableCellElement {
  const td = cell('');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'link';
  button.textContent = user;
  button.title = t`Show Player ${user}`;
  button.setAttribute('aria-label', t`Show Player ${user}`);
  button.addEventListener('click', () => send({ type: 'showPlayer', user }));
  td.append(button);
  return td;
}

/** Read when a row is drawn, so the display language's bundle (sent after load) is used. */
const ACTION: Record<LogRow['action'], () => string> = { ban: () => t`Ban`, edit: () => t`Edit`, lift: () => t`Lift` };

function row(r: LogRow): HTMLTableRowElement {
  const tr = document.createElement('tr');
  const time = document.createElement('time');
  time.dateTime = r.time;
  time.textContent = localTime(r.time);
  const timeCell = cell('');
  timeCell.title = t`UTC ${utcTime(r.time)}`;
  timeCell.append(time);
  tr.append(
    selection.rowBox(r),
    timeCell,
    userCell(r.user),
    cell(ACTION[r.action](), `action ${r.action}`),
    cell(r.place || t`universe`, r.place ? undefined : 'muted'),
    cell(r.moderator),
    cell(r.active ? t`Active` : t`Lifted`, r.active ? 'active' : 'lifted'),
    cell(r.duration),
    cell(r.displayReason, 'reason'),
    cell(r.privateReason, 'reason'),
    cell(r.excludeAltAccounts ? t`Yes` : t`No`),
  );
  return tr;
}

/** The Run filter's choices (shown when the universe has runs): all entries, then its runs, newest first. */
function runOptions(s: LogState): void {
  const all = document.createElement('option');
  all.value = '';
  all.textContent = t`All entries`;
  const options = s.runs.map((r) => {
    const option = document.createElement('option');
    option.value = r.id;
    option.textContent = runTitle(r);
    return option;
  });
  runSelect.replaceChildren(all, ...options);
  runSelect.value = s.run;
  runFilter.hidden = s.runs.length === 0;
}

/** Whether a run's rows are folded: as the user chose, else when it has more than a few rows among others. */
function isCollapsed(s: LogState, run: string, rowsShown: number): boolean {
  return page.collapsed?.[run] ?? (s.run !== run && rowsShown > FEW_ROWS);
}

/** Folds or unfolds every stretch of a run in place (the focused button stays), and remembers the choice. */
function fold(run: string, collapsed: boolean): void {
  page = { ...page, collapsed: { ...page.collapsed, [run]: collapsed } };
  vscode.setState(page);
  for (const tr of Array.from(rows.querySelectorAll<HTMLTableRowElement>('tr[data-run]'))) {
    if (tr.dataset.run !== run) continue;
    if (tr.classList.contains('run-group'))
      tr.querySelector('button.disclosure')?.setAttribute('aria-expanded', String(!collapsed));
    else tr.hidden = collapsed;
  }
}

/** The header row where a stretch of a run's rows begins: a disclosure button, and Show only this run. */
function groupRow(s: LogState, run: LogRunInfo | undefined, id: string, entries: number, collapsed: boolean) {
  const tr = document.createElement('tr');
  tr.className = 'run-group';
  tr.dataset.run = id;
  const td = document.createElement('td');
  td.colSpan = 11;
  const toggle = document.createElement('button');
  toggle.type = 'button';
  toggle.className = 'disclosure';
  toggle.setAttribute('aria-expanded', String(!collapsed));
  toggle.textContent = run ? runHeader(run, entries) : id;
  toggle.addEventListener('click', () => fold(id, toggle.getAttribute('aria-expanded') === 'true'));
  td.append(toggle, selection.runBox(id));
  if (s.run !== id) {
    const only = document.createElement('button');
    only.type = 'button';
    only.className = 'secondary';
    only.textContent = t`Show only this run`;
    only.addEventListener('click', () => send({ type: 'filterRun', run: id }));
    td.append(only);
  }
  tr.append(td);
  return tr;
}

/** The rows, each stretch of a run's rows under its header (hidden while folded). */
function rowsWithGroups(s: LogState): HTMLTableRowElement[] {
  const drawn = s.rows.map(row);
  const perRun = new Map<string, number>();
  for (const r of s.rows) if (r.run) perRun.set(r.run, (perRun.get(r.run) ?? 0) + 1);
  const headers = new Map<number, HTMLTableRowElement>();
  const stretchesOf = new Map<string, number>();
  for (const stretch of runStretches(s.rows)) {
    const collapsed = isCollapsed(s, stretch.run, perRun.get(stretch.run) ?? 0);
    const info = s.runs.find((r) => r.id === stretch.run);
    const header = groupRow(s, info, stretch.run, stretch.end - stretch.start, collapsed);
    const nth = stretchesOf.get(stretch.run) ?? 0;
    stretchesOf.set(stretch.run, nth + 1);
    header.querySelector<HTMLElement>('button.disclosure')?.setAttribute('data-focus', `${nth}/${stretch.run}`);
    header.querySelector<HTMLElement>('input[data-run]')?.setAttribute('data-focus', `run/${nth}/${stretch.run}`);
    headers.set(stretch.start, header);
    for (let i = stretch.start; i < stretch.end; i++) {
      drawn[i].dataset.run = stretch.run;
      drawn[i].hidden = collapsed;
    }
  }
  return drawn.flatMap((tr, i) => {
    const header = headers.get(i);
    return header ? [header, tr] : [tr];
  });
}

function describe(s: LogState): string {
  if (s.loading) return t`Loading…`;
  const { user, place } = s.filter;
  const n = s.rows.length;
  const loaded = s.run
    ? t`${n} of ${s.loaded} entries loaded are the run's`
    : n === 1
      ? t`1 entry loaded`
      : t`${n} entries loaded`;
  const filter =
    user && place
      ? t` for user ${user} and place ${place}`
      : user
        ? t` for user ${user}`
        : place
          ? t` for place ${place}`
          : '';
  return `${loaded}${filter}${s.hasMore ? t`; more are available` : ''}.`;
}

function render(s: LogState): void {
  if (!shown && !page.draft) {
    userInput.value = s.filter.user;
    placeInput.value = s.filter.place;
  }
  shown = s;
  page = { ...page, restore: s.restore };
  vscode.setState(page);
  selection.follow(s);
  where.textContent = s.title;
  status.textContent = describe(s);
  if (s.error) showProblem(s.error);
  else if (!invalidField) showProblem(undefined);
  document.body.setAttribute('aria-busy', String(s.loading));
  runOptions(s);
  if (s.rows.length === 0 && !s.loading) {
    const empty = cell(t`No log entries.`, 'muted');
    empty.colSpan = 11;
    const tr = document.createElement('tr');
    tr.append(empty);
    rows.replaceChildren(tr);
  } else {
    // A disclosure button or checkbox that had the focus keeps it when the rows are drawn again.
    const focused = rows.contains(document.activeElement) ? document.activeElement?.getAttribute('data-focus') : null;
    rows.replaceChildren(...rowsWithGroups(s));
    for (const button of Array.from(rows.querySelectorAll<HTMLElement>('[data-focus]')))
      if (button.dataset.focus === focused) button.focus();
  }
  selection.sync();
  more.textContent = s.hasMore ? t`Load more` : t`All entries loaded`;
  more.setAttribute('aria-disabled', String(!s.hasMore || s.loading));
}

window.addEventListener('message', (event: MessageEvent<ToPage>) => {
  const message = event.data;
  if (message?.type === 'texts') useTranslator(fromBundle(message.bundle));
  if (message?.type === 'state') render(message.state);
});

send({ type: 'ready' });
