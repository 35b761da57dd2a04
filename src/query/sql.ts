// The SQL the index is made of and the SQL it writes for people: the tables, the load of an export file, and the
// searches the editor offers (findValue, playerEntries) as text a user can read and edit. Pure: no DuckDB here.
import type { Statement } from './engine';

/** A SQL string literal: DuckDB reads no backslash escapes in '...', so only the quote is doubled. */
export const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/**
 * The one table users query. `value` holds the entry's JSON (as DuckDB writes JSON back: compact, numbers spelt
 * the shortest way, big integers with every digit). A value that was not JSON (another writer stored plain text) is
 * the JSON string of its text, with `not_json` true.
 */
export const ENTRIES_COLUMNS = [
  ['store', 'VARCHAR'],
  ['scope', 'VARCHAR'],
  ['key', 'VARCHAR'],
  ['version', 'VARCHAR'],
  ['created_time', 'TIMESTAMP'],
  ['updated_time', 'TIMESTAMP'],
  ['user_ids', 'BIGINT[]'],
  ['attributes', 'JSON'],
  ['value', 'JSON'],
  ['not_json', 'BOOLEAN'],
] as const;

/**
 * What is indexed: one row per build, a store's every scope (`scope` NULL) or one scope. `entries` counts the rows it
 * covers now (a scope built on its own counts apart from its store's all-scopes row); `as_of` is when the entries
 * were read (a live build: when its export started; a file: when the file was last written); `source` is `service`
 * or the file's path; `failed` counts entries the export could not read (listed in `failures_file`).
 */
export const INDEX_INFO_COLUMNS = [
  ['store', 'VARCHAR'],
  ['scope', 'VARCHAR'],
  ['entries', 'BIGINT'],
  ['as_of', 'TIMESTAMP'],
  ['built_at', 'TIMESTAMP'],
  ['source', 'VARCHAR'],
  ['failed', 'BIGINT'],
  ['failures_file', 'VARCHAR'],
] as const;

const columnsDdl = (columns: readonly (readonly [string, string])[]): string =>
  columns.map(([name, type]) => `${name} ${type}`).join(', ');

export const CREATE_TABLES = [
  `CREATE TABLE IF NOT EXISTS entries (${columnsDdl(ENTRIES_COLUMNS)})`,
  `CREATE TABLE IF NOT EXISTS index_info (${columnsDdl(INDEX_INFO_COLUMNS)})`,
];

/** The columns of both tables, `table.column type` in order: an index of another layout (another version) is made anew. */
export const LAYOUT = [
  ...ENTRIES_COLUMNS.map(([n, t]) => `entries.${n} ${t}`),
  ...INDEX_INFO_COLUMNS.map(([n, t]) => `index_info.${n} ${t}`),
];

export const LAYOUT_QUERY =
  "SELECT table_name || '.' || column_name || ' ' || data_type FROM information_schema.columns " +
  "WHERE table_schema = 'main' AND table_name IN ('entries', 'index_info') " +
  "ORDER BY table_name = 'index_info', ordinal_position";

/** What an export line holds, as read_json is told (a fixed schema: nothing guessed, nothing sampled). */
const LINE_COLUMNS =
  "{scope: 'VARCHAR', key: 'VARCHAR', value: 'JSON', attributes: 'JSON', userIds: 'BIGINT[]', version: 'VARCHAR', " +
  "createdTime: 'VARCHAR', updatedTime: 'VARCHAR', notJson: 'BOOLEAN'}";

/** A time as the service writes it (.NET style or RFC 3339, any offset) as a UTC TIMESTAMP; NULL when unreadable. */
const utc = (column: string): string => `TRY_CAST(${column} AS TIMESTAMPTZ) AT TIME ZONE 'UTC'`;

/** Which rows a build replaces: a store's, or one scope's of it. */
export const storeRows = (store: string, scope: string | undefined): string =>
  `store = ${literal(store)}${scope === undefined ? '' : ` AND scope = ${literal(scope)}`}`;

/**
 * Inserts the entries of an export file (docs/ARCHITECTURE.md, "The query index") as rows of `store`: DuckDB reads
 * the NDJSON itself. The header line has no key and is left out; a line without scope is in "global".
 */
export function insertFromFile(file: string, store: string, scope: string | undefined): string {
  return (
    `INSERT INTO entries SELECT ${literal(store)}, coalesce(scope, 'global'), key, version, ` +
    `${utc('createdTime')}, ${utc('updatedTime')}, coalesce(userIds, []), coalesce(attributes, '{}'), value, ` +
    `coalesce(notJson, false) FROM read_json(${literal(file)}, format = 'newline_delimited', ` +
    `columns = ${LINE_COLUMNS}, maximum_object_size = 67108864) WHERE key IS NOT NULL` +
    (scope === undefined ? '' : ` AND coalesce(scope, 'global') = ${literal(scope)}`)
  );
}

/**
 * Sets `entries` of each index_info row of `store`: an all-scopes row counts the scopes that have no row of their
 * own.
 */
export const recount = (store: string): string =>
  `UPDATE index_info SET entries = (SELECT count(*) FROM entries e WHERE e.store = index_info.store AND ` +
  `(e.scope = index_info.scope OR (index_info.scope IS NULL AND e.scope NOT IN ` +
  `(SELECT j.scope FROM index_info j WHERE j.store = index_info.store AND j.scope IS NOT NULL)))) ` +
  `WHERE store = ${literal(store)}`;

/** The columns a search shows. */
const FOUND = 'SELECT store, scope, key, value FROM entries';
const ORDER = 'ORDER BY store, scope, key';

/** A JSON number as typed: sign, whole part, fraction, exponent. */
const NUMBER = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** RE2 syntax: the characters a pattern must escape. */
const escapeRegex = (text: string): string => text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');

/**
 * A number as a whole token in JSON text: not part of a longer number (2001 does not find 12001 or 2001.5), spelt as
 * DuckDB writes it (1.50 is 1.5, 2 also finds 2.0). `digits`: its whole part, which any match contains. Undefined
 * when the text is no number.
 */
function numberToken(text: string): { pattern: string; digits: string } | undefined {
  const m = NUMBER.exec(text);
  if (!m) return undefined;
  let [, sign, whole, fraction = ''] = m;
  if (m[4] !== undefined) {
    // An exponent: the plain spelling of the number, when it has one a double keeps exactly.
    const n = Number(text);
    const plain = String(Math.abs(n));
    if (!Number.isFinite(n) || /e/i.test(plain)) return undefined;
    sign = n < 0 ? '-' : '';
    [whole, fraction = ''] = plain.split('.');
  }
  fraction = fraction.replace(/0+$/, '');
  const tail = fraction ? `\\.${fraction}0*` : '(\\.0+)?';
  return { pattern: `(^|[^0-9.])${escapeRegex(sign + whole)}${tail}([^0-9.]|$)`, digits: whole };
}

/**
 * The SQL of "find this text or number anywhere in values": a number (`2001`, `-3.5`, `12345678901234567890`) is
 * found as a whole token anywhere in the value's JSON (a number, or inside a string such as "Player_2001"; the sign
 * is not looked at before it); any other text, case-insensitively, in the value's JSON text (strings and member
 * names; a quote or backslash is searched as JSON escapes it). Returned as text so a user can see and edit it.
 */
export function findValueSql(text: string): string {
  const wanted = text.trim();
  if (!wanted) throw new Error('Say what to find: a text or a number');
  const number = numberToken(wanted);
  if (number !== undefined) {
    return [
      `-- Values holding the number ${wanted} (not as part of a longer number)`,
      FOUND,
      // contains() first: it is fast and leaves the pattern few values to look at.
      `WHERE contains(CAST(value AS VARCHAR), ${literal(number.digits)})`,
      `  AND regexp_matches(CAST(value AS VARCHAR), ${literal(number.pattern)})`,
      ORDER,
    ].join('\n');
  }
  const inJson = JSON.stringify(wanted).slice(1, -1);
  return [
    `-- Values whose JSON text holds ${JSON.stringify(wanted)}, in any case`,
    FOUND,
    `WHERE contains(lower(CAST(value AS VARCHAR)), lower(${literal(inJson)}))`,
    ORDER,
  ].join('\n');
}

/** A player's user id: a whole number above 0. */
export function userIdOf(userId: number | string | bigint): string {
  const text = String(userId).trim();
  if (!/^[1-9]\d{0,18}$/.test(text) || BigInt(text) > 9223372036854775807n) {
    throw new Error(`${JSON.stringify(String(userId))} is no user id (a whole number above 0)`);
  }
  return text;
}

/**
 * The SQL of a player's entries: those whose user ids include the id, or whose key holds it as a whole number
 * (Player_2001 and 2001_save for 2001, not Player_12001 or Player_20010).
 */
export function playerEntriesSql(userId: number | string | bigint): string {
  const id = userIdOf(userId);
  return [
    `-- Entries of user ${id}: listed in their user ids, or with the id in their key`,
    'SELECT store, scope, key, version, updated_time, user_ids, value FROM entries',
    `WHERE list_contains(user_ids, ${id})`,
    `   OR (contains(key, ${literal(id)}) AND regexp_matches(key, ${literal(`(^|[^0-9])${id}([^0-9]|$)`)}))`,
    ORDER,
  ].join('\n');
}

/** The statements a query may be: they read and change nothing. */
export const READING = ['SELECT', 'EXPLAIN'];

/** Why a statement of this kind is not run, in words. */
export function refusal(kind: string): string {
  return (
    `Only statements that read run here (SELECT, WITH, DESCRIBE, SHOW, EXPLAIN, PRAGMA table_info), not ${kind}: ` +
    'the index is a copy of the service, rebuilt from it, and entries change through the editor'
  );
}

/** `EXPLAIN ANALYZE <statement>` runs the statement: the statement it runs, else undefined. */
export function analyzed(sql: string): string | undefined {
  const m = /^\s*EXPLAIN\s+ANALY[SZ]E\s+([\s\S]*)$/i.exec(stripComments(sql));
  return m?.[1];
}

/** Whether the text holds nothing but whitespace and comments. */
export const isBlank = (sql: string): boolean => stripComments(sql).trim() === '';

/** The text without the whitespace, `--` line comments and block comments before its first statement. */
function stripComments(sql: string): string {
  let s = sql;
  for (;;) {
    const next = s.replace(/^\s*(--[^\n]*(\n|$)|\/\*[\s\S]*?\*\/)/, '');
    if (next === s) return s;
    s = next;
  }
}

/** An entry as the editor has it after a read, a save or a restore (the client's Entry fits). */
export interface IndexedEntry {
  /** The value's bytes or text. */
  raw: Buffer | string;
  /** Whether they are JSON (default: found out by parsing them). */
  json?: boolean;
  version: string;
  attributes: Record<string, unknown>;
  userIds: number[];
  createdTime?: string;
  versionCreatedTime?: string;
}

/** An entry update as the statements that make it. */
export interface EntryUpdate {
  scope: string;
  statements: Statement[];
}

/**
 * The statements that keep one row current: a deletion removes it; a value updates the row (keeping its creation
 * time when the entry's is not known) or inserts it.
 */
export function entryUpdate(store: string, scope: string, key: string, entry: IndexedEntry | 'deleted'): EntryUpdate {
  const at = 'store = $store AND scope = $scope AND key = $key';
  if (entry === 'deleted') {
    return { scope, statements: [{ sql: `DELETE FROM entries WHERE ${at}`, params: { store, scope, key } }] };
  }
  const text = typeof entry.raw === 'string' ? entry.raw : entry.raw.toString('utf8');
  const json = entry.json ?? isJson(text);
  const params = {
    store,
    scope,
    key,
    version: entry.version,
    created: entry.createdTime ?? null,
    updated: entry.versionCreatedTime ?? null,
    userIds: JSON.stringify(entry.userIds),
    attributes: JSON.stringify(entry.attributes),
    value: text,
    notJson: !json,
  };
  const [created, updated] = [utc('$created'), utc('$updated')];
  const [userIds, attributes, value] = [
    `from_json($userIds, '["BIGINT"]')`,
    'json($attributes)',
    json ? 'json($value)' : 'to_json($value)',
  ];
  return {
    scope,
    statements: [
      {
        sql:
          `UPDATE entries SET version = $version, created_time = coalesce(${created}, created_time), ` +
          `updated_time = ${updated}, user_ids = ${userIds}, attributes = ${attributes}, value = ${value}, ` +
          `not_json = $notJson WHERE ${at}`,
        params,
      },
      {
        sql:
          `INSERT INTO entries SELECT $store, $scope, $key, $version, ${created}, ${updated}, ${userIds}, ` +
          `${attributes}, ${value}, $notJson ` +
          `WHERE NOT EXISTS (SELECT 1 FROM entries WHERE ${at})`,
        params,
      },
    ],
  };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
