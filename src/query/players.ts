// The answer of playerEntriesSql read as rows: the entries the rule ties to a user (api's playerTie), for every face
// that shows a player (the player page, the agent tools).
import { playerTie, type PlayerTie } from '../api';
import type { QueryResult } from './types';

/** An entry of playerEntriesSql's answer that the rule ties to the user (api's playerTie), with how. */
export interface PlayerEntryRow {
  store: string;
  scope: string;
  key: string;
  tie: PlayerTie;
  /** ISO 8601 (UTC), or null when the index has no time. */
  updated: string | null;
  version: string;
}

/** DuckDB gives a TIMESTAMP (UTC) without a zone. */
const utcIso = (time: string): string => (/[zZ]|[+-]\d\d:?\d\d$/.test(time) ? time : `${time.replace(' ', 'T')}Z`);

/** The rows of playerEntriesSql's `result` tied to `userId`; rows the rule does not tie are left out. */
export function playerEntryRows(result: QueryResult, userId: number): PlayerEntryRow[] {
  const at = (name: string) => {
    const i = result.columns.findIndex((c) => c.name === name);
    if (i < 0) throw new Error(`the query index gave no ${name} column`);
    return i;
  };
  const [store, scope, key, version, updated, userIds] = [
    'store',
    'scope',
    'key',
    'version',
    'updated_time',
    'user_ids',
  ].map(at);
  const rows: PlayerEntryRow[] = [];
  for (const r of result.rows) {
    // A user_ids cell holds numbers, or text beyond 2^53.
    const ids = Array.isArray(r[userIds]) ? (r[userIds] as unknown[]).map(Number) : [];
    const tie = playerTie(String(r[key]), ids, userId);
    if (!tie) continue;
    const time = r[updated];
    rows.push({
      store: String(r[store]),
      scope: String(r[scope]),
      key: String(r[key]),
      tie,
      updated: typeof time === 'string' ? utcIso(time) : null,
      version: String(r[version] ?? ''),
    });
  }
  return rows;
}
