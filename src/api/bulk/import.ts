// Import of an NDJSON file (export lines) into a data store: "create only" skips keys that exist, "overwrite"
// sets every entry. Failures go to `<file>.failures.ndjson` as they happen, each as its input line with the line
// number and error in front, so the file can be fixed and imported again. A stopped import says the last line it
// handled, so the next run can go on from the line after it in the same mode.
import { isAbort, notFoundAs, PreconditionFailedError } from '../errors';
import type { OpenApiClient } from '../client';
import {
  FailureLog,
  failuresFileFor,
  parseEntryLine,
  parseHeaderLine,
  readLines,
  type EntryLine,
  type ExportHeader,
  type Line,
} from './ndjson';
import { bulkRun, Progress, StoppedError, type BulkOptions, type BulkRun } from './progress';

/** createOnly: Set Entry with exclusiveCreate (an existing key is skipped); overwrite: a plain Set Entry. */
export type ImportMode = 'createOnly' | 'overwrite';

export interface ImportArgs {
  universeId: number | string;
  datastoreName: string;
  /** The NDJSON file read; each line names its scope. */
  file: string;
  mode: ImportMode;
  /**
   * Go on from this line (1-based; the lines before it are not read again), as after a stop: `lastLine + 1`. The
   * failures of the earlier run are kept and the new ones added. Default 1.
   */
  fromLine?: number;
  /** Where failed lines go (default: next to the file read). */
  failuresFile?: string;
}

export interface ImportCounts {
  written: number;
  /** Keys that already existed (createOnly). */
  skipped: number;
  failed: number;
  /** Every line up to this one is handled (written, skipped or listed as failed); 0 before the first. */
  lastLine: number;
}

export interface ImportResult extends ImportCounts {
  mode: ImportMode;
  ms: number;
  /** Where the failed lines were written, when any failed. */
  failuresFile?: string;
}

/** What an import that stopped before the end of its file rejects with; `result.lastLine` is the last line handled. */
export const ImportStoppedError = StoppedError;
export type ImportStoppedError = StoppedError<ImportResult>;

type Outcome = 'written' | 'skipped' | 'header' | { error: string };

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

/** What an import makes of one line: an export's header (no entry), an entry, or why the line is refused. */
export type ImportLine = { header: ExportHeader } | { entry: EntryLine } | { error: string };

/** Reads one line as the import does; the dry run (importPlan.ts) reads lines through this too, so both agree. */
export function readImportLine(text: string): ImportLine {
  const header = parseHeaderLine(text);
  if (header) return { header };
  try {
    const entry = parseEntryLine(text);
    if (entry.notJson) return { error: 'the value was not JSON and the line holds its text, which is not the value' };
    return { entry };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The lines to import: from `fromLine` on, blank lines left out. */
export async function* linesFrom(batches: AsyncIterable<Line[]>, fromLine: number): AsyncGenerator<Line[]> {
  for await (const lines of batches) {
    yield lines.filter((line) => line.number >= fromLine && line.text.trim() !== '');
  }
}

/** Reads and conditioned writes an overwrite keeping an entry's own metadata tries while others change it. */
const KEEP_ATTEMPTS = 3;

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
  run: BulkRun,
): Promise<ImportResult> {
  const { signal, scheduler } = run;
  const fromLine = Math.max(1, Math.floor(args.fromLine ?? 1));
  const failures = await FailureLog.start(args.failuresFile ?? failuresFileFor(args.file), fromLine > 1);
  const progress = new Progress<ImportCounts>(
    { written: 0, skipped: 0, failed: 0, lastLine: fromLine - 1 },
    (c) => c.written + c.skipped + c.failed,
    opts.onProgress,
  );

  const at = (entry: EntryLine) => ({
    universeId: args.universeId,
    datastoreName: args.datastoreName,
    scope: entry.scope,
    entryKey: entry.key,
  });
  const set = (
    entry: EntryLine,
    condition: { matchVersion?: string; exclusiveCreate?: boolean } = {},
  ): Promise<unknown> =>
    client.datastores.setEntry(
      {
        ...at(entry),
        raw: entry.value,
        exclusiveCreate: args.mode === 'createOnly' || condition.exclusiveCreate || undefined,
        matchVersion: condition.matchVersion,
        attributes: Object.keys(entry.attributes).length ? entry.attributes : undefined,
        userIds: entry.userIds.length ? entry.userIds : undefined,
      },
      { signal },
    );

  /**
   * Overwrites an entry whose line leaves out its attributes or user ids: a write without them clears them, so the
   * entry's own are read and sent back, conditioned on the version read (read again if it changes meanwhile).
   */
  const overwriteKeeping = async (entry: EntryLine, absent: ('attributes' | 'userIds')[]): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      const current = await scheduler.run(() =>
        client.datastores.getEntry(at(entry), { signal }).catch(notFoundAs(undefined)),
      );
      const kept = { ...entry };
      if (current && absent.includes('attributes')) kept.attributes = current.attributes;
      if (current && absent.includes('userIds')) kept.userIds = current.userIds;
      try {
        await scheduler.run(() => set(kept, current ? { matchVersion: current.version } : { exclusiveCreate: true }));
        return;
      } catch (error) {
        if (!(error instanceof PreconditionFailedError) || attempt === KEEP_ATTEMPTS) throw error;
      }
    }
  };

  const importLine = async (line: Line): Promise<[Line, Outcome]> => {
    const read = readImportLine(line.text);
    if ('header' in read) return [line, 'header'];
    if ('error' in read) return [line, read];
    const { entry } = read;
    try {
      if (args.mode === 'overwrite' && entry.absent) await overwriteKeeping(entry, entry.absent);
      else await scheduler.run(() => set(entry));
      return [line, 'written'];
    } catch (error) {
      if (isAbort(error)) throw error;
      if (error instanceof PreconditionFailedError && args.mode === 'createOnly') return [line, 'skipped'];
      return [line, { error: (error as Error).message }];
    }
  };

  const counts = progress.counts;
  let stop: Error | undefined;
  try {
    for await (const outcomes of run.map(linesFrom(readLines(args.file, signal), fromLine), importLine, { progress })) {
      for (const [line, outcome] of outcomes) {
        if (typeof outcome !== 'object') {
          if (outcome !== 'header') counts[outcome]++;
        } else {
          await failures.write(failureLine(line, outcome.error));
          counts.failed++;
        }
        counts.lastLine = line.number;
      }
    }
  } catch (error) {
    stop = error as Error;
  } finally {
    await failures.close();
  }
  const ms = progress.end(); // also after a stop, so the caller has the final counts
  const result = { ...counts, mode: args.mode, ms, failuresFile: failures.count ? failures.file : undefined };
  if (stop) throw new StoppedError(stop, result, 'ImportStoppedError');
  return result;
}
