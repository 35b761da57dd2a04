// The messages between the query results panel (host, panel.ts) and its page (page/main.ts, bundled to
// media/queryResults/main.js). The host keeps every row; the page draws only the rows in view and asks the host
// for each window of them. No vscode and no DOM here.
import { isIndex, MAX_WINDOW } from '../../core/pageMessages';

export interface ResultColumn {
  name: string;
  type: string;
}

export interface ResultState {
  /** What the results belong to, e.g. "Universe 123456 (Demo Universe) on Local Sandbox". */
  title: string;
  columns: ResultColumn[];
  /** Rows the host holds. */
  total: number;
  /** The query gave more rows than the host keeps. */
  truncated: boolean;
  /** The column the rows are sorted by (host-side), and which way. */
  sort?: { column: number; descending: boolean };
  /** The rows have store, scope and key columns: a double-click opens the entry. */
  opensEntries: boolean;
  /** Each state has its own number: a window asked for under an older state is not drawn. */
  generation: number;
}

/** A cell as the page shows it: text, or null for SQL NULL. */
export type Cell = string | null;

export type ToPage =
  | { type: 'state'; state: ResultState }
  | { type: 'rows'; generation: number; start: number; rows: Cell[][] }
  | { type: 'texts'; bundle: Record<string, string> };

export type ToHost =
  | { type: 'ready' }
  | { type: 'window'; start: number; count: number }
  | { type: 'sort'; column: number }
  | { type: 'export'; format: 'csv' | 'ndjson' }
  | { type: 'open'; row: number };

/** Checks a message from the page (any value can arrive); undefined when it is not one of ToHost. */
export function readToHost(message: unknown): ToHost | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'window':
      return isIndex(m.start) && isIndex(m.count)
        ? { type: 'window', start: m.start, count: Math.min(m.count, MAX_WINDOW) }
        : undefined;
    case 'sort':
      return isIndex(m.column) ? { type: 'sort', column: m.column } : undefined;
    case 'export':
      return m.format === 'csv' || m.format === 'ndjson' ? { type: 'export', format: m.format } : undefined;
    case 'open':
      return isIndex(m.row) ? { type: 'open', row: m.row } : undefined;
    default:
      return undefined;
  }
}
