// What bulk functions take besides their arguments, and the throttled progress report they share.
import { setMaxListeners } from 'node:events';
import type { CallOptions, RateLimit } from '../http';
import { orderedMap, Scheduler } from './scheduler';

export interface BulkOptions<P> extends CallOptions {
  /** Requests in flight at most (default 16). */
  concurrency?: number;
  /** The share of each rate window's limit the work may spend (default 1: all of it); see SchedulerOptions. */
  budgetShare?: number;
  /** Called at most every 200 ms while the work runs, and once at the end. */
  onProgress?: (progress: P & { ratePerSecond: number }) => void;
}

/** Counts of a bulk run; `rate` counts entries handled per second since the run started. */
export class Progress<C extends object> {
  private readonly started = Date.now();
  private last = 0;

  constructor(
    readonly counts: C,
    private readonly handled: (counts: C) => number,
    private readonly report?: (progress: C & { ratePerSecond: number }) => void,
  ) {}

  tick(): void {
    const now = Date.now();
    if (now - this.last < 200) return;
    this.last = now;
    this.emit(now);
  }

  end(): number {
    const now = Date.now();
    this.emit(now);
    return now - this.started;
  }

  private emit(now: number): void {
    const seconds = Math.max(0.001, (now - this.started) / 1000);
    this.report?.({ ...this.counts, ratePerSecond: Math.round(this.handled(this.counts) / seconds) });
  }
}

/**
 * What a bulk run that stopped before the end rejects with: why (`cause`: a cancel, or an error such as an AuthError)
 * and what it had done (`result`). A cancel keeps the name AbortError, so it still reads as a cancel; any other stop
 * has the name it is given (which run stopped).
 */
export class StoppedError<R> extends Error {
  constructor(
    override readonly cause: Error,
    readonly result: R,
    name = 'StoppedError',
  ) {
    super(cause.message, { cause });
    this.name = cause.name === 'AbortError' ? 'AbortError' : name;
  }
}

/** Pending calls per request slot: enough to keep every slot busy while results wait for their turn. */
export const WINDOW_PER_SLOT = 4;

/** How a bulk run maps its items. */
export interface MapOptions {
  /** Calls pending at most (default: the scheduler's slots times WINDOW_PER_SLOT). */
  window?: number;
  /** Calls not yet settled at most (default: the window). */
  running?: number;
  /** Ticked each time the results handed out have been handled. */
  progress?: { tick(): void };
}

/** What a bulk run works with: its signal, the scheduler its requests go through, and its mapping of items. */
export interface BulkRun {
  signal: AbortSignal;
  scheduler: Scheduler;
  /**
   * The items of `batches` through `fn` (orderedMap): results in source order, in runs, with a window of calls
   * pending. Stopping the iteration stops pulling items.
   */
  map<T, R>(batches: AsyncIterable<readonly T[]>, fn: (item: T) => Promise<R>, opts?: MapOptions): AsyncGenerator<R[]>;
}

/** What a run reads its rate-limit figures from: a client. */
export interface RateLimited {
  rateLimitOf(budget: string | undefined): RateLimit | undefined;
}

/**
 * What a bulk run works with: a signal that follows the caller's and a scheduler paced by the client's rate limits
 * (none without a client: work that makes no requests).
 * Each in-flight request listens to the run's signal, so it allows more listeners than Node's default warning level.
 * `end` detaches it from the caller's signal and stops whatever is still in flight.
 */
export function startRun(
  client: RateLimited | undefined,
  opts: Pick<BulkOptions<never>, 'signal' | 'concurrency' | 'budgetShare'>,
): BulkRun & { end(): void } {
  const outer = opts.signal;
  const inner = new AbortController();
  setMaxListeners(0, inner.signal);
  const abort = (): void => inner.abort(outer?.reason);
  if (outer?.aborted) abort();
  outer?.addEventListener('abort', abort, { once: true });
  const scheduler = new Scheduler({
    concurrency: opts.concurrency,
    budgetShare: opts.budgetShare,
    rateLimit: client && ((budget) => client.rateLimitOf(budget)),
    signal: inner.signal,
  });
  const window = scheduler.concurrency * WINDOW_PER_SLOT;
  return {
    signal: inner.signal,
    scheduler,
    map: (batches, fn, o = {}) =>
      orderedMap(batches, o.window ?? window, fn, o.running, o.progress && (() => o.progress!.tick())),
    end: () => {
      outer?.removeEventListener('abort', abort);
      inner.abort();
    },
  };
}

/** Runs a bulk job in a run of its own (startRun), ended when the job ends. */
export async function bulkRun<R>(
  client: RateLimited,
  opts: Pick<BulkOptions<never>, 'signal' | 'concurrency' | 'budgetShare'>,
  job: (run: BulkRun) => Promise<R>,
): Promise<R> {
  const run = startRun(client, opts);
  try {
    return await job(run);
  } finally {
    run.end();
  }
}
