// The one scheduler for bulk work: bounded concurrency, pacing from the x-ratelimit-* figures the transport reads,
// and a 429 that pauses everyone until retry-after instead of failing the entry.
import { abortError, RateLimitedError } from '../errors';
import { sleep, type RateLimit } from '../http';
import type { Page } from '../paging';

export interface SchedulerOptions {
  /** Tasks in flight at most. Default 16, the transport's connections per origin. */
  concurrency?: number;
  /** The latest x-ratelimit-* figures, e.g. `() => client.rateLimit`. */
  rateLimit?: () => RateLimit | undefined;
  signal?: AbortSignal;
  /** How many 429s one task may meet before it fails with the last one. Default 20. */
  maxRateLimited?: number;
  /**
   * The share of each rate window's limit this work may spend (0 < share <= 1; default 1): the service's budget is
   * shared with the game's own servers, so bulk work leaves them the rest.
   */
  budgetShare?: number;
}

/** The request limit of a window from x-ratelimit-limit (`300` or `300, 300;w=60`); undefined when absent. */
export function windowLimit(limit: string | undefined): number | undefined {
  const n = limit === undefined ? NaN : parseInt(limit, 10);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** Pause after a 429 without retry-after: doubled per consecutive 429, capped. */
const BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;
/** How often a task waiting for fresh figures looks again. */
const POLL_MS = 10;

/**
 * Runs tasks (one request each) close to the service's limit: while figures say requests remain, tasks start at
 * once; when none remain, they wait for the window to reset, then one probe fetches fresh figures.
 */
export class Scheduler {
  readonly concurrency: number;
  private readonly maxRateLimited: number;
  private active = 0;
  private waiters: (() => void)[] = [];
  private pausedUntil = 0;
  private consecutive429 = 0;
  /** Requests the figures allow from now on; undefined while the service sends none. */
  private budget?: number;
  private resetAt = 0;
  /** What the service said remains in the current window. */
  private remaining?: number;
  private seenAt?: number;
  private probing = false;
  private started = false;
  private readonly share: number;
  /** Requests this work started in the current window. */
  private spent = 0;

  constructor(private readonly opts: SchedulerOptions = {}) {
    this.concurrency = Math.max(1, opts.concurrency ?? 16);
    this.maxRateLimited = opts.maxRateLimited ?? 20;
    const share = opts.budgetShare ?? 1;
    this.share = share > 0 && share <= 1 ? share : 1;
    opts.signal?.addEventListener('abort', () => this.wakeAll(), { once: true });
  }

  /**
   * Runs `task` when a slot and the rate limit allow. A RateLimitedError pauses every task until retry-after and
   * runs this one again: only tasks the service did not apply answer 429, so a repeat is safe even for writes
   * that are never retried blindly (a create-only or plain set).
   */
  run<T>(task: () => Promise<T>): Promise<T> {
    return this.attempt(task, 1);
  }

  /** Without an async frame when a slot is free: bulk work runs thousands of tasks. */
  private attempt<T>(task: () => Promise<T>, attempt: number): Promise<T> {
    const probe = this.tryAcquire();
    if (probe === undefined) return this.acquire().then((p) => this.start(task, p, attempt));
    return this.start(task, probe, attempt);
  }

  private start<T>(task: () => Promise<T>, probe: boolean, attempt: number): Promise<T> {
    let running: Promise<T>;
    try {
      running = Promise.resolve(task());
    } catch (error) {
      running = Promise.reject(error as Error);
    }
    return running.then(
      (result) => {
        this.consecutive429 = 0;
        this.release(probe);
        return result;
      },
      (error: unknown) => {
        const again = error instanceof RateLimitedError && attempt < this.maxRateLimited;
        if (again) this.pause(error);
        this.release(probe);
        if (!again) throw error;
        return this.attempt(task, attempt + 1);
      },
    );
  }

  /** Waits until a task may start; returns whether it is a probe for fresh figures. */
  private async acquire(): Promise<boolean> {
    for (;;) {
      const signal = this.opts.signal;
      if (signal?.aborted) throw abortError(signal);
      if (!this.hasSlot()) {
        await new Promise<void>((resolve) => this.waiters.push(resolve));
        continue;
      }
      const wait = this.delay(Date.now());
      if (wait > 0) await sleep(wait, signal);
      else return this.take();
    }
  }

  /** Takes a slot at once when nothing stands in the way (the common case), without a turn of the event loop. */
  private tryAcquire(): boolean | undefined {
    return !this.opts.signal?.aborted && this.hasSlot() && this.delay(Date.now()) <= 0 ? this.take() : undefined;
  }

  /** Until one task has finished, the figures may be unknown or stale: one request goes first to fetch them. */
  private hasSlot(): boolean {
    return this.active < (this.started ? this.concurrency : 1);
  }

  private take(): boolean {
    const probe = this.budget !== undefined && this.budget <= 0;
    this.probing ||= probe;
    if (this.budget !== undefined) this.budget--;
    this.spent++;
    this.active++;
    return probe;
  }

  private release(probe: boolean): void {
    this.active--;
    if (probe) this.probing = false;
    if (this.started) this.waiters.shift()?.();
    else {
      this.started = true;
      this.wakeAll();
    }
  }

  private wakeAll(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** How long a new task must wait; 0 when it may start now. */
  private delay(now: number): number {
    if (now < this.pausedUntil) return this.pausedUntil - now;
    this.observe();
    if (this.budget === undefined || this.budget > 0) return 0;
    if (now < this.resetAt) return this.resetAt - now;
    // The window is over but no figures from it came yet: let one request fetch them.
    return this.probing ? POLL_MS : 0;
  }

  /**
   * Takes newer figures: what remains, less what is in flight and not yet counted by the service. Within a window
   * what remains only goes down, so an answer read after a later one (connections finish in any order) cannot
   * raise it again.
   */
  private observe(): void {
    const figures = this.opts.rateLimit?.();
    if (!figures || figures.remaining === undefined || figures.at === this.seenAt) return;
    this.seenAt = figures.at;
    const sameWindow = figures.at < this.resetAt && this.remaining !== undefined;
    this.remaining = sameWindow ? Math.min(this.remaining!, figures.remaining) : figures.remaining;
    if (!sameWindow) {
      this.resetAt = figures.at + (figures.resetSeconds ?? 1) * 1000;
      this.spent = this.active; // those in flight count against the new window
    }
    this.budget = this.remaining - this.active;
    // With a share, also no more than the share of the window's limit for this work: the rest is the game's.
    const limit = windowLimit(figures.limit);
    if (this.share < 1 && limit !== undefined)
      this.budget = Math.min(this.budget, Math.floor(this.share * limit) - this.spent);
    this.probing = false;
  }

  private pause(error: RateLimitedError): void {
    this.consecutive429++;
    const backoff = Math.min(MAX_BACKOFF_MS, BACKOFF_MS * 2 ** (this.consecutive429 - 1));
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + (error.retryAfterMs ?? backoff));
  }
}

/**
 * The items of `first` and of each page after it. Each next page is asked for through the scheduler (it counts against
 * the same limit) as soon as a page is yielded, so whoever works through the items never waits for a page.
 */
export async function* pagesAhead<T>(scheduler: Scheduler, first: Page<T> | undefined): AsyncGenerator<T[]> {
  let page = first;
  while (page) {
    const current: Page<T> = page;
    const next = current.next === undefined ? undefined : scheduler.run(() => current.nextPage());
    next?.catch(() => undefined); // handled when its turn comes
    yield current.items;
    page = await next;
  }
}

interface Slot<R> {
  settled: boolean;
  failed: boolean;
  value?: R;
  error?: unknown;
}

/**
 * Maps the items of `batches` (e.g. pages of keys) through `fn` with up to `window` calls pending and up to `running`
 * of them not yet settled (default `window`), yielding results in source order, in runs: each yield holds the head
 * result and every result right after it that is already in, so the consumer takes one turn per run instead of one
 * per item: it is woken for the head once the other answers read in the same turn of the event loop are in too. The
 * next item starts as soon as a call settles, and the next batch is asked for as soon as the current one is used up,
 * not only when the head settles. Stops pulling from the source when the consumer stops; a call that fails fails the
 * iteration when its turn comes.
 */
export async function* orderedMap<T, R>(
  batches: AsyncIterable<readonly T[]>,
  window: number,
  fn: (item: T) => Promise<R>,
  running = window,
): AsyncGenerator<R[]> {
  const it = batches[Symbol.asyncIterator]();
  const pending: Slot<R>[] = [];
  let head = 0; // index in `pending` of the oldest result not yet yielded
  let batch: readonly T[] = [];
  let i = 0;
  let exhausted = false;
  let stopped = false;
  let active = 0;
  /** Resolves the loop's wait for the head, or for room to ask for the next batch. */
  let wake: (() => void) | undefined;
  const room = (): boolean => active < running && pending.length - head < window;
  const needsBatch = (): boolean => i === batch.length && !exhausted && room();
  /** Starts items of the current batch while there is room. */
  const fill = (): void => {
    while (!stopped && i < batch.length && room()) start(batch[i++]);
  };
  /** Resumes the loop: at once, or once the results that come in with this one are in too. */
  const resume = (later: boolean): void => {
    const go = wake!;
    wake = undefined;
    if (later) setImmediate(go);
    else go();
  };
  const settled = (): void => {
    active--;
    fill();
    // The next batch is asked for at once (slots are idle meanwhile); a settled head waits for the other results
    // that came in with it (answers read in the same turn of the event loop), so the consumer takes them in one run
    // instead of one turn per result.
    if (!wake) return;
    if (needsBatch()) resume(false);
    else if (pending[head].settled) resume(true);
  };
  const start = (item: T): void => {
    const slot: Slot<R> = { settled: false, failed: false };
    let call: Promise<R>;
    try {
      call = fn(item);
    } catch (error) {
      call = Promise.reject(error as Error);
    }
    active++;
    pending.push(slot);
    void call.then(
      (value) => {
        slot.settled = true;
        slot.value = value;
        settled();
      },
      (error: unknown) => {
        slot.settled = slot.failed = true;
        slot.error = error;
        settled();
      },
    );
  };
  try {
    for (;;) {
      fill();
      while (needsBatch()) {
        const next = await it.next();
        if (next.done) exhausted = true;
        else [batch, i] = [next.value, 0];
        fill();
      }
      if (head === pending.length) return;
      if (!pending[head].settled) {
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      const run: R[] = [];
      for (; head < pending.length && pending[head].settled; head++) {
        const slot = pending[head];
        if (slot.failed) {
          if (run.length) break; // the results before it first
          throw slot.error;
        }
        run.push(slot.value as R);
        slot.value = undefined; // held by the consumer now, not by `pending` until it is trimmed
      }
      if (head >= 1024) {
        pending.splice(0, head); // drop what was yielded, now and then rather than per item
        head = 0;
      }
      yield run;
    }
  } finally {
    stopped = true;
    if (!exhausted) await it.return?.();
  }
}
