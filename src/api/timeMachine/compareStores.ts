// Compare two stores: two stores of one universe, one store in two universes (each side with its own client), or a
// store against an export file. Both sides are listed in key order (List Entries lists by scope, then key; an export
// file keeps that order), so the two listings are merge-joined: only a page of keys per side and the window of keys
// being read are held, never a store. A side found out of order stops the comparison with an error.
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
}

/** A key listed by one side; a file's entry comes with it. */
interface Listed extends EntryKey {
  line?: EntryLine;
}

/** A key of the merged listings, and which sides listed it. */
interface Pair extends EntryKey {
  source?: Listed;
  target?: Listed;
}

const isFile = (side: CompareSide): side is FileSide => 'file' in side;

/** Listing order: scope, then key, by UTF-16 code units (as the service and the emulator sort). */
const order = (a: EntryKey, b: EntryKey, scoped: boolean): number => {
  if (scoped && a.scope !== b.scope) return a.scope < b.scope ? -1 : 1;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
};

/**
 * Yields one comparison per key listed by either side, in key order, and returns the counts. Values are compared by
 * their exact bytes (against an export file, the live value with line breaks made spaces and outer whitespace
 * dropped, as the export wrote it); attributes by canonical JSON, user ids as sets. Both sides must be one scope each
 * (keys are matched by key, whatever the scope names), or all scopes each (matched by scope and key). Requests: the
 * listing of each live side and one Get Entry per key on each live side listing it.
 */
export async function* compareStores(
  source: CompareSide,
  target: CompareSide,
  opts: CompareStoresOptions = {},
): AsyncGenerator<StoresComparison, StoresSummary> {
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

  const readSide = async (side: CompareSide, run: BulkRun | undefined, k: Listed | undefined) => {
    if (!k) return undefined;
    if (k.line) return fromLine(k.line);
    const live = side as LiveSide;
    const e = await run!.scheduler
      .run(() =>
        live.client.datastores.getEntry(
          { universeId: live.universeId, datastoreName: live.datastoreName, scope: k.scope, entryKey: k.key },
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
  const comparePair = async (p: Pair): Promise<StoresComparison | undefined> => {
    const [s, t] = await Promise.all([readSide(source, sourceRun, p.source), readSide(target, targetRun, p.target)]);
    return compareHeld(p, s, t);
  };

  const counts = progress.counts;
  let ms: number;
  try {
    const slots = Math.max(sourceRun?.scheduler.concurrency ?? 0, targetRun?.scheduler.concurrency ?? 0) || 16;
    const pairs = mergeJoin(listing(source, sourceRun, signal), listing(target, targetRun, signal), scoped);
    for await (const results of run.map(pairs, comparePair, { window: slots * WINDOW_PER_SLOT, progress })) {
      for (const r of results) {
        if (!r) counts.gone++;
        else {
          counts[r.status]++;
          yield r;
        }
      }
    }
  } finally {
    for (const r of runs.values()) r.end();
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

/** One side's keys in batches, in listing order: a store's pages (one page ahead), or a file's entry lines. */
async function* listing(side: CompareSide, run: BulkRun | undefined, signal?: AbortSignal): AsyncGenerator<Listed[]> {
  const prefix = side.prefix ?? '';
  if (isFile(side)) {
    for await (const lines of readLines(side.file, signal)) {
      const batch: Listed[] = [];
      for (const line of lines) {
        // Line 1 is the header; a last line without its newline is an export cut short, not an entry.
        if (line.number === 1 || !line.terminated || line.text.trim() === '') continue;
        let entry: EntryLine;
        try {
          entry = parseEntryLine(line.text);
        } catch (error) {
          throw new Error(`${side.file} line ${line.number}: ${(error as Error).message}`, { cause: error });
        }
        if (entry.key.startsWith(prefix)) batch.push({ scope: entry.scope, key: entry.key, line: entry });
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

/** Reads a batched listing one key at a time, checking that it goes up in listing order. */
class Cursor {
  private batch: Listed[] = [];
  private i = 0;
  private last?: Listed;
  private readonly it: AsyncIterator<Listed[]>;
  current?: Listed;

  constructor(
    batches: AsyncIterable<Listed[]>,
    private readonly name: string,
    private readonly scoped: boolean,
  ) {
    this.it = batches[Symbol.asyncIterator]();
  }

  /** Whether the next key is at hand, without waiting for a page. */
  get buffered(): boolean {
    return this.i < this.batch.length;
  }

  async advance(): Promise<void> {
    while (this.i >= this.batch.length) {
      const next = await this.it.next();
      if (next.done) {
        this.current = undefined;
        return;
      }
      [this.batch, this.i] = [next.value, 0];
    }
    const k = this.batch[this.i++];
    if (this.last && order(this.last, k, this.scoped) >= 0) {
      throw new Error(
        `The ${this.name} is not listed in key order (${JSON.stringify(k.key)} came after ` +
          `${JSON.stringify(this.last.key)}), so it cannot be compared by streaming`,
      );
    }
    this.current = this.last = k;
  }

  async close(): Promise<void> {
    await this.it.return?.();
  }
}

/** Merges two listings in key order into pairs, in batches. */
async function* mergeJoin(
  source: AsyncIterable<Listed[]>,
  target: AsyncIterable<Listed[]>,
  scoped: boolean,
): AsyncGenerator<Pair[]> {
  const [s, t] = [new Cursor(source, 'source', scoped), new Cursor(target, 'target', scoped)];
  try {
    await Promise.all([s.advance(), t.advance()]);
    let batch: Pair[] = [];
    while (s.current || t.current) {
      const c = !t.current ? -1 : !s.current ? 1 : order(s.current, t.current, scoped);
      const k = c <= 0 ? s.current! : t.current!;
      batch.push({
        scope: k.scope,
        key: k.key,
        source: c <= 0 ? s.current : undefined,
        target: c >= 0 ? t.current : undefined,
      });
      // The pairs so far go out before waiting for a page, so their reads start while it comes.
      if (batch.length >= 100 || (c <= 0 && !s.buffered) || (c >= 0 && !t.buffered)) {
        yield batch;
        batch = [];
      }
      await Promise.all([c <= 0 ? s.advance() : undefined, c >= 0 ? t.advance() : undefined]);
    }
    if (batch.length) yield batch;
  } finally {
    await Promise.all([s.close(), t.close()]);
  }
}
