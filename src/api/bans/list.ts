// A list of users to ban or unban, as moderators bring it: ids pasted (any mix of lines, commas, spaces), a text file
// of one id per line, or a CSV (or a spreadsheet's export: a byte-order mark, `;` or tab between cells, quoted cells)
// with the columns userId, duration, displayReason, privateReason, excludeAltAccounts, header optional. Every line
// that is not used is reported with its number and why; nothing is dropped silently.
import { DurationError, parseDuration } from './duration';

/** The columns of a ban list, in the order a list without a header gives them. */
export const BAN_LIST_COLUMNS = ['userId', 'duration', 'displayReason', 'privateReason', 'excludeAltAccounts'] as const;

/** The service's limits on reasons, in characters. */
export const MAX_DISPLAY_REASON = 400;
export const MAX_PRIVATE_REASON = 1000;

/** One user of the list, with what its line says (absent: the run's defaults). */
export interface BanListRow {
  /** The line the user's record starts on (1-based). */
  line: number;
  userId: number;
  /** Whole seconds; null: permanent. */
  durationSeconds?: number | null;
  displayReason?: string;
  privateReason?: string;
  excludeAltAccounts?: boolean;
}

export interface BanListProblem {
  line: number;
  /** The record as written, cut to 80 characters. */
  text: string;
  reason: string;
}

export interface BanList {
  rows: BanListRow[];
  problems: BanListProblem[];
  /** Whether the first record was a header (it is neither a row nor a problem). */
  header: boolean;
  /** Records read (blank ones included): rows + problems + the header. */
  records: number;
}

interface CsvRecord {
  line: number;
  cells: string[];
  text: string;
}

const cut = (text: string): string => (text.length > 80 ? `${text.slice(0, 79)}…` : text);

/** The cell separator: tab or `;` when the first line has one and no comma, else `,`. */
function separatorOf(text: string): string {
  const first = text.slice(0, text.search(/\r?\n|$/));
  if (first.includes('\t')) return '\t';
  if (first.includes(';') && !first.includes(',')) return ';';
  return ',';
}

/** Records of CSV text: quoted cells may hold separators, doubled quotes and line breaks. */
function recordsOf(text: string, separator: string): CsvRecord[] {
  const out: CsvRecord[] = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const start = i;
    const startLine = line;
    const cells: string[] = [];
    let cell = '';
    let quoted = false;
    for (; i < text.length; i++) {
      const c = text[i];
      if (quoted) {
        if (c === '"' && text[i + 1] === '"') {
          cell += '"';
          i++;
        } else if (c === '"') quoted = false;
        else {
          if (c === '\n') line++;
          cell += c;
        }
      } else if (c === '"' && cell.trim() === '') {
        quoted = true;
        cell = '';
      } else if (c === separator) {
        cells.push(cell.trim());
        cell = '';
      } else if (c === '\n' || c === '\r') break;
      else cell += c;
    }
    cells.push(cell.trim());
    out.push({ line: startLine, cells, text: text.slice(start, i) });
    if (text[i] === '\r' && text[i + 1] === '\n') i++;
    i++;
    line++;
  }
  return out;
}

const HEADER_NAMES: Record<string, (typeof BAN_LIST_COLUMNS)[number]> = {
  userid: 'userId',
  user: 'userId',
  id: 'userId',
  duration: 'duration',
  displayreason: 'displayReason',
  privatereason: 'privateReason',
  excludealtaccounts: 'excludeAltAccounts',
};

const headerName = (cell: string) => HEADER_NAMES[cell.toLowerCase().replace(/[\s_-]/g, '')];

/** A user id, or why the text is not one. */
export function readUserId(text: string): number | string {
  const s = text.trim();
  if (s === '') return 'no user id';
  if (/^-\d+$/.test(s)) return `${s} is negative: a user id is a whole number above 0`;
  if (/^\d+(\.\d+)?e\+?\d+$/i.test(s))
    return `${s} is in scientific notation (a spreadsheet rounds such ids): format the column as text and export again`;
  if (!/^\d+$/.test(s)) return `"${cut(s)}" is not a user id: a whole number above 0`;
  const id = Number(s);
  if (id === 0) return '0 is not a user id: a whole number above 0';
  if (!Number.isSafeInteger(id)) return `${s} is larger than 2^53 - 1: no user id is that large`;
  return id;
}

const TRUE = ['true', 'yes', 'y', '1'];
const FALSE = ['false', 'no', 'n', '0'];

/**
 * Reads a ban list. Without a header, a record whose cells are all ids is that many users (pasted ids); any other
 * record is read by position in the order of BAN_LIST_COLUMNS (a duration there needs its unit: `3600s`, `7d`).
 * A user listed again is reported, and the first line naming them is used.
 */
export function parseBanList(input: string): BanList {
  const text = input.replace(/^\uFEFF/, '');
  const separator = separatorOf(text);
  const records = recordsOf(text, separator);
  const rows: BanListRow[] = [];
  const problems: BanListProblem[] = [];
  const firstLine = new Map<number, number>();
  const first = records.find((r) => r.text.trim() !== '');
  const header = first !== undefined && first.cells.some((c) => headerName(c) === 'userId');
  const columns = header ? first.cells.map(headerName) : [...BAN_LIST_COLUMNS];
  if (header) {
    const unknown = first.cells.filter((c) => c !== '' && !headerName(c));
    if (unknown.length)
      problems.push({
        line: first.line,
        text: cut(first.text),
        reason: `unknown column ${unknown.map((c) => `"${cut(c)}"`).join(', ')}: the columns are ${BAN_LIST_COLUMNS.join(', ')}`,
      });
  }
  const problem = (r: CsvRecord, reason: string) => problems.push({ line: r.line, text: cut(r.text), reason });
  const add = (r: CsvRecord, row: BanListRow) => {
    const before = firstLine.get(row.userId);
    if (before !== undefined)
      return problem(r, `user ${row.userId} is already listed on line ${before}: that line is used`);
    firstLine.set(row.userId, r.line);
    rows.push(row);
  };
  for (const r of records) {
    if (header && r === first) continue;
    if (r.text.trim() === '' || r.cells.every((c) => c === '')) {
      problem(r, 'blank line');
      continue;
    }
    const ids = r.cells.flatMap((c) => c.split(/\s+/)).filter((c) => c !== '');
    if (!header && ids.every((c) => /^[-+]?\d+$/.test(c))) {
      for (const c of ids) {
        const id = readUserId(c);
        if (typeof id === 'string') problem(r, id);
        else add(r, { line: r.line, userId: id });
      }
      continue;
    }
    const read = readRow(r, columns);
    if (typeof read === 'string') problem(r, read);
    else add(r, read);
  }
  return { rows, problems, header, records: records.length };
}

/** One record by its columns, or why it cannot be used. */
function readRow(r: CsvRecord, columns: readonly (string | undefined)[]): BanListRow | string {
  const cell = (name: string) => {
    const at = columns.indexOf(name);
    return at < 0 ? '' : (r.cells[at] ?? '');
  };
  if (r.cells.length > columns.length && r.cells.slice(columns.length).some((c) => c !== ''))
    return `${r.cells.length} cells where the list has ${columns.length} columns: quote a reason that holds the separator`;
  const id = readUserId(cell('userId'));
  if (typeof id === 'string') return id;
  const row: BanListRow = { line: r.line, userId: id };
  const duration = cell('duration');
  if (/^permanent$/i.test(duration)) row.durationSeconds = null;
  else if (duration !== '') {
    try {
      row.durationSeconds = parseDuration(duration);
    } catch (error) {
      if (!(error instanceof DurationError)) throw error;
      return `duration: ${error.message}`;
    }
  }
  const display = cell('displayReason');
  if ([...display].length > MAX_DISPLAY_REASON)
    return `the display reason has ${[...display].length} characters; the service takes ${MAX_DISPLAY_REASON} at most`;
  if (display) row.displayReason = display;
  const secret = cell('privateReason');
  if ([...secret].length > MAX_PRIVATE_REASON)
    return `the private reason has ${[...secret].length} characters; the service takes ${MAX_PRIVATE_REASON} at most`;
  if (secret) row.privateReason = secret;
  const alts = cell('excludeAltAccounts').toLowerCase();
  if (TRUE.includes(alts)) row.excludeAltAccounts = true;
  else if (FALSE.includes(alts)) row.excludeAltAccounts = false;
  else if (alts !== '') return `excludeAltAccounts: "${cut(alts)}" is not true or false`;
  return row;
}
