// The one scheduler for bulk work: bounded concurrency, pacing from the x-ratelimit-* figures the transport reads,
// and a 429 that pauses everyone until retry-after instead of failing the entry.
import { abortError, RateLimitedError } from '../errors';
import { sleep, type RateLimit } from '../http';
import type { Page } from '../paging';

export interface SchedulerOptions {
  /** Tasks in flight at most. Default 16, the transport's connections per origin. */
  concurrency?: number;
  /**
   * The latest x-ratelimit-* figures of a budget (undefined: tasks run with no budget named), e.g.
   * `(budget) => client.rateLimitOf(budget)`.
   */
  rateLimit?: (budget: string | undefined) => RateLimit | undefined;
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

/** The pacing of one rate budget (cloud v2 counts reads, lists and writes apart). */
class Pacing {
  /** Requests the figures allow from now on; undefined while the service sends none. */
  budget?: number;
  resetAt = 0;
  /** What the service said remains in the current window. */
  remaining?: number;
  seenAt?: number;
  probing = false;
  /** Whether a task of this budget has finished, so its figures are known. */
  started = false;
  /** Tasks of this budget in flight. */
  active = 0;
  /** Requests this work started in the current window. */
  spent = 0;

  constructor(readonly name: string | undefined) {}
}

/**
 * Runs tasks (one request each) close to the service's limits: while figures say requests remain, tasks start at
 * once; when none remain, they wait for the window to reset, then one probe fetches fresh figures. Each task names
 * the budget its request counts against; each budget is paced by its own figures.
 */
export class Scheduler {
  readonly concurrency: number;
  private readonly maxRateLimited: number;
  private active = 0;
  private waiters: (() => void)[] = [];
  private pausedUntil = 0;
  private consecutive429 = 0;
  private readonly share: number;
  private readonly pacings = new Map<string | undefined, Pacing>();

  constructor(private readonly opts: SchedulerOptions = {}) {
    this.concurrency = Math.max(1, opts.concurrency ?? 16);
    this.maxRateLimited = opts.maxRateLimited ?? 20;
    const share = opts.budgetShare ?? 1;
    this.share = share > 0 && share <= 1 ? share : 1;
    opts.signal?.addEventListener('abort', () => this.wakeAll(), { once: true });
  }

  /**
   * Runs `task` when a slot and the rate limit of `budget` allow. A RateLimitedError pauses every task until
   * retry-after and runs this one again: only tasks the service did not apply answer 429, so a repeat is safe even
   * for writes that are never retried blindly (a create-only or plain set).
   */
  run<T>(task: () => Promise<T>, budget?: string): Promise<T> {
    return this.attempt(task, this.pacing(budget), 1);
  }

  private pacing(name: string | undefined): Pacing {
    let p = this.pacings.get(name);
    if (!p) this.pacings.set(name, (p = new Pacing(name)));
    return p;
  }

  /** Without an async frame when a slot is free: bulk work runs thousands of tasks. */
  private attempt<T>(task: () => Promise<T>, p: Pacing, attempt: number): Promise<T> {
    const probe = this.tryAcquire(p);
    if (probe === undefined) return this.acquire(p).then((probe) => this.start(task, p, probe, attempt));
    return this.start(task, p, probe, attempt);
  }

  private start<T>(task: () => Promise<T>, p: Pacing, probe: boolean, attempt: number): Promise<T> {
    let running: Promise<T>;
    try {
      running = Promise.resolve(task());
    } catch (error) {
      running = Promise.reject(error as Error);
    }
    return running.then(
      (result) => {
        this.consecutive429 = 0;
        this.release(p, probe);
        return result;
      },
      (error: unknown) => {
        const again = error instanceof RateLimitedError && attempt < this.maxRateLimited;
        if (again) this.pause(error);
        this.release(p, probe);
        if (!again) throw error;
        return this.attempt(task, p, attempt + 1);
      },
    );
  }

  /** Waits until a task may start; returns whether it is a probe for fresh figures. */
  private async acquire(p: Pacing): Promise<boolean> {
    for (;;) {
      const signal = this.opts.signal;
      if (signal?.aborted) throw abortError(signal);
      if (!this.hasSlot(p)) {
        await new Promise<void>((resolve) => this.waiters.push(resolve));
        continue;
      }
      const wait = this.delay(p, Date.now());
      if (wait > 0) await sleep(wait, signal);
      else return this.take(p);
    }
  }

  /** Takes a slot at once when nothing stands in the way (the common case), without a turn of the event loop. */
  private tryAcquire(p: Pacing): boolean | undefined {
    return !this.opts.signal?.aborted && this.hasSlot(p) && this.delay(p, Date.now()) <= 0 ? this.take(p) : undefined;
  }

  /** Until one task of a budget has finished, its figures may be unknown or stale: one request goes first. */
  private hasSlot(p: Pacing): boolean {
    return this.active < this.concurrency && (p.started || p.active < 1);
  }

  private take(p: Pacing): boolean {
    const probe = p.budget !== undefined && p.budget <= 0;
    p.probing ||= probe;
    if (p.budget !== undefined) p.budget--;
    p.spent++;
    p.active++;
    this.active++;
    return probe;
  }

  private release(p: Pacing, probe: boolean): void {
    p.active--;
    this.active--;
    if (probe) p.probing = false;
    if (p.started) this.waiters.shift()?.();
    else {
      p.started = true;
      this.wakeAll();
    }
  }

  private wakeAll(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** How long a new task of the budget must wait; 0 when it may start now. */
  private delay(p: Pacing, now: number): number {
    if (now < this.pausedUntil) return this.pausedUntil - now;
    this.observe(p);
    if (p.budget === undefined || p.budget > 0) return 0;
    if (now < p.resetAt) return p.resetAt - now;
    // The window is over but no figures from it came yet: let one request fetch them.
    return p.probing ? POLL_MS : 0;
  }

  /**
   * Takes newer figures: what remains, less what is in flight and not yet counted by the service. Within a window
   * what remains only goes down, so an answer read after a later one (connections finish in any order) cannot
   * raise it again.
   */
  private observe(p: Pacing): void {
    const figures = this.opts.rateLimit?.(p.name);
    if (!figures || figures.remaining === undefined || figures.at === p.seenAt) return;
    p.seenAt = figures.at;
    const sameWindow = figures.at < p.resetAt && p.remaining !== undefined;
    p.remaining = sameWindow ? Math.min(p.remaining!, figures.remaining) : figures.remaining;
    if (!sameWindow) {
      p.resetAt = figures.at + (figures.resetSeconds ?? 1) * 1000;
      p.spent = p.active; // those in flight count against the new window
    }
    p.budget = p.remaining - p.active;
    // With a share, also no more than the share of the window's limit for this work: the rest is the game's.
    const limit = windowLimit(figures.limit);
    if (this.share < 1 && limit !== undefined) p.budget = Math.min(p.budget, Math.floor(this.share * limit) - p.spent);
    p.probing = false;
  }

  private pause(error: RateLimitedError): void {
    this.consecutive429++;
    const backoff = Math.min(MAX_BACKOFF_MS, BACKOFF_MS * 2 ** (this.consecutive429 - 1));
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + (error.retryAfterMs ?? backoff));
  }
}

/**
 * The items of `first` and of each page after it. Each next page is asked for through the scheduler (it counts against
 * `budget`) as soon as a page is yielded, so whoever works through the items never waits for a page.
 */
export async function* pagesAhead<T>(
  scheduler: Scheduler,
  first: Page<T> | undefined,
  budget?: string,
): AsyncGenerator<T[]> {
  let page = first;
  while (page) {
    const current: Page<T> = page;
    const next = current.next === undefined ? undefined : scheduler.run(() => current.nextPage(), budget);
    next?.catch(() => undefined); // handled when its turn comes
    yield current.items;
    page = await next;
  }
}

/** What listAhead takes besides its first page. */
export interface ListAheadOptions<T> {
  /** The budget the list requests count against. */
  budget?: string;
  /** Items listed and not yet handed out at most: the listing waits while this many are held. */
  maxAhead: number;
  /** Told each page as it arrives, and whether it is the last. */
  onPage?: (items: T[], last: boolean) => void;
}

/**
 * The items of `first` and of each page after it, like pagesAhead, but the listing runs on ahead of whoever works
 * through the items (up to `maxAhead` items held), so how many there are is known long before they are all handled.
 * Each page is asked for through the scheduler; a page that fails fails the iteration when its turn comes. Stopping
 * the iteration stops the listing.
 */
export async function* listAhead<T>(
  scheduler: Scheduler,
  first: Page<T>,
  opts: ListAheadOptions<T>,
): AsyncGenerator<T[]> {
  const queue: T[][] = [];
  let held = 0;
  let ended = false;
  let failure: { error: unknown } | undefined;
  let stopped = false;
  let wakeReader: (() => void) | undefined;
  let wakeLister: (() => void) | undefined;
  const add = (page: Page<T>): void => {
    queue.push(page.items);
    held += page.items.length;
    opts.onPage?.(page.items, page.next === undefined);
    wakeReader?.();
  };
  const list = async (): Promise<void> => {
    let page: Page<T> | undefined = first;
    add(page);
    while (page.next !== undefined) {
      while (held >= opts.maxAhead && !stopped) await new Promise<void>((resolve) => (wakeLister = resolve));
      if (stopped) return;
      const current: Page<T> = page;
      page = await scheduler.run(() => current.nextPage(), opts.budget);
      if (!page) return;
      add(page);
    }
  };
  void list()
    .catch((error: unknown) => void (failure = { error }))
    .finally(() => {
      ended = true;
      wakeReader?.();
    });
  try {
    for (;;) {
      const items = queue.shift();
      if (items) {
        held -= items.length;
        wakeLister?.();
        yield items;
      } else if (failure) throw failure.error;
      else if (ended) return;
      else {
        await new Promise<void>((resolve) => (wakeReader = resolve));
        wakeReader = undefined;
      }
    }
  } finally {
    stopped = true;
    wakeLister?.();
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
 * iteration when its turn comes. `handled` is called each time the consumer comes back for more.
 */
export async function* orderedMap<T, R>(
  batches: AsyncIterable<readonly T[]>,
  window: number,
  fn: (item: T) => Promise<R>,
  running = window,
  handled?: () => void,
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
      handled?.();
    }
  } finally {
    stopped = true;
    if (!exhausted) await it.return?.();
  }
}
