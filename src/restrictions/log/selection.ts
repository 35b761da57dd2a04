// The rows of the restriction log the user selected, for the page and the host alike: how a row is known in the
// selection, what a selection belongs to, and the distinct users it names. No vscode and no DOM here.
import { t } from '../../core/text';
import { MOST_SELECTED, type LogRow, type LogState } from './protocol';

/** A row in the selection: its time, user and place (the service gives log entries no id). */
export const rowKey = (r: Pick<LogRow, 'time' | 'user' | 'place'>): string => `${r.time}|${r.user}|${r.place}`;

/** What a selection belongs to: the universe, the filter and the run. A selection made under another is cleared. */
export const selectionScope = (s: Pick<LogState, 'restore' | 'filter' | 'run'>): string =>
  JSON.stringify([s.restore.connectionId, s.restore.universeId, s.filter.user, s.filter.place, s.run]);

export interface Selected {
  /** How many of the rows are selected. */
  rows: number;
  /** Their distinct users, in the order of the rows. */
  userIds: string[];
}

/** The selected rows among `rows`, and their users. */
export function selectedOf(rows: readonly LogRow[], keys: ReadonlySet<string>): Selected {
  const picked = rows.filter((r) => keys.has(rowKey(r)));
  return { rows: picked.length, userIds: [...new Set(picked.map((r) => r.user))] };
}

/** Whether the bulk commands take the selection: some users, and at most MOST_SELECTED. */
export const canHandOver = (s: Pick<Selected, 'userIds'>): boolean =>
  s.userIds.length > 0 && s.userIds.length <= MOST_SELECTED;

/** `3 users selected`, and the limit when over it. */
export function describeSelected(s: Selected): string {
  const n = s.userIds.length;
  if (n === 0) return t`No users selected`;
  const users = n === 1 ? t`1 user selected` : t`${n.toLocaleString('en-US')} users selected`;
  return n > MOST_SELECTED ? t`${users}: at most ${MOST_SELECTED.toLocaleString('en-US')} at a time` : users;
}

/** Where the users of a bulk command came from, in words: `12 rows of the restriction log`. */
export const selectionSource = (rows: number): string =>
  rows === 1 ? t`1 row of the restriction log` : t`${rows.toLocaleString('en-US')} rows of the restriction log`;
