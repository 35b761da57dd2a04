// What Export… and Import… share: the file filter, local paths, how counts read, and one way to run the job under
// a cancellable notification that shows its count and rate.
import vscode = require('vscode');
import type { BulkOptions } from '../../api';
import { isCancel } from '../../core/errors';
import type { BulkStatus } from '../../core/statusBar';
import { t } from '../../core/text';
import type { Ui } from '../../core/ui';
import { settings } from '../../core/settings';

export const ndjsonFilters = (): Record<string, string[]> => ({
  [t`NDJSON (one entry per line)`]: ['ndjson', 'jsonl'],
  [t`All files`]: ['*'],
});

/** The path of a chosen file; bulk work streams through Node's fs, so it must be on the extension host's disk. */
export function localPath(uri: vscode.Uri): string {
  if (uri.scheme !== 'file') throw new Error(t`choose a file on disk (got a ${uri.scheme}: location)`);
  return uri.fsPath;
}

export const count = (n: number): string => n.toLocaleString('en-US');

/** `1 entry`, `2 entries`. */
export const entries = (n: number): string => (n === 1 ? t`${count(n)} entry` : t`${count(n)} entries`);

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** A time to come, rounded up: `40 s`, `3 min`, `2 h 5 min`. */
export function duration(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  if (s < 60) return t`${s} s`;
  const m = Math.ceil(s / 60);
  if (m < 60) return t`${m} min`;
  return t`${Math.floor(m / 60)} h ${m % 60} min`;
}

interface BulkJob<C, R> {
  title: string;
  /** The connection whose rate budget the job spends, shown in the status bar. */
  connectionId: string;
  /** The counts before the first report. */
  start: C;
  /** How many entries the counts stand for. */
  handled(counts: C): number;
  run(opts: BulkOptions<C>): Promise<R>;
  /** What a cancel leaves, told to the user. */
  stopped(counts: C): string;
  /** The notification's progress line (default: entries handled and their rate). */
  describe?(counts: C & { ratePerSecond: number }): string;
}

/**
 * Runs a bulk job under a notification with its count and rate, and in the status bar with its rate and the rate
 * budget left; a cancel says what was done, then stays a cancel.
 */
export async function runBulk<C extends object, R>(
  { ui, status }: { ui: Ui; status: BulkStatus },
  job: BulkJob<C, R>,
): Promise<R> {
  let counts = job.start;
  const budgetShare = settings().bulkBudgetShare;
  const shown = status.startJob(job.title, job.connectionId, budgetShare);
  try {
    // A job done within half a second shows only its summary.
    return await ui.progress(
      job.title,
      (signal, report) =>
        job.run({
          signal,
          budgetShare,
          onProgress: (p) => {
            counts = p;
            shown.rate(p.ratePerSecond);
            report(job.describe ? job.describe(p) : t`${count(job.handled(p))} entries · ${count(p.ratePerSecond)}/s`);
          },
        }),
      { delayMs: 500 },
    );
  } catch (error) {
    if (isCancel(error)) void ui.info(job.stopped(counts));
    throw error;
  } finally {
    shown.end();
  }
}
