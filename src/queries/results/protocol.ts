// The messages between the query results panel (host, panel.ts) and its page (page/main.ts, bundled to
// media/queryResults/main.js). The host keeps every row; the page draws only the rows in view and asks the host
// for each window of them. No vscode and no DOM here.
import { isIndex, MAX_WINDOW } from '../../core/pageMessages';

export interface ResultColumn {
  name: string;
  type: string;
}

/**
 * What the page keeps (vscode.setState) so that VS Code can bring the panel back after a window reload: the query
 * and its universe, not its rows (the panel offers to run it again).
 */
export interface ResultRestore {
  connectionId: string;
  universeId: number;
  /** How the universe reads in titles. */
  universeName: string;
  sql: string;
  /** The query document's URI: running it again shows its rows in this panel. */
  document: string;
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
  restore: ResultRestore;
  /** Brought back after a window reload: the query has not run in this window yet (the page offers Run Again). */
  notRun: boolean;
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
  | { type: 'open'; row: number }
  | { type: 'runAgain' }
  | { type: 'banUsers'; kind: 'ban' | 'unban' };

/** Checks a message from the page (any value can arrive); undefined when it is not one of ToHost. */
export function readToHost(message: unknown): ToHost | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
    case 'runAgain':
      return { type: m.type };
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
    case 'banUsers':
      return m.kind === 'ban' || m.kind === 'unban' ? { type: 'banUsers', kind: m.kind } : undefined;
    default:
      return undefined;
  }
}

/** The restore a page saved, checked (any value can come back from VS Code); undefined when it is not one. */
export function readRestore(state: unknown): ResultRestore | undefined {
  const r = (state as { restore?: Record<string, unknown> } | null | undefined)?.restore;
  if (typeof r !== 'object' || r === null) return undefined;
  const { connectionId, universeId, universeName, sql, document } = r;
  if (typeof connectionId !== 'string' || !Number.isSafeInteger(universeId) || (universeId as number) <= 0)
    return undefined;
  if (typeof universeName !== 'string' || typeof sql !== 'string' || typeof document !== 'string') return undefined;
  return { connectionId, universeId: universeId as number, universeName, sql, document };
}
