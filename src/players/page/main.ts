// The player page (runs in the webview; bundled by esbuild.js to media/players/main.js). The host reads everything;
// this page draws the state it sends and sends back what is pressed. Every value is set with textContent, never as
// HTML. The entries table is a grid: Up, Down, Page Up/Down, Home and End move, Enter opens the live entry. After
// each state it draws, the page tells the host what its rows show (`painted`).
import { element } from '../../core/pageDom';
import { fromBundle, t, useTranslator } from '../../core/text';
import { localTime, utcTime } from '../../core/time';
import type { BanRow, EntryRow, LogRow, OrderedRow, PlayerRef, PlayerState, Tie, ToHost, ToPage } from '../protocol';

/** What the page keeps across a hide and a window reload: whose page (read by the host's serializer), the row. */
interface PageState {
  restore?: PlayerRef;
  active?: number;
}

interface VsCodeApi {
  postMessage(message: ToHost): void;
  getState(): PageState | undefined;
  setState(state: PageState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const send = (message: ToHost) => vscode.postMessage(message);

const heading = element('heading');
const where = element('where');
const busy = element('busy');
const coverage = element('coverage');
const checked = element('checked');
const grid = element('entries');
const entryRows = element('entryRows');
const banRows = element('banRows');
const logRows = element('logRows');
const logStatus = element('logStatus');
const orderedRows = element('orderedRows');
const orderedStatus = element('orderedStatus');
const buttons = {
  refresh: element<HTMLButtonElement>('refresh'),
  restore: element<HTMLButtonElement>('restore'),
  erase: element<HTMLButtonElement>('erase'),
  checkLive: element<HTMLButtonElement>('checkLive'),
  buildIndex: element<HTMLButtonElement>('buildIndex'),
};

let state: PlayerState | undefined;
/** The focused entry row. */
let active = vscode.getState()?.active ?? 0;

for (const [action, button] of Object.entries(buttons)) {
  button.addEventListener('click', () => {
    if (button.getAttribute('aria-disabled') !== 'true')
      send({ type: 'action', action: action as keyof typeof buttons });
  });
}

function enable(button: HTMLButtonElement, on: boolean): void {
  button.setAttribute('aria-disabled', String(!on));
}

function problem(id: string, text: string | undefined): void {
  const el = element(id);
  el.textContent = text ?? '';
  el.hidden = !text;
}

function cell(text: string, className?: string): HTMLTableCellElement {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function timeCell(iso: string | null | undefined): HTMLTableCellElement {
  const td = cell('');
  if (!iso) return td;
  const time = document.createElement('time');
  time.dateTime = iso;
  time.textContent = localTime(iso);
  td.title = t`UTC ${utcTime(iso)}`;
  td.append(time);
  return td;
}

/** A row of one cell across the table (loading, empty), not a row of data. */
function note(text: string, columns: number): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.className = 'note';
  const td = cell(text, 'muted');
  td.colSpan = columns;
  tr.append(td);
  return tr;
}

const TIE: Record<Tie, () => string> = {
  key: () => t`key names the id`,
  userIds: () => t`user ids: only theirs`,
  shared: () => t`user ids: shared`,
};

function liveText(live: EntryRow['live']): string {
  if (!live) return '';
  switch (live.mark) {
    case 'same':
      return t`same version`;
    case 'changed':
      return live.tie && live.tie !== 'key' ? t`changed since indexed (${TIE[live.tie]()})` : t`changed since indexed`;
    case 'deleted':
      return t`deleted`;
    case 'untied':
      return t`no longer tied`;
    case 'failed':
      return t`could not be read: ${live.note ?? ''}`;
  }
}

function entryRow(row: EntryRow, i: number): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.id = `entry-${i}`;
  tr.dataset.row = String(i);
  tr.setAttribute('role', 'row');
  tr.setAttribute('aria-selected', String(i === active));
  if (i === active) tr.classList.add('active');
  const cells = [
    cell(row.store),
    cell(row.scope),
    cell(row.key, 'key'),
    cell(TIE[row.tie](), `tie tie-${row.tie}`),
    timeCell(row.updated),
    cell(row.version, 'version'),
    cell(liveText(row.live), row.live ? `live live-${row.live.mark}` : 'live'),
  ];
  for (const td of cells) td.setAttribute('role', 'gridcell');
  // Long keys and versions are cut short in the grid; the whole text is in the tooltip.
  cells[2].title = row.key;
  cells[5].title = row.version;
  tr.append(...cells);
  return tr;
}

function drawEntries(s: PlayerState): void {
  const { entries, index } = s;
  if (!index.built) {
    coverage.textContent = t`This universe has no query index yet: Build Query Index… copies its data stores into a local index, and this page then lists the player's entries.`;
  } else {
    const missing = index.notIndexed?.length ? ' ' + t`Not indexed: ${index.notIndexed.join(', ')}.` : '';
    coverage.textContent = t`Indexed: ${index.coverage ?? ''}.` + missing + ' ' + t`Check Live reads each entry again.`;
  }
  buttons.buildIndex.hidden = index.built && !index.notIndexed?.length;
  problem('entriesProblem', entries.error);
  checked.textContent = entries.truncated
    ? t`Only the first ${entries.rows.length} entries are listed.` + (entries.checked ? ` ${entries.checked}` : '')
    : (entries.checked ?? '');
  active = Math.max(0, Math.min(active, entries.rows.length - 1));
  if (entries.loading && !entries.rows.length) entryRows.replaceChildren(note(t`Loading…`, 7));
  else if (!entries.rows.length)
    entryRows.replaceChildren(note(index.built ? t`No entry of this player in the indexed stores.` : '', 7));
  else entryRows.replaceChildren(...entries.rows.map(entryRow));
  grid.setAttribute('aria-activedescendant', entries.rows.length ? `entry-${active}` : '');
  grid.setAttribute('aria-rowcount', String(entries.rows.length + 1));
}

const altAccounts = (exclude: boolean): string => (exclude ? t`this account only` : t`also banned`);

function banState(row: BanRow): string {
  if (row.error) return t`could not be read: ${row.error}`;
  if (!row.active) return t`not banned`;
  return row.inherited ? t`banned (inherited from the universe)` : t`banned`;
}

function banRow(row: BanRow, readOnly: boolean): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.className = row.active ? 'banned' : 'clear';
  const action = cell('');
  // An inherited ban is lifted at the universe's row; a level that could not be read offers nothing.
  if (!readOnly && !row.error && !row.inherited) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'secondary';
    const what = row.active ? 'unban' : 'ban';
    button.dataset.action = `${what}:${row.placeId ?? ''}`;
    button.textContent = row.active ? t`Unban…` : t`Ban…`;
    button.addEventListener('click', () => send({ type: what, placeId: row.placeId }));
    action.append(button);
  }
  tr.append(
    cell(row.placeId === undefined ? t`Universe` : t`Place ${row.placeId}`),
    cell(banState(row), row.active ? 'active' : undefined),
    cell(row.duration),
    timeCell(row.ends),
    cell(row.active ? row.displayReason : '', 'reason'),
    cell(row.active ? row.privateReason : '', 'reason'),
    cell(row.active ? altAccounts(row.excludeAltAccounts) : ''),
    action,
  );
  return tr;
}

function drawBans(s: PlayerState): void {
  const focused = document.activeElement instanceof HTMLButtonElement ? document.activeElement.dataset.action : '';
  problem('bansProblem', s.bans.error);
  if (s.bans.loading && !s.bans.rows.length) banRows.replaceChildren(note(t`Loading…`, 8));
  else banRows.replaceChildren(...s.bans.rows.map((r) => banRow(r, s.readOnly)));
  if (focused) banRows.querySelector<HTMLButtonElement>(`button[data-action="${CSS.escape(focused)}"]`)?.focus();
}

function logRow(row: LogRow): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.append(
    timeCell(row.time),
    cell(row.place ? t`Place ${row.place}` : t`Universe`),
    cell(row.moderator),
    cell(row.active ? t`Banned` : t`Lifted`, row.active ? 'active' : 'lifted'),
    cell(row.duration),
    cell(row.displayReason, 'reason'),
    cell(row.privateReason, 'reason'),
    cell(row.active ? altAccounts(row.excludeAltAccounts) : ''),
  );
  return tr;
}

function drawLog(s: PlayerState): void {
  problem('logProblem', s.log.error);
  const n = s.log.rows.length;
  logStatus.textContent = s.log.loading
    ? t`Loading…`
    : (n === 1 ? t`1 entry, newest first.` : t`${n} entries, newest first.`) +
      (s.log.more ? ' ' + t`Only the newest ${n} are shown; the Restriction Log lists them all.` : '');
  if (!n) logRows.replaceChildren(note(s.log.loading ? '' : t`No restriction of this player was ever logged.`, 8));
  else logRows.replaceChildren(...s.log.rows.map(logRow));
}

function orderedRow(row: OrderedRow): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.append(
    cell(row.store),
    cell(row.scope),
    row.error ? cell(t`could not be read: ${row.error}`, 'problem') : cell(row.value, 'number'),
  );
  return tr;
}

function drawOrdered(s: PlayerState): void {
  const { ordered } = s;
  problem('orderedProblem', ordered.error);
  orderedStatus.textContent = ordered.stores
    ? t`The entry keyed by this user id in each ordered data store added to this universe (${ordered.stores}).`
    : t`No ordered data store is added to this universe: the service cannot list them. Add one under Ordered Data Stores in the Universes view, then Refresh.`;
  if (ordered.loading && !ordered.rows.length) orderedRows.replaceChildren(note(t`Loading…`, 3));
  else if (!ordered.rows.length)
    orderedRows.replaceChildren(note(ordered.stores ? t`No entry keyed by this user id.` : '', 3));
  else orderedRows.replaceChildren(...ordered.rows.map(orderedRow));
}

/** The text of each data row of a table body, cell by cell. */
const texts = (body: HTMLElement): string[][] =>
  Array.from(body.querySelectorAll('tr:not(.note)')).map((tr) =>
    Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? ''),
  );

function draw(next: PlayerState): void {
  state = next;
  vscode.setState({ restore: next.restore, active });
  heading.textContent = next.heading;
  where.textContent = next.where;
  busy.textContent = next.busy ?? '';
  document.body.setAttribute('aria-busy', String(!!next.busy || next.entries.loading));
  for (const b of [buttons.restore, buttons.erase]) b.hidden = next.readOnly;
  enable(buttons.checkLive, !next.busy && next.entries.rows.length > 0);
  enable(buttons.refresh, !next.busy);
  drawEntries(next);
  drawBans(next);
  drawLog(next);
  drawOrdered(next);
  send({
    type: 'painted',
    generation: next.generation,
    entries: texts(entryRows),
    bans: texts(banRows),
    log: texts(logRows),
    ordered: texts(orderedRows),
  });
}

function setActive(n: number): void {
  const total = state?.entries.rows.length ?? 0;
  if (!total) return;
  entryRows.querySelector(`#entry-${active}`)?.classList.remove('active');
  entryRows.querySelector(`#entry-${active}`)?.setAttribute('aria-selected', 'false');
  active = Math.max(0, Math.min(total - 1, n));
  const row = entryRows.querySelector(`#entry-${active}`);
  row?.classList.add('active');
  row?.setAttribute('aria-selected', 'true');
  row?.scrollIntoView({ block: 'nearest' });
  grid.setAttribute('aria-activedescendant', `entry-${active}`);
  vscode.setState({ restore: state?.restore, active });
}

grid.addEventListener('keydown', (event) => {
  const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 };
  if (event.key in moves) setActive(active + moves[event.key]);
  else if (event.key === 'Home') setActive(0);
  else if (event.key === 'End') setActive((state?.entries.rows.length ?? 1) - 1);
  else if (event.key === 'Enter' && state?.entries.rows.length) send({ type: 'open', row: active });
  else return;
  event.preventDefault();
});

const rowOf = (event: Event): number | undefined => {
  const row = (event.target as HTMLElement).closest<HTMLElement>('tr[data-row]')?.dataset.row;
  return row === undefined ? undefined : Number(row);
};
entryRows.addEventListener('click', (event) => {
  const n = rowOf(event);
  if (n !== undefined) setActive(n);
});
entryRows.addEventListener('dblclick', (event) => {
  const n = rowOf(event);
  if (n !== undefined) send({ type: 'open', row: n });
});

window.addEventListener('message', (event: MessageEvent<ToPage>) => {
  const message = event.data;
  if (message?.type === 'texts') useTranslator(fromBundle(message.bundle));
  if (message?.type === 'state') draw(message.state);
});

send({ type: 'ready' });
