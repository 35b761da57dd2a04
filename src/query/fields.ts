// The JSON fields seen in an index's values (for completions in the editor): one query walks a sample of the values
// a few levels down and counts each path, and the paths are written as DuckDB reads them after ->> or in
// json_extract. Pure: the SQL is run by universeIndex.ts.

/** A path through a value: member names, and null for "any element" of an array. */
export type FieldPath = (string | null)[];

export interface JsonField {
  path: FieldPath;
  /** In how many of the sampled entries it is. */
  entries: number;
  /** The JSON types seen there: object, array, string, number, boolean, null. */
  types: string[];
}

export interface JsonFields {
  /** The most common first. */
  fields: JsonField[];
  /** How many entries were looked at (a sample of a large index). */
  sampled: number;
}

/** Entries looked at, levels walked, members and elements looked at per object and array, paths given. */
export const FIELD_LIMITS = { sample: 10_000, depth: 5, members: 200, elements: 20, paths: 500 };

/**
 * One query: a sample of the values walked `depth` levels down (an object's members and an array's elements, so
 * `items[*].id` is a path), each path counted once per entry. Member names come from DuckDB's own reading of the
 * JSON (a MAP of the object), so no name is mistaken for a path. An empty name is left out: no path reaches it.
 */
export function jsonFieldsSql(limits = FIELD_LIMITS): string {
  const { sample, depth, members, elements, paths } = limits;
  return [
    'WITH RECURSIVE sampled AS (',
    `  SELECT row_number() OVER () AS e, value FROM (SELECT value FROM entries USING SAMPLE reservoir(${sample} ROWS))`,
    '), node(e, depth, path, v) AS (',
    '  SELECT e, 0, []::VARCHAR[], value FROM sampled',
    '  UNION ALL',
    '  SELECT e, depth + 1, list_append(path, child.key), child.value FROM (',
    `    SELECT e, depth, path, unnest(map_entries(CAST(v AS MAP(VARCHAR, JSON)))[1:${members}]) AS child`,
    `    FROM node WHERE depth < ${depth} AND json_type(v) = 'OBJECT'`,
    '    UNION ALL',
    `    SELECT e, depth, path, {'key': NULL::VARCHAR, 'value': unnest(CAST(v AS JSON[])[1:${elements}])}`,
    `    FROM node WHERE depth < ${depth} AND json_type(v) = 'ARRAY'`,
    '  )',
    ')',
    "SELECT path, count(DISTINCT e) AS entries, list_sort(list_distinct(list(coalesce(json_type(v), 'NULL')))) AS types,",
    `  least((SELECT count(*) FROM entries), ${sample}) AS sampled`,
    "FROM node WHERE depth > 0 AND path[-1] IS NOT NULL AND NOT list_contains(path, '')",
    `GROUP BY path ORDER BY entries DESC, path LIMIT ${paths}`,
  ].join('\n');
}

/** DuckDB's JSON types in JSON's words. */
function jsonType(type: string): string {
  switch (type) {
    case 'OBJECT':
    case 'ARRAY':
    case 'BOOLEAN':
    case 'NULL':
      return type.toLowerCase();
    case 'VARCHAR':
      return 'string';
    default:
      return 'number';
  }
}

/** The fields from the rows of jsonFieldsSql. */
export function readFields(rows: unknown[][]): JsonFields {
  const fields = rows.map(([path, entries, types]) => ({
    path: path as FieldPath,
    entries: Number(entries),
    types: [...new Set((types as string[]).map(jsonType))],
  }));
  return { fields, sampled: rows.length ? Number(rows[0][3]) : 0 };
}

/** A member name that needs no quotes in a JSON path. */
const PLAIN = /^[\p{L}_][\p{L}\p{N}_]*$/u;

const step = (name: string | null): string =>
  name === null ? '[*]' : PLAIN.test(name) ? name : `"${name.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * The path as DuckDB reads it after `value->>` or in json_extract: a top-level name as it is (`coins`, `b.c`:
 * a name, not a path), else a JSON path (`$.inventory.sword`, `$.items[*].id`, `$."b.c".x`). A top-level name
 * starting with `$` or `/` would be read as a path, so it is written as one. Not yet a SQL literal: double its quotes.
 */
export function jsonPathOf(path: FieldPath): string {
  if (path.length === 1 && path[0] !== null && !/^[$/]/.test(path[0])) return path[0];
  return `$${path.map((s) => (s === null ? '[*]' : `.${step(s)}`)).join('')}`;
}

/** How a field reads: `coins`, `inventory.sword`, `items[*].id`, `"b.c"`. */
export function fieldName(path: FieldPath): string {
  return path.map((s, i) => (s === null || i === 0 ? step(s) : `.${step(s)}`)).join('');
}
