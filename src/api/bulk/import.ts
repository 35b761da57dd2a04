// Import of an NDJSON file (export lines) into a data store: "create only" skips keys that exist, "overwrite"
// sets every entry. Failures go to `<file>.failures.ndjson`, each as its input line with the line number and error
// in front, so the file can be fixed and imported again.
import * as fsp from 'node:fs/promises';
import { PreconditionFailedError } from '../errors';
import type { OpenApiClient } from '../client';
import { LineWriter, parseEntryLine, readLines, type EntryLine, type Line } from './ndjson';
import { bulkRun, Progress, WINDOW_PER_SLOT, type BulkOptions, type BulkRun } from './progress';
import { orderedMap } from './scheduler';

/** createOnly: Set Entry with exclusiveCreate (an existing key is skipped); overwrite: a plain Set Entry. */
export type ImportMode = 'createOnly' | 'overwrite';

export interface ImportArgs {
  universeId: number | string;
  datastoreName: string;
  /** The NDJSON file read; each line names its scope. */
  file: string;
  mode: ImportMode;
}

export interface ImportCounts {
  written: number;
  /** Keys that already existed (createOnly). */
  skipped: number;
  failed: number;
}

export interface ImportResult extends ImportCounts {
  ms: number;
  /** Where the failed lines were written, when any failed. */
  failuresFile?: string;
}

type Outcome = 'written' | 'skipped' | { line: Line; error: string };

export const failuresFileFor = (file: string): string => `${file}.failures.ndjson`;

const isAbort = (error: unknown): boolean => error instanceof Error && error.name === 'AbortError';

/** The input line with its number and error in front (a line that is no JSON object is kept as `text`). */
function failureLine(line: Line, error: string): string {
  const head = `{"line":${line.number},"error":${JSON.stringify(error)}`;
  const text = line.text.trim();
  let object = false;
  try {
    const parsed: unknown = JSON.parse(text);
    object = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    // kept as text below
  }
  if (!object) return `${head},"text":${JSON.stringify(line.text)}}\n`;
  const rest = text.slice(1).trimStart();
  return rest.startsWith('}') ? `${head}}\n` : `${head},${rest}\n`;
}

async function* nonBlank(batches: AsyncIterable<Line[]>): AsyncGenerator<Line[]> {
  for await (const lines of batches) yield lines.filter((line) => line.text.trim() !== '');
}

export async function importDataStore(
  client: OpenApiClient,
  args: ImportArgs,
  opts: BulkOptions<ImportCounts> = {},
): Promise<ImportResult> {
  return bulkRun(client, opts, (run) => importWith(client, args, opts, run));
}

async function importWith(
  client: OpenApiClient,
  args: ImportArgs,
  opts: BulkOptions<ImportCounts>,
  { signal, scheduler }: BulkRun,
): Promise<ImportResult> {
  const failuresFile = failuresFileFor(args.file);
  await fsp.rm(failuresFile, { force: true });
  const progress = new Progress<ImportCounts>(
    { written: 0, skipped: 0, failed: 0 },
    (c) => c.written + c.skipped + c.failed,
    opts.onProgress,
  );

  const set = (entry: EntryLine): Promise<unknown> =>
    client.datastores.setEntry(
      {
        universeId: args.universeId,
        datastoreName: args.datastoreName,
        scope: entry.scope,
        entryKey: entry.key,
        raw: entry.value,
        exclusiveCreate: args.mode === 'createOnly' || undefined,
        attributes: Object.keys(entry.attributes).length ? entry.attributes : undefined,
        userIds: entry.userIds.length ? entry.userIds : undefined,
      },
      { signal },
    );

  const importLine = async (line: Line): Promise<Outcome> => {
    let entry: EntryLine;
    try {
      entry = parseEntryLine(line.text);
    } catch (error) {
      return { line, error: (error as Error).message };
    }
    try {
      await scheduler.run(() => set(entry));
      return 'written';
    } catch (error) {
      if (isAbort(error)) throw error;
      if (error instanceof PreconditionFailedError && args.mode === 'createOnly') return 'skipped';
      return { line, error: (error as Error).message };
    }
  };

  const counts = progress.counts;
  let failures: LineWriter | undefined;
  let ms: number;
  try {
    const window = scheduler.concurrency * WINDOW_PER_SLOT;
    for await (const outcomes of orderedMap(nonBlank(readLines(args.file, signal)), window, importLine)) {
      for (const outcome of outcomes) {
        if (typeof outcome === 'string') counts[outcome]++;
        else {
          counts.failed++;
          failures ??= await LineWriter.open(failuresFile, 'w');
          failures.write(failureLine(outcome.line, outcome.error));
        }
      }
      progress.tick();
      if (failures?.full) await failures.flush();
    }
  } finally {
    await failures?.close();
    ms = progress.end(); // also after a stop, so the caller has the final counts
  }
  return { ...counts, ms, failuresFile: failures ? failuresFile : undefined };
}
