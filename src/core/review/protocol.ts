// The messages between the review panel (host, panel.ts) and its page (page/main.ts, bundled to media/review/main.js).
// Both import this file. No vscode and no DOM here.
//
// The host holds every row (a plan of 100,000 actions stays on the host); the page asks for the rows it can show
// (`rows`, a window of the filtered list) and the host answers with them, tagged with the filter's generation so a
// late answer to an older filter is dropped.

import { isIndex, MAX_WINDOW } from '../pageMessages';

export { MAX_WINDOW };

/** How a kind of row reads: what it adds, changes or removes, leaves alone, or where it failed. */
export type Tone = 'add' | 'change' | 'remove' | 'same' | 'skip' | 'fail';

export interface ReviewKind {
  id: string;
  /** `write`, `re-create`, `skipped`… */
  label: string;
  count: number;
  tone: Tone;
  /** False when the rows of this kind are counted but not listed (unchanged keys of a restore). */
  listed: boolean;
}

export interface ReviewButton {
  id: string;
  label: string;
  primary?: boolean;
  /** Said to screen readers and as the tooltip. */
  title?: string;
}

/** One row of a review, as an area gives it. Every string came from the service or a file and is shown as text only. */
export interface ReviewItem {
  key: string;
  scope: string;
  /** The data store, when a review spans several (an erase). */
  store?: string;
  kind: string;
  /** Bytes written, or of the value, when known. */
  bytes?: number;
  /** The version the action is conditioned on, or the versions compared. */
  version?: string;
  /** Why (a skip's reason, a failure's error) or what differs. */
  note?: string;
  /** Whether a diff (or the value) opens for this row (default true). */
  opens?: boolean;
}

/** One row as the page shows it. */
export interface ReviewRow extends ReviewItem {
  /** The row's place in the host's full list (what `open` names). */
  i: number;
  opens: boolean;
}

export type ReviewPhase = 'plan' | 'compare' | 'running' | 'result';

export interface ReviewState {
  heading: string;
  /** The direction in words: `Settings (scope global) in Demo Universe → as of 23 Nov 10:30`. */
  direction: string;
  phase: ReviewPhase;
  /** One sentence of counts that add up. */
  summary: string;
  notes: string[];
  kinds: ReviewKind[];
  buttons: ReviewButton[];
  /** Whether the rows span more than one scope (then a Scope column shows). */
  scoped: boolean;
  /** Whether rows name their data store (a review over several stores): the column reads `store · scope`. */
  stored: boolean;
  /** How the keys work, said under the grid when a row opens. */
  hint: string;
  /** Whether any row opens a diff (else the page does not say Enter opens one). */
  opens: boolean;
  /** The filter applied: the kinds shown ([] is all) and the key search. */
  filter: ReviewFilter;
  /** Rows the filter lets through, and the filter's generation. */
  total: number;
  generation: number;
  columns: ReviewColumns;
  /** Work under way (a run), shown with the buttons disabled. */
  busy?: string;
  error?: string;
}

/** The grid's columns, as a review names them; an empty name hides the column. */
export interface ReviewColumns {
  key: string;
  /** The Scope column (rows over several stores read `Store · scope`). */
  scope: string;
  kind: string;
  bytes: string;
  version: string;
  note: string;
  /** What the search box searches (`Search keys`). */
  search: string;
}

export interface ReviewFilter {
  kinds: string[];
  search: string;
}

export type ToPage =
  | { type: 'state'; state: ReviewState }
  | { type: 'rows'; generation: number; start: number; rows: ReviewRow[] }
  | { type: 'texts'; bundle: Record<string, string> };

export type ToHost =
  | { type: 'ready' }
  | { type: 'rows'; generation: number; start: number; count: number }
  | { type: 'filter'; filter: ReviewFilter }
  | { type: 'button'; id: string }
  /** `generation`: the filter's when the row was drawn; an open from before the review changed is dropped. */
  | { type: 'open'; i: number; generation: number }
  /** The page drew its first rows: how long after the page began (ms), and how many. */
  | { type: 'painted'; ms: number; rows: number };

const isText = (v: unknown, most = 10_000): v is string => typeof v === 'string' && v.length <= most;

/** Checks a message from the page (any value can arrive); undefined when it is not one of ToHost. */
export function readToHost(message: unknown): ToHost | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'rows':
      if (!isIndex(m.generation) || !isIndex(m.start) || !isIndex(m.count)) return undefined;
      return { type: 'rows', generation: m.generation, start: m.start, count: Math.min(m.count, MAX_WINDOW) };
    case 'filter': {
      const f = m.filter as Record<string, unknown> | null | undefined;
      if (!Array.isArray(f?.kinds) || !f.kinds.every((k) => isText(k, 100)) || !isText(f.search, 1000))
        return undefined;
      return { type: 'filter', filter: { kinds: f.kinds as string[], search: f.search } };
    }
    case 'button':
      return isText(m.id, 100) ? { type: 'button', id: m.id } : undefined;
    case 'open':
      return isIndex(m.i) && isIndex(m.generation) ? { type: 'open', i: m.i, generation: m.generation } : undefined;
    case 'painted':
      return typeof m.ms === 'number' && isIndex(m.rows) ? { type: 'painted', ms: m.ms, rows: m.rows } : undefined;
    default:
      return undefined;
  }
}
