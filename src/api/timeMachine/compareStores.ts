// Compare two stores: two stores of one universe, one store in two universes (each side with its own client), or a
// store against an export file. The service promises no listing order (docs/SERVICE.md, "Paging cursors") and an
// export file may hold its lines in any order (a resumed export appends what it had left), so neither side is trusted
// to be sorted: each side's keys are listed in full (keys only; a file's by the place of each line), sorted by UTF-8
// bytes and merge-joined. Entries are then read a window at a time, never a whole store.
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import type { OpenApiClient } from '../client';
import type { EntryKey } from '../datastores';
import { notFoundAs } from '../errors';
import { parseEntryLine, parseHeaderLine, readLines, type EntryLine, type ExportHeader } from '../bulk/ndjson';
import { Progress, startRun, WINDOW_PER_SLOT, type BulkOptions, type BulkRun } from '../bulk/progress';
import { pagesAhead } from '../bulk/scheduler';
import { canonicalJson } from './fieldHistory';

/** A live store. */
export interface LiveSide {
  client: OpenApiClient;
  universeId: number | string;
  datastoreName: string;
  /** Default "global"; ignored with allScopes. */
  scope?: string;
  allScopes?: boolean;
  prefix?: string;
  /** Keys per List Entries page (default 100). */
  pageSize?: number;
}

/** An export file made by exportDataStore. */
export interface FileSide {
  file: string;
  prefix?: string;
}

export type CompareSide = LiveSide | FileSide;

export type StoresStatus = 'same' | 'different' | 'onlySource' | 'onlyTarget';

/** What differs between the two entries of a key. */
export type Difference = 'value' | 'attributes' | 'userIds';

export interface SideEntry {
  /** The version read (always for a live store; for a file, when the export kept it). */
  version?: string;
  /** The value's size in bytes. */
  bytes: number;
}

export interface StoresComparison extends EntryKey {
  status: StoresStatus;
  /** For "different": what differs. */
  differs?: Difference[];
  source?: SideEntry;
  target?: SideEntry;
}

export interface StoresCounts extends Record<StoresStatus, number> {
  /** Keys listed but deleted on every side listing them before they were read: not yielded. */
  gone: number;
}

export interface StoresSummary extends StoresCounts {
  ms: number;
}

export type CompareStoresOptions = BulkOptions<StoresCounts>;

/** An entry as one side holds it: the value's bytes and metadata. */
interface Held {
  raw: Buffer;
  attributes: Record<string, unknown>;
  userIds: number[];
  version?: string;
  /** The export line it was read from. */
  line?: EntryLine;
}

/** A key listed by one side; for a file, where its line is (bytes start to end), read again when compared. */
interface Listed extends EntryKey {
  line?: number;
  start?: number;
  end?: number;
}

/** A key of the merged listings, and which sides listed it. */
interface Pair extends EntryKey {
  source?: Listed;
  target?: Listed;
}

const isFile = (side: CompareSide): side is FileSide => 'file' in side;

/** The order keys are joined and yielded in: scope (with all scopes), then key, each by UTF-8 bytes. */
const order = (a: EntryKey, b: EntryKey, scoped: boolean): number =>
  (scoped && utf8Order(a.scope, b.scope)) || utf8Order(a.key, b.key);

/**
 * Compares two strings as their UTF-8 bytes would compare (code point order), without encoding them: code units
 * differ from it only where a surrogate (D800-DFFF, half of a code point above FFFF) meets E000-FFFF, so surrogates
 * are moved above those.
 */
export function utf8Order(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const [x, y] = [a.charCodeAt(i), b.charCodeAt(i)];
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

const codePointRank = (unit: number): number => (unit < 0xd800 ? unit : unit < 0xe000 ? unit + 0x2000 : unit - 0x800);

/**
 * Yields one comparison per key listed by either side, in key order (scope, then key, by UTF-8 bytes, whatever order
 * the sides list them in), and returns the counts. Values are compared by their exact bytes (against an export file,
 * the live value with line breaks made spaces and outer whitespace dropped, as the export wrote it); attributes by
 * canonical JSON, user ids as sets. Both sides must be one scope each (keys are matched by key, whatever the scope
 * names), or all scopes each (matched by scope and key). Requests: the listing of each live side and one Get Entry per
 * key on each live side listing it. Memory: every key of both sides until it is compared (about 100 bytes a key on
 * each side), plus the window of entries being read.
 */
export async function* compareStores(
  source: CompareSide,
  target: CompareSide,
  opts: CompareStoresOptions = {},
): AsyncGenerator<StoresComparison, StoresSummary> {
  const compared = compareSides(source, target, opts);
  try {
    for (let r = await compared.next(); ; r = await compared.next()) {
      if (r.done) return r.value;
      yield r.value.result;
    }
  } finally {
    await compared.return(undefined as never);
  }
}

/** A comparison, with the source's export line when the source is a file (what planCopy writes). */
export interface ComparedKey {
  result: StoresComparison;
  sourceLine?: EntryLine;
}

/** compareStores, each comparison with the source's export line. */
export async function* compareSides(
  source: CompareSide,
  target: CompareSide,
  opts: CompareStoresOptions = {},
): AsyncGenerator<ComparedKey, StoresSummary> {
  const [sourceHeader, targetHeader] = await Promise.all([fileHeader(source), fileHeader(target)]);
  const scoped = allScopes(source, sourceHeader);
  if (scoped !== allScopes(target, targetHeader)) {
    throw new Error('Compare one scope with one scope, or all scopes with all scopes: one side has all scopes');
  }
  const runs = new Map<OpenApiClient | undefined, BulkRun & { end(): void }>();
  const runOf = (client: OpenApiClient | undefined): BulkRun & { end(): void } => {
    let run = runs.get(client);
    if (!run) runs.set(client, (run = startRun(client, opts)));
    return run;
  };
  const [sourceRun, targetRun] = [source, target].map((side) => (isFile(side) ? undefined : runOf(side.client)));
  // Two files make no requests: a run of their own still maps their keys and follows the caller's signal.
  const run = sourceRun ?? targetRun ?? runOf(undefined);
  const signal = run.signal;
  const normalize = isFile(source) || isFile(target);
  const progress = new Progress<StoresCounts>(
    { same: 0, different: 0, onlySource: 0, onlyTarget: 0, gone: 0 },
    (c) => c.same + c.different + c.onlySource + c.onlyTarget + c.gone,
    opts.onProgress,
  );
  const handles: (FileHandle | undefined)[] = [];

  const readSide = async (side: CompareSide, run: BulkRun | undefined, file: FileHandle | undefined, k?: Listed) => {
    if (!k) return undefined;
    if (isFile(side)) return fromLine(await readLine(side, file!, k));
    const e = await run!.scheduler
      .run(() =>
        side.client.datastores.getEntry(
          { universeId: side.universeId, datastoreName: side.datastoreName, scope: k.scope, entryKey: k.key },
          { signal: run!.signal },
        ),
      )
      .catch(notFoundAs(undefined));
    return (
      e && {
        raw: normalize ? exportText(e.raw) : e.raw,
        attributes: e.attributes,
        userIds: e.userIds,
        version: e.version,
      }
    );
  };
  const comparePair = async (p: Pair): Promise<ComparedKey | undefined> => {
    const [s, t] = await Promise.all([
      readSide(source, sourceRun, handles[0], p.source),
      readSide(target, targetRun, handles[1], p.target),
    ]);
    const result = compareHeld(p, s, t);
    return result && { result, sourceLine: s?.line };
  };

  const counts = progress.counts;
  let ms: number;
  try {
    for (const [i, side] of [source, target].entries()) if (isFile(side)) handles[i] = await open(side.file);
    const [sourceKeys, targetKeys] = await Promise.all([
      sortedKeys(source, sourceRun, scoped, signal),
      sortedKeys(target, targetRun, scoped, signal),
    ]);
    const slots = Math.max(sourceRun?.scheduler.concurrency ?? 0, targetRun?.scheduler.concurrency ?? 0) || 16;
    const pairs = mergeJoin(sourceKeys, targetKeys, scoped);
    for await (const results of run.map(pairs, comparePair, { window: slots * WINDOW_PER_SLOT, progress })) {
      for (const r of results) {
        if (!r) counts.gone++;
        else {
          counts[r.result.status]++;
          yield r;
        }
      }
    }
  } finally {
    for (const r of runs.values()) r.end();
    await Promise.all(handles.map((h) => h?.close()));
    ms = progress.end();
  }
  return { ...counts, ms };
}

function compareHeld(k: EntryKey, s: Held | undefined, t: Held | undefined): StoresComparison | undefined {
  if (!s && !t) return undefined;
  const result: StoresComparison = { scope: k.scope, key: k.key, status: 'same' };
  if (s) result.source = sideEntry(s);
  if (t) result.target = sideEntry(t);
  if (!t) result.status = 'onlySource';
  else if (!s) result.status = 'onlyTarget';
  else {
    const differs: Difference[] = [];
    if (!s.raw.equals(t.raw)) differs.push('value');
    if (canonicalJson(s.attributes) !== canonicalJson(t.attributes)) differs.push('attributes');
    if (!sameIds(s.userIds, t.userIds)) differs.push('userIds');
    if (differs.length) [result.status, result.differs] = ['different', differs];
  }
  return result;
}

const sideEntry = (h: Held): SideEntry =>
  h.version === undefined ? { bytes: h.raw.length } : { version: h.version, bytes: h.raw.length };

const sameIds = (a: number[], b: number[]): boolean => {
  const [x, y] = [[...a].sort((m, n) => m - n), [...b].sort((m, n) => m - n)];
  return x.length === y.length && x.every((id, i) => id === y[i]);
};

/** A value as an export line holds it: line breaks become spaces and outer whitespace is dropped (formatEntryLine). */
function exportText(raw: Buffer): Buffer {
  const text = raw.toString('utf8');
  return /^\s|[\r\n]|\s$/.test(text) ? Buffer.from(text.replace(/[\r\n]/g, ' ').trim(), 'utf8') : raw;
}

const fromLine = (line: EntryLine): Held => ({
  raw: Buffer.from(line.value, 'utf8'),
  attributes: line.attributes,
  userIds: line.userIds,
  version: line.version,
  line,
});

const allScopes = (side: CompareSide, header: ExportHeader | undefined): boolean =>
  isFile(side) ? header?.allScopes === true : side.allScopes === true;

/** The header of an export file (undefined for a live side); throws when the file does not start with one. */
async function fileHeader(side: CompareSide): Promise<ExportHeader | undefined> {
  if (!isFile(side)) return undefined;
  for await (const lines of readLines(side.file)) {
    const header = parseHeaderLine(lines[0].text);
    if (!header) throw new Error(`${side.file} is not an export file: its first line is not an export header`);
    return header;
  }
  throw new Error(`${side.file} is empty: it is not an export file`);
}

/** One side's keys in batches, in the order it lists them: a store's pages (one page ahead), or a file's lines. */
async function* listing(side: CompareSide, run: BulkRun | undefined, signal?: AbortSignal): AsyncGenerator<Listed[]> {
  const prefix = side.prefix ?? '';
  if (isFile(side)) {
    let start = 0;
    for await (const lines of readLines(side.file, signal)) {
      const batch: Listed[] = [];
      for (const line of lines) {
        const at = start;
        start = line.end;
        // Line 1 is the header; a last line without its newline is an export cut short, not an entry.
        if (line.number === 1 || !line.terminated || line.text.trim() === '') continue;
        const { scope, key } = entryOf(side, line.number, line.text);
        if (key.startsWith(prefix)) batch.push({ scope, key, line: line.number, start: at, end: line.end });
      }
      if (batch.length) yield batch;
    }
    return;
  }
  const { scheduler } = run!;
  const args = {
    universeId: side.universeId,
    datastoreName: side.datastoreName,
    scope: side.allScopes ? undefined : side.scope,
    allScopes: side.allScopes,
    prefix: prefix || undefined,
    limit: side.pageSize ?? 100,
  };
  yield* pagesAhead(
    scheduler,
    await scheduler.run(() => side.client.datastores.listEntries(args, { signal: run!.signal })),
  );
}

/**
 * Every key of one side, sorted in `order` from the last (so the join pops each once paired). A store that lists a
 * key twice has one entry for it; a file that holds a key twice is refused, since its two lines may differ.
 */
async function sortedKeys(
  side: CompareSide,
  run: BulkRun | undefined,
  scoped: boolean,
  signal?: AbortSignal,
): Promise<Listed[]> {
  const keys: Listed[] = [];
  for await (const batch of listing(side, run, signal)) for (const k of batch) keys.push(k);
  keys.sort((a, b) => order(b, a, scoped)); // stable: a file's lines of one key stay in file order
  let n = 0;
  for (const k of keys) {
    const last = n > 0 ? keys[n - 1] : undefined;
    if (!last || order(last, k, scoped) !== 0) keys[n++] = k;
    else if (isFile(side)) {
      throw new Error(
        `${side.file} lines ${last.line} and ${k.line} both hold ${JSON.stringify(k.key)}` +
          `${scoped ? ` (scope ${JSON.stringify(k.scope)})` : ''}: an export holds each key once`,
      );
    }
  }
  keys.length = n;
  return keys;
}

/** The line of a listed file key, read again from its place in the file. */
async function readLine(side: FileSide, handle: FileHandle, k: Listed): Promise<EntryLine> {
  const bytes = Buffer.alloc(k.end! - k.start!);
  const { bytesRead } = await handle.read(bytes, 0, bytes.length, k.start);
  const entry = entryOf(side, k.line!, bytes.toString('utf8', 0, bytesRead).replace(/\r?\n$/, ''));
  if (entry.scope !== k.scope || entry.key !== k.key) {
    throw new Error(
      `${side.file} changed while it was compared: line ${k.line} no longer holds ${JSON.stringify(k.key)}`,
    );
  }
  return entry;
}

function entryOf(side: FileSide, number: number, text: string): EntryLine {
  try {
    return parseEntryLine(text);
  } catch (error) {
    throw new Error(`${side.file} line ${number}: ${(error as Error).message}`, { cause: error });
  }
}

/** Merges two key lists sorted last first into pairs, first first, in batches, letting each key go once paired. */
async function* mergeJoin(source: Listed[], target: Listed[], scoped: boolean): AsyncGenerator<Pair[]> {
  let batch: Pair[] = [];
  while (source.length || target.length) {
    const [s, t] = [source.at(-1), target.at(-1)];
    const c = !t ? -1 : !s ? 1 : order(s, t, scoped);
    const k = (c <= 0 ? s : t)!;
    batch.push({
      scope: k.scope,
      key: k.key,
      source: c <= 0 ? source.pop() : undefined,
      target: c >= 0 ? target.pop() : undefined,
    });
    if (batch.length === 100) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}
