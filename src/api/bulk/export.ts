// Export of a data store (one scope or all) to NDJSON, resumable. The file's first line says which universe, store
// and scope it holds; a second export into the same file checks that line, reads the entries already there, drops a
// line cut short by a stop, and continues with the keys not yet written. An entry that cannot be read (a value that
// is not JSON, a key that is not valid Unicode, ...) is listed in `<file>.failures.ndjson` and the export goes on.
import fsp = require('node:fs/promises');
import type { EntryArgs, EntryKey } from '../datastores';
import { V2_BUDGET } from '../datastoresV2Wire';
import { entryService, type ApiVersion } from '../entryService';
import {
  AuthError,
  NeedsV1Error,
  NetworkError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitedError,
  ResponseShapeError,
  TimeoutError,
} from '../errors';
import type { OpenApiClient } from '../client';
import type { Page } from '../paging';
import {
  describeHeader,
  entryLineHead,
  entryLineTail,
  FailureLog,
  failuresFileFor,
  formatHeaderLine,
  LineWriter,
  lineDetails,
  lineValue,
  parseEntryLine,
  parseHeaderLine,
  readLines,
  sameExport,
  valueBytesFit,
  type ExportHeader,
  type Line,
} from './ndjson';
import { bulkRun, Progress, type BulkOptions, type BulkRun } from './progress';
import { listAhead, Scheduler } from './scheduler';

export interface ExportArgs {
  universeId: number | string;
  datastoreName: string;
  /** The scope to export (default "global"); ignored with allScopes. */
  scope?: string;
  allScopes?: boolean;
  /** The NDJSON file written. */
  file: string;
  /** Continue the export already in the file (default), or replace the file. */
  resume?: boolean;
  /** Keys per List Entries page (default the most the API gives: 100 through v1, 256 through v2). */
  pageSize?: number;
  /**
   * The data stores API to list and read through (default v1). Through v2, lists and reads count against budgets of
   * their own; a store, scope or key v2 cannot address goes through v1.
   */
  api?: ApiVersion;
  /**
   * Each line also says when its key was created and its version written (`createdTime`, `updatedTime`, as the
   * service said them). Readers that do not know them (the import, a comparison) leave them alone.
   */
  times?: boolean;
  /**
   * A value that is not JSON is written as a JSON string of its text (bytes that are not UTF-8 as U+FFFD) with
   * `"notJson":true`, instead of being a failure. For readers that search values (the query index): the import
   * refuses such lines, as their text is not the stored value.
   */
  notJsonAsText?: boolean;
}

export interface ExportCounts {
  /** Entries written by this run. */
  exported: number;
  /** Entries already in the file from an earlier run. */
  resumed: number;
  /** Listed keys gone by the time they were read (deleted), left out. */
  skipped: number;
  /** Entries that could not be read, each listed in the failures file (an export resumed later tries them again). */
  failed: number;
  /** Keys listed so far that this run reads (those already in the file left out). */
  listed: number;
  /**
   * The listing is complete, so `listed` is every key this run reads. The listing runs ahead of the reads (it needs a
   * request per page, the reads one per key), so this is known long before the export is done.
   */
  listedAll: boolean;
}

export interface ExportResult extends ExportCounts {
  ms: number;
  /** Where the entries that could not be read are listed, when any were. */
  failuresFile?: string;
}

/** An entry that could not be read: its failures-file line. */
interface Failed {
  failure: string;
}

/** An entry's line, held until its turn: the text before its value, the value (its bytes or text), the rest. */
interface Written {
  head: string;
  value: Buffer | string;
  tail: string;
}

/** When a key was created and its version written, as either API reads them. */
interface EntryTimes {
  createdTime?: string;
  versionCreatedTime?: string;
}

const idOf = (k: EntryKey): string => JSON.stringify([k.scope, k.key]);

const failureLine = (k: EntryKey, error: string): Failed => ({
  failure: `${JSON.stringify({ scope: k.scope, key: k.key, error })}\n`,
});

/** Failures that would meet every entry alike (a cancel, a key refused, the service out of reach) stop the export. */
function stopsExport(error: unknown): boolean {
  return (
    (error instanceof Error && error.name === 'AbortError') ||
    [AuthError, PermissionDeniedError, NetworkError, TimeoutError, RateLimitedError].some((C) => error instanceof C)
  );
}

/**
 * v2 reads a stored value as numbers clamped to ±2^53 (docs/SERVICE.md, "Cloud v2 differences"), so a value showing
 * 2^53 may have held a larger number: it is read again through v1, which gives its exact text.
 */
const CLAMPED = String(2 ** 53);

/** Why an entry could not be read, without the request's path (a failures file is read by people). */
function failureReason(error: unknown): string {
  if (error instanceof ResponseShapeError) {
    const at = error.message.indexOf(`: ${error.field}: `);
    return `The service's answer could not be read (${at < 0 ? error.field : error.message.slice(at + 2)})`;
  }
  return error instanceof Error ? error.message : String(error);
}

const HEADER_START = '{"export":';

function notAnExportLine(file: string, line: Line, error: unknown): Error {
  return new Error(
    `${file} line ${line.number} is not an export line (${(error as Error).message}); choose another file or start over`,
    { cause: error },
  );
}

/** Line 1 of a file to continue: the header of this same export, or the file is refused. */
function checkHeader(file: string, line: Line, wanted: ExportHeader): void {
  const found = parseHeaderLine(line.text);
  if (found) {
    if (sameExport(found, wanted)) return;
    throw new Error(
      `${file} holds an export of ${describeHeader(found)}, not of ${describeHeader(wanted)}; ` +
        'choose another file or start over',
    );
  }
  try {
    parseEntryLine(line.text);
  } catch (error) {
    throw notAnExportLine(file, line, error);
  }
  // An entry first: a file of the older format, which does not say what store its entries came from.
  throw new Error(
    `${file} has no export header (an older version wrote it), so it cannot be continued safely; ` +
      'start over to replace it, or choose another file',
  );
}

/**
 * The keys of the entries in `file`, after checking that its header names this export; undefined when the file is
 * missing or holds no complete line. A last line without its newline (a write cut short) is cut off the file.
 */
async function entriesInFile(
  file: string,
  wanted: ExportHeader,
  signal?: AbortSignal,
): Promise<Set<string> | undefined> {
  const done = new Set<string>();
  let complete = 0;
  try {
    for await (const lines of readLines(file, signal)) {
      for (const line of lines) {
        if (!line.terminated) {
          // A first line that was never the start of a header is someone else's file, not a cut-short export.
          if (line.number === 1 && !HEADER_START.startsWith(line.text.slice(0, HEADER_START.length))) {
            throw notAnExportLine(file, line, new Error('no export header'));
          }
          break;
        }
        if (line.number === 1) checkHeader(file, line, wanted);
        else if (line.text.trim() !== '') {
          try {
            done.add(idOf(parseEntryLine(line.text)));
          } catch (error) {
            throw notAnExportLine(file, line, error);
          }
        }
        complete = line.end;
      }
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  await fsp.truncate(file, complete);
  return complete ? done : undefined;
}

/** Keys listed and not yet read at most (about 30 MB of keys): beyond that the listing waits for the reads. */
const LIST_AHEAD = 200_000;

/**
 * The pages of keys not yet in the file, counted into `counts` as they are listed. Listing goes through the scheduler
 * (it counts against the same limit) and runs ahead of the reads, so the reads never wait for a page and the number
 * of keys is known early.
 */
async function* pagesToRead(
  scheduler: Scheduler,
  first: Promise<Page<EntryKey>>,
  done: Set<string> | undefined,
  budget: string | undefined,
  counts: ExportCounts,
): AsyncGenerator<EntryKey[]> {
  const toRead = (items: EntryKey[]): EntryKey[] => (done?.size ? items.filter((k) => !done.has(idOf(k))) : items);
  const onPage = (items: EntryKey[], last: boolean): void => {
    counts.listed += toRead(items).length;
    counts.listedAll = last;
  };
  for await (const items of listAhead(scheduler, await first, { budget, maxAhead: LIST_AHEAD, onPage })) {
    yield toRead(items);
  }
}

/**
 * Writes a header line, then one line per entry: `{scope, key, value, attributes, userIds, version}`, the value as
 * the exact JSON text the service sent. Keys are listed page by page; entries are read concurrently and written in
 * listing order.
 */
export async function exportDataStore(
  client: OpenApiClient,
  args: ExportArgs,
  opts: BulkOptions<ExportCounts> = {},
): Promise<ExportResult> {
  return bulkRun(client, opts, (run) => exportWith(client, args, opts, run));
}

async function exportWith(
  client: OpenApiClient,
  args: ExportArgs,
  opts: BulkOptions<ExportCounts>,
  run: BulkRun,
): Promise<ExportResult> {
  const { signal, scheduler } = run;
  const { universeId, datastoreName } = args;
  const header: ExportHeader = args.allScopes
    ? { universeId, datastoreName, allScopes: true }
    : { universeId, datastoreName, scope: args.scope ?? 'global' };
  const done = (args.resume ?? true) ? await entriesInFile(args.file, header, signal) : undefined;
  const progress = new Progress<ExportCounts>(
    { exported: 0, resumed: done?.size ?? 0, skipped: 0, failed: 0, listed: 0, listedAll: false },
    (c) => c.exported + c.skipped + c.failed,
    opts.onProgress,
  );
  const call = { signal };
  const v2 = args.api === 'v2';
  const listing = {
    universeId,
    datastoreName,
    scope: args.allScopes ? undefined : args.scope,
    allScopes: args.allScopes,
    limit: args.pageSize ?? (v2 ? 256 : 100),
  };
  const readBudget = v2 ? V2_BUDGET.read : undefined;
  const listBudget = v2 ? V2_BUDGET.list : undefined;
  // Per entry: no async frame and no object spread, as this runs once per key. The value's bytes go into the file as
  // the service sent them when that is what its text would be written as (nearly always), else its text.
  const addressOf = (k: EntryKey): EntryArgs => ({ universeId, datastoreName, scope: k.scope, entryKey: k.key });
  const { times, notJsonAsText } = args;
  /** What a line says after its version: nothing unless asked for. */
  const details = (e: EntryTimes, notJson: boolean): string | undefined =>
    times || notJson
      ? lineDetails(times ? { createdTime: e.createdTime, updatedTime: e.versionCreatedTime } : undefined, notJson)
      : undefined;
  const readV1 = (k: EntryKey): Promise<Written | Failed> =>
    client.datastores.getEntryBytes(addressOf(k), call).then((e) =>
      e.json
        ? {
            head: entryLineHead(k.scope, k.key),
            value: valueBytesFit(e.raw) ? e.raw : lineValue(e.raw.toString('utf8')),
            tail: entryLineTail(e.attributes, e.userIds, e.version, details(e, false)),
          }
        : notJsonAsText
          ? {
              head: entryLineHead(k.scope, k.key),
              value: JSON.stringify(e.raw.toString('utf8')),
              tail: entryLineTail(e.attributes, e.userIds, e.version, details(e, true)),
            }
          : failureLine(k, 'The value is not JSON'),
    );
  // v2 gives the value as compact JSON text, which a line holds as it is.
  const readV2 = (k: EntryKey): Promise<Written | Failed> =>
    client.datastoresV2.getEntryText(addressOf(k), call).then(
      (e) =>
        e.text.includes(CLAMPED)
          ? readV1(k)
          : {
              head: entryLineHead(k.scope, k.key),
              value: e.text,
              tail: entryLineTail(e.attributes, e.userIds, e.version, details(e, false)),
            },
      (error: unknown) => {
        if (error instanceof NeedsV1Error) return readV1(k);
        throw error;
      },
    );
  const readOne = v2 ? readV2 : readV1;
  const read = (k: EntryKey): Promise<Written | Failed | undefined> =>
    scheduler
      .run(() => readOne(k), readBudget)
      .then(undefined, (error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        if (stopsExport(error)) throw error;
        return failureLine(k, failureReason(error));
      });

  // The first page is on its way while the files are made ready (a failure to list is met where the pages are read).
  const first = scheduler.run(
    () => (v2 ? entryService(client, 'v2').listKeys(listing, call) : client.datastores.listEntries(listing, call)),
    listBudget,
  );
  first.catch(() => undefined);
  // Every run lists its own failures: the entries an earlier run could not read are tried again.
  const failures = await FailureLog.start(failuresFileFor(args.file), false);
  const out = await LineWriter.open(args.file, done ? 'a' : 'w');
  if (!done) out.write(formatHeaderLine(header));
  const counts = progress.counts;
  let ms: number;
  try {
    const pages = pagesToRead(scheduler, first, done, listBudget, counts);
    // As many entries running as the scheduler has slots (none waits in its queue), more results held for their turn.
    for await (const results of run.map(pages, read, { running: scheduler.concurrency, progress })) {
      for (const result of results) {
        if (result === undefined) counts.skipped++;
        else if ('failure' in result) {
          await failures.write(result.failure);
          counts.failed++;
        } else {
          out.write(result.head);
          if (typeof result.value === 'string') out.write(result.value);
          else out.writeBytes(result.value);
          out.write(result.tail);
          counts.exported++;
        }
      }
      if (out.full) await out.flush();
    }
  } finally {
    await Promise.all([out.close(), failures.close()]);
    ms = progress.end(); // also after a stop, so the caller has the final counts
  }
  return { ...counts, ms, failuresFile: failures.count ? failures.file : undefined };
}
