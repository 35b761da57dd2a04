// Export of a data store (one scope or all) to NDJSON, resumable: a second export into the same file reads the
// entries already there, drops a line cut short by a stop, and continues with the keys not yet written.
import * as fsp from 'node:fs/promises';
import type { EntryKey } from '../datastores';
import { NotFoundError, ResponseShapeError } from '../errors';
import type { OpenApiClient } from '../client';
import type { Page } from '../paging';
import { formatEntryLine, LineWriter, parseEntryLine, readLines } from './ndjson';
import { bulkRun, Progress, WINDOW_PER_SLOT, type BulkOptions, type BulkRun } from './progress';
import { orderedMap, Scheduler } from './scheduler';

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
  /** Keys per List Entries page (default 100). */
  pageSize?: number;
}

export interface ExportCounts {
  /** Entries written by this run. */
  exported: number;
  /** Entries already in the file from an earlier run. */
  resumed: number;
  /** Listed keys gone by the time they were read (deleted), left out. */
  skipped: number;
}

export interface ExportResult extends ExportCounts {
  ms: number;
}

const idOf = (k: EntryKey): string => JSON.stringify([k.scope, k.key]);

/** The keys of the complete lines in `file`; a last line without its newline is cut off the file. */
async function entriesInFile(file: string, signal?: AbortSignal): Promise<Set<string>> {
  const done = new Set<string>();
  let complete = 0;
  try {
    for await (const lines of readLines(file, signal)) {
      for (const line of lines) {
        if (!line.terminated) break;
        if (line.text.trim() !== '') {
          try {
            done.add(idOf(parseEntryLine(line.text)));
          } catch (error) {
            throw new Error(
              `${file} line ${line.number} is not an export line (${(error as Error).message}); choose another file or start over`,
              {
                cause: error,
              },
            );
          }
        }
        complete = line.end;
      }
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return done;
    throw error;
  }
  await fsp.truncate(file, complete);
  return done;
}

/**
 * The pages of keys not yet in the file. Listing goes through the scheduler (it counts against the same limit), one
 * page ahead, so the reads never wait for a page.
 */
async function* pagesToRead(
  scheduler: Scheduler,
  first: () => Promise<Page<EntryKey>>,
  done: Set<string>,
): AsyncGenerator<EntryKey[]> {
  let page: Page<EntryKey> | undefined = await scheduler.run(first);
  while (page) {
    const current: Page<EntryKey> = page;
    const next = current.next === undefined ? undefined : scheduler.run(() => current.nextPage());
    next?.catch(() => undefined); // handled when its turn comes
    yield done.size ? current.items.filter((k) => !done.has(idOf(k))) : current.items;
    page = await next;
  }
}

/**
 * Writes one line per entry: `{scope, key, value, attributes, userIds, version}`, the value as the exact JSON
 * text the service sent. Keys are listed page by page; entries are read concurrently and written in listing order.
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
  { signal, scheduler }: BulkRun,
): Promise<ExportResult> {
  const resume = args.resume ?? true;
  const done = resume ? await entriesInFile(args.file, signal) : new Set<string>();
  const progress = new Progress<ExportCounts>(
    { exported: 0, resumed: done.size, skipped: 0 },
    (c) => c.exported + c.skipped,
    opts.onProgress,
  );
  const { universeId, datastoreName } = args;
  const call = { signal };
  const listing = {
    universeId,
    datastoreName,
    scope: args.allScopes ? undefined : args.scope,
    allScopes: args.allScopes,
    limit: args.pageSize ?? 100,
  };
  // Per entry: no async frame and no object spread, as this runs once per key.
  const read = (k: EntryKey): Promise<string | undefined> =>
    scheduler
      .run(() => client.datastores.getEntry({ universeId, datastoreName, scope: k.scope, entryKey: k.key }, call))
      .then(
        (e) => {
          if (!e.json) throw new ResponseShapeError(`The value of "${k.key}" (scope ${k.scope}) is not JSON`, '(body)');
          return formatEntryLine({
            scope: k.scope,
            key: k.key,
            value: e.raw.toString('utf8'),
            attributes: e.attributes,
            userIds: e.userIds,
            version: e.version,
          });
        },
        (error: unknown) => {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        },
      );

  const out = await LineWriter.open(args.file, resume ? 'a' : 'w');
  const counts = progress.counts;
  let ms: number;
  try {
    const window = scheduler.concurrency * WINDOW_PER_SLOT;
    const pages = pagesToRead(scheduler, () => client.datastores.listEntries(listing, call), done);
    for await (const lines of orderedMap(pages, window, read)) {
      for (const line of lines) {
        if (line === undefined) counts.skipped++;
        else {
          out.write(line);
          counts.exported++;
        }
      }
      progress.tick();
      if (out.full) await out.flush();
    }
  } finally {
    await out.close();
    ms = progress.end(); // also after a stop, so the caller has the final counts
  }
  return { ...counts, ms };
}
