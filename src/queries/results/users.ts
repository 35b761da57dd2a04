// The user ids of a query result, for Ban Users… and Unban Users Everywhere… of the results panel: which columns
// hold them, and the distinct ids of every row of one. No vscode here.
import { readUserId } from '../../api/bans';
import { t } from '../../core/text';
import type { ResultColumn } from './protocol';

/** At most this many distinct users are handed to a ban or an unban. */
export const MAX_USERS = 100_000;

const WHOLE_TYPES = /^U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)$/;
const TEXT_TYPES = /^(VARCHAR|JSON)$/;

/** A name like user, userId, user_id, player, playerIds, target_user_id (any case, with or without _ or -). */
export function namesUsers(name: string): boolean {
  return /(user|player)(id)?s?$/.test(name.toLowerCase().replace(/[\s_-]/g, ''));
}

/** A user id: a whole number from 1 to 2^53 - 1, as a number or as its digits (read as a ban list reads them). */
export function userIdOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v > 0 ? v : undefined;
  const id = typeof v === 'string' ? readUserId(v) : undefined;
  return typeof id === 'number' ? id : undefined;
}

/** The values a cell holds: a list's items (nested lists flattened), a JSON column's array or value, or the cell. */
function valuesOf(cell: unknown, type: string): unknown[] {
  if (Array.isArray(cell)) return cell.flatMap((v) => valuesOf(v, ''));
  if (type === 'JSON' && typeof cell === 'string') {
    try {
      return valuesOf(JSON.parse(cell) as unknown, '');
    } catch {
      return [cell];
    }
  }
  return cell === null || cell === undefined ? [] : [cell];
}

/**
 * The columns that hold user ids: named like a user, of a whole number type or a list of one, or text or JSON with
 * at least one id in it.
 */
export function userColumns(columns: readonly ResultColumn[], rows: readonly unknown[][]): number[] {
  return columns.flatMap((c, i) => {
    if (!namesUsers(c.name)) return [];
    const item = c.type.replace(/(\[\d*\])+$/, '');
    if (WHOLE_TYPES.test(item)) return [i];
    if (!TEXT_TYPES.test(item)) return [];
    return rows.some((r) => valuesOf(r[i], c.type).some((v) => userIdOf(v) !== undefined)) ? [i] : [];
  });
}

export interface ResultUsers {
  /** Distinct, in the order first met. */
  userIds: number[];
  /** Rows that gave no user id (NULL, an empty list, or only values that are no id). */
  rowsWithout: number;
  /** Values that are no user id (text, zero or less, 2^53 or more), NULLs not counted. */
  notIds: number;
}

/** The distinct user ids of one column over every row; throws beyond MAX_USERS. */
export function usersOf(rows: readonly unknown[][], column: number, type: string, name: string): ResultUsers {
  const ids = new Set<number>();
  let rowsWithout = 0;
  let notIds = 0;
  for (const row of rows) {
    let found = false;
    for (const v of valuesOf(row[column], type)) {
      const id = userIdOf(v);
      if (id === undefined) {
        if (v !== null) notIds++;
        continue;
      }
      found = true;
      ids.add(id);
      if (ids.size > MAX_USERS)
        throw new Error(
          t`column ${name} holds more than ${MAX_USERS.toLocaleString('en-US')} distinct user ids; narrow the query with a WHERE or a LIMIT`,
        );
    }
    if (!found) rowsWithout++;
  }
  return { userIds: [...ids], rowsWithout, notIds };
}

/** What was left out, as a sentence, e.g. "2 rows had no user id; 1 value was not a user id." ('' when nothing). */
export function leftOut(users: ResultUsers): string {
  const parts: string[] = [];
  if (users.rowsWithout)
    parts.push(users.rowsWithout === 1 ? t`1 row had no user id` : t`${users.rowsWithout} rows had no user id`);
  if (users.notIds)
    parts.push(users.notIds === 1 ? t`1 value was not a user id` : t`${users.notIds} values were not user ids`);
  return parts.length ? parts.join('; ') + '.' : '';
}
