// The messages between the restriction log panel (host, src/webview/restrictionLogPanel.ts) and its page
// (src/webview/page/restrictionLog.ts, bundled to media/restrictionLog/main.js). Both import this file, so the
// protocol has one definition. No vscode and no DOM here.
//
// Handshake: the page sends `ready` once its script runs (after every load, including a re-show of a hidden
// panel); only then does the host send `state`. After that the host sends `state` whenever anything changes.

import { t } from '../../core/text';
import type { LogAction } from './action';
import type { LogRunInfo } from './groups';

export interface LogFilter {
  /** A user id, or "" for every user. */
  user: string;
  /** A place id, or "" for every place (universe-level changes included). */
  place: string;
}

/** One log entry as the page shows it. Every string came from the service and is shown as text only. */
export interface LogRow {
  /** RFC 3339 time of the change. */
  time: string;
  /** What the change did (derived, see action.ts), so an edit does not look like a second ban. */
  action: LogAction;
  user: string;
  /** "" for a universe-level change. */
  place: string;
  moderator: string;
  active: boolean;
  /** `7d`, `permanent`, or "" when the entry lifts a restriction. */
  duration: string;
  displayReason: string;
  privateReason: string;
  excludeAltAccounts: boolean;
  /** The ban run that wrote the entry (its id), if a known run did. */
  run?: string;
}

/** What the page keeps (vscode.setState) so that VS Code can bring the panel back after a window reload. */
export interface LogRestore {
  connectionId: string;
  universeId: number;
  filter: LogFilter;
  /** The run the log is narrowed to, when one is. */
  run?: string;
}

export interface LogState {
  /** What the log belongs to, e.g. "Universe 123456 (Demo Universe) on Local Sandbox". */
  title: string;
  restore: LogRestore;
  filter: LogFilter;
  /** The run whose entries alone are shown, or "" for all. */
  run: string;
  /** The universe's known runs, newest first. */
  runs: LogRunInfo[];
  /** The rows shown: every entry loaded, or the chosen run's. */
  rows: LogRow[];
  /** Entries loaded (more than the rows when a run is chosen). */
  loaded: number;
  hasMore: boolean;
  loading: boolean;
  /** The last failure, shown until the next successful load. */
  error?: string;
}

export type ToPage =
  | { type: 'state'; state: LogState }
  /** The display language's bundle (vscode.l10n.bundle), sent before the first state when one is loaded. */
  | { type: 'texts'; bundle: Record<string, string> };

export type ToHost =
  | { type: 'ready' }
  | { type: 'applyFilter'; filter: LogFilter }
  | { type: 'loadMore' }
  | { type: 'refresh' }
  | { type: 'exportCsv' }
  /** Shows only a run's entries ("": all), loading pages back to its first write. */
  | { type: 'filterRun'; run: string }
  /** Show Player… (the players area's command) for a row's user. */
  | { type: 'showPlayer'; user: string }
  /** Ban Users from a List… or Unban Everywhere… with the distinct users of the `rows` selected. */
  | { type: 'banSelected' | 'unbanSelected'; userIds: string[]; rows: number };

/** The most users the page hands over at once; readToHost refuses more. */
export const MOST_SELECTED = 10_000;

const isUserId = (text: unknown): text is string => typeof text === 'string' && /^[1-9]\d{0,18}$/.test(text);

/** Whether a text can be a run's id (a file name part the store made). */
export const isRunId = (text: unknown): text is string => typeof text === 'string' && /^[\w.-]{1,100}$/.test(text);

/**
 * Why an id typed in the filter cannot be used, or undefined when it can ("" means no filter). The page has no
 * translations: there t reads English.
 */
export function checkFilterId(text: string, what: 'User' | 'Place'): string | undefined {
  if (text === '' || /^[1-9]\d{0,18}$/.test(text)) return undefined;
  return what === 'User' ? t`User id must be a positive whole number.` : t`Place id must be a positive whole number.`;
}

/** The restore part of a page's saved state (any value can arrive); undefined when there is none that is usable. */
export function readRestore(state: unknown): LogRestore | undefined {
  const r = (state as { restore?: Record<string, unknown> } | null | undefined)?.restore;
  const f = r?.filter as Record<string, unknown> | null | undefined;
  if (typeof r?.connectionId !== 'string' || !Number.isSafeInteger(r.universeId) || (r.universeId as number) <= 0)
    return undefined;
  if (typeof f?.user !== 'string' || typeof f.place !== 'string') return undefined;
  const filter = { user: f.user, place: f.place };
  if (checkFilterId(filter.user, 'User') || checkFilterId(filter.place, 'Place')) return undefined;
  const restore: LogRestore = { connectionId: r.connectionId, universeId: r.universeId as number, filter };
  return isRunId(r.run) ? { ...restore, run: r.run } : restore;
}

/** Checks a message from the page (any value can arrive); undefined when it is not one of ToHost. */
export function readToHost(message: unknown): ToHost | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
    case 'loadMore':
    case 'refresh':
    case 'exportCsv':
      return { type: m.type };
    case 'showPlayer':
      return isUserId(m.user) ? { type: 'showPlayer', user: m.user } : undefined;
    case 'banSelected':
    case 'unbanSelected': {
      const ids = m.userIds;
      if (!Array.isArray(ids) || ids.length === 0 || ids.length > MOST_SELECTED || !ids.every(isUserId))
        return undefined;
      const userIds = [...new Set(ids)];
      if (!Number.isSafeInteger(m.rows) || (m.rows as number) < userIds.length) return undefined;
      return { type: m.type, userIds, rows: m.rows as number };
    }
    case 'filterRun':
      return m.run === '' || isRunId(m.run) ? { type: 'filterRun', run: m.run } : undefined;
    case 'applyFilter': {
      const f = m.filter as Record<string, unknown> | null | undefined;
      if (typeof f?.user !== 'string' || typeof f.place !== 'string') return undefined;
      return { type: 'applyFilter', filter: { user: f.user.trim(), place: f.place.trim() } };
    }
    default:
      return undefined;
  }
}
