// History of a field: for one entry and one JSON path, the versions where the value at that path changed. Versions
// are listed oldest first; their values are read through the bulk scheduler, a bounded window ahead, and compared
// by canonical JSON (object key order ignored).
import type { OpenApiClient } from '../client';
import { NotFoundError } from '../errors';
import type { Page } from '../paging';
import type { EntryVersion } from '../schemas';
import { startRun, type BulkOptions } from '../bulk/progress';
import { pagesAhead, type Scheduler } from '../bulk/scheduler';
import { readVersion, versionAt, type EntryAddress, type EntryAt } from './at';

/** A path into a JSON value: object keys and array indexes. */
export type FieldPath = (string | number)[];

const PLAIN = /^[^.[\]"]+/;

/**
 * Reads a path such as `inventory.sword`, `items[2]`, `items.2` or `a["b.c"].d`: keys separated by dots, indexes in
 * brackets, keys holding dots, brackets or quotes as JSON strings in brackets. Throws an Error saying what is wrong.
 */
export function parseFieldPath(text: string): FieldPath {
  const path: FieldPath = [];
  const fail = (what: string, at: number): never => {
    throw new Error(`Invalid field path ${JSON.stringify(text)}: ${what} at character ${at + 1}`);
  };
  if (text.trim() === '') throw new Error('The field path is empty');
  let i = 0;
  while (i < text.length) {
    if (text[i] === '[') {
      const close = bracketEnd(text, i);
      if (close < 0) fail('a "[" without its "]"', i);
      const inner = text.slice(i + 1, close).trim();
      if (/^\d+$/.test(inner)) path.push(Number(inner));
      else if (inner.startsWith('"')) {
        let key: unknown;
        try {
          key = JSON.parse(inner);
        } catch {
          fail('a quoted key that is not a JSON string', i + 1);
        }
        if (typeof key !== 'string') fail('a quoted key that is not a JSON string', i + 1);
        path.push(key as string);
      } else fail('brackets need an index (items[2]) or a quoted key (["a.b"])', i + 1);
      i = close + 1;
    } else {
      if (path.length) {
        if (text[i] !== '.') fail('expected "." or "["', i);
        i++;
      }
      const m = PLAIN.exec(text.slice(i));
      if (!m) fail(i === text.length ? 'nothing after "."' : `unexpected ${JSON.stringify(text[i])}`, i);
      path.push(m![0]);
      i += m![0].length;
    }
    if (i < text.length && text[i] !== '.' && text[i] !== '[') fail(`unexpected ${JSON.stringify(text[i])}`, i);
  }
  return path;
}

/** The index of the "]" closing the bracket at `start`, skipping a quoted key; -1 when there is none. */
function bracketEnd(text: string, start: number): number {
  let i = start + 1;
  while (text[i] === ' ') i++;
  if (text[i] === '"') {
    for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    if (i >= text.length) return -1;
    i++;
  }
  return text.indexOf(']', i);
}

/** Writes a path back as `parseFieldPath` reads it. */
export function formatFieldPath(path: FieldPath): string {
  return path
    .map((p, n) => {
      if (typeof p === 'number') return `[${p}]`;
      if (/^[^.[\]"]+$/.test(p)) return n === 0 ? p : `.${p}`;
      return `[${JSON.stringify(p)}]`;
    })
    .join('');
}

/** The value at `path` (an array index also as a digit key, an object key also as a number); undefined when absent. */
export function valueAtPath(json: unknown, path: FieldPath | string): unknown {
  let value = json;
  for (const p of typeof path === 'string' ? parseFieldPath(path) : path) {
    if (Array.isArray(value)) {
      const index = typeof p === 'number' ? p : /^\d+$/.test(p) ? Number(p) : -1;
      if (index < 0 || index >= value.length) return undefined;
      value = value[index];
    } else if (typeof value === 'object' && value !== null && Object.hasOwn(value, String(p))) {
      value = (value as Record<string, unknown>)[String(p)];
    } else return undefined;
  }
  return value;
}

/** JSON text with object keys sorted at every depth: equal for values that differ only in key order. */
export function canonicalJson(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v) ?? 'null').join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort();
    const members = keys.flatMap((k) => {
      const v = canonicalJson((value as Record<string, unknown>)[k]);
      return v === undefined ? [] : [`${JSON.stringify(k)}:${v}`];
    });
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** One version where the field's value changed. */
export interface FieldChange {
  version: string;
  createdTime: string;
  /** The value before (undefined when absent, or when the version before held no JSON). */
  before: unknown;
  /** The value this version holds (undefined when absent, deleted or not JSON). */
  after: unknown;
  /** The version that held `before`; absent before the first version. */
  previous?: EntryVersion;
  /** This version is a deletion of the entry. */
  deleted?: true;
  /** This version's value is not JSON (written by another tool): the field cannot be read in it. */
  notJson?: true;
}

export interface FieldHistoryOptions extends BulkOptions<never> {
  /** Only versions written at or after this time; the value in effect just before it is where changes count from. */
  since?: Date;
  /** Only versions written at or before this time. */
  until?: Date;
  /** Versions per List Entry Versions page (default 100). */
  pageSize?: number;
}

/** What a version held at the path: a state compared between versions, and the value. */
interface Held {
  state: string;
  value: unknown;
  notJson?: true;
}

const ABSENT = '\u0000absent';

function heldIn(entry: EntryAt | undefined, path: FieldPath): Held {
  if (!entry) return { state: ABSENT, value: undefined };
  if (!entry.json) return { state: `\u0000not json ${entry.raw.toString('base64')}`, value: undefined, notJson: true };
  const value = valueAtPath(entry.value, path);
  return { state: canonicalJson(value) ?? ABSENT, value };
}

/**
 * Yields, oldest first, each version of the entry where the value at `path` differs from the version before it:
 * appearing, changing, disappearing (a deletion of the entry included, flagged `deleted`), or a value that is not
 * JSON (flagged `notJson`, not thrown). Requests: the version listing page by page, one value read per live version
 * (up to a window of them ahead, in order), and with `since` two more for the value just before it. A version thinned
 * away by the service between its listing and its read is skipped. Stopping the iteration stops the requests.
 */
export async function* fieldHistory(
  client: OpenApiClient,
  address: EntryAddress,
  path: FieldPath | string,
  opts: FieldHistoryOptions = {},
): AsyncGenerator<FieldChange> {
  const fields = typeof path === 'string' ? parseFieldPath(path) : path;
  const run = startRun(client, opts);
  const { signal, scheduler } = run;
  const call = { signal };
  try {
    let previous: EntryVersion | undefined;
    let held: Held = { state: ABSENT, value: undefined };
    if (opts.since) {
      const just = new Date(opts.since.getTime() - 1);
      previous = await scheduler.run(() => versionAt(client, address, just, call));
      if (previous && !previous.deleted) {
        const v = previous;
        held = heldIn(await scheduler.run(() => readVersion(client, address, v, call)), fields);
      }
    }
    const read = async (v: EntryVersion): Promise<[EntryVersion, EntryAt | undefined] | undefined> => {
      if (v.deleted) return [v, undefined];
      const entry = await scheduler.run(() => readVersion(client, address, v, call));
      return entry ? [v, entry] : undefined;
    };
    for await (const results of run.map(versionPages(client, address, opts, scheduler, signal), read)) {
      for (const result of results) {
        if (!result) continue;
        const [v, entry] = result;
        const now = heldIn(entry, fields);
        if (now.state !== held.state) {
          const change: FieldChange = {
            version: v.version,
            createdTime: v.createdTime,
            before: held.value,
            after: now.value,
          };
          if (previous) change.previous = previous;
          if (v.deleted) change.deleted = true;
          if (now.notJson) change.notJson = true;
          yield change;
        }
        held = now;
        previous = v;
      }
    }
  } finally {
    run.end();
  }
}

/** The entry's versions oldest first, page by page, one page ahead; none for a key the service does not know. */
async function* versionPages(
  client: OpenApiClient,
  address: EntryAddress,
  opts: FieldHistoryOptions,
  scheduler: Scheduler,
  signal: AbortSignal,
): AsyncGenerator<EntryVersion[]> {
  const args = {
    universeId: address.universeId,
    datastoreName: address.datastoreName,
    scope: address.scope ?? 'global',
    entryKey: address.key,
    startTime: opts.since?.toISOString(),
    endTime: opts.until?.toISOString(),
    sortOrder: 'Ascending' as const,
    limit: opts.pageSize ?? 100,
  };
  let page: Page<EntryVersion> | undefined;
  try {
    page = await scheduler.run(() => client.datastores.listEntryVersions(args, { signal }));
  } catch (error) {
    if (error instanceof NotFoundError) return;
    throw error;
  }
  yield* pagesAhead(scheduler, page);
}
