// Applies a ban plan under the service's limits: a universe takes 10 restriction updates a second and one user 2 a
// minute. Each write is first noted in a journal with its idempotency key, then sent, then noted done: a run stopped
// anywhere (cancel, crash) and run again sends nothing twice: what is done is skipped, and a write that may have
// reached the service is sent again with the same key, which the service applies once.
import { randomUUID } from 'node:crypto';
import fs = require('node:fs');
import { abortError, RateLimitedError } from '../errors';
import { sleep } from '../http';
import type { OpenApiClient } from '../client';
import { describeTarget, isWrite, type BanAction, type BanPlan } from './plan';

/** The documented limits of restriction updates. */
export const UPDATES_PER_SECOND = 10;
export const USER_UPDATES_PER_MINUTE = 2;
/** The service remembers an idempotency key for 24 hours; a journal's key older than this is not reused. */
const KEY_LIFETIME_MS = 23 * 3600_000;

export interface ApplyBansOptions {
  /** Where the run notes each write (created when missing; read to resume). */
  journalFile: string;
  signal?: AbortSignal;
  /** The share of the limit this run may spend (0 < share <= 1; default 1). */
  budgetShare?: number;
  /** Multiplies the limits (an emulator started with --rate-limit-scale; default 1). */
  limitScale?: number;
  /** Multiplies the limits' windows (an emulator started with --rate-limit-window-scale; default 1). */
  windowScale?: number;
  /** Writes in flight at most (default 8). */
  concurrency?: number;
  onProgress?(p: ApplyProgress): void;
  /** For tests: the clock and the wait. */
  now?: () => number;
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface ApplyProgress {
  done: number;
  failed: number;
  /** Writes this run has to make (skips and what an earlier run did are not counted). */
  toWrite: number;
}

export interface BanFailure {
  n: number;
  userId: number;
  where: string;
  reason: string;
}

export interface ApplyBansResult {
  /** Written by this run. */
  written: number;
  /** Done by an earlier run of the same plan (not sent again). */
  earlier: number;
  /** Skipped by the plan. */
  skipped: number;
  failures: BanFailure[];
  /** Requests sent (a 429 answered and sent again counts twice). */
  requests: number;
}

type JournalLine =
  | { n: number; key: string; firstSent: string }
  | { n: number; done: true; at?: string }
  | { n: number; failed: string; at?: string };

/** What a plan's journal says: the actions done (with when they were answered), failed (last reason), and keys. */
export interface BanJournal {
  done: Map<number, string | undefined>;
  failed: Map<number, string>;
  keys: Map<number, { key: string; firstSent: string }>;
}

/** Reads a journal (a missing file is an empty one; a line cut short by a crash is passed over). */
export function readBanJournal(file: string): BanJournal {
  const done = new Map<number, string | undefined>();
  const failed = new Map<number, string>();
  const keys = new Map<number, { key: string; firstSent: string }>();
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let j: JournalLine;
    try {
      j = JSON.parse(line) as JournalLine;
    } catch {
      continue; // a line cut short by a crash: its write is sent again, with its key if that line was complete
    }
    if ('done' in j) {
      done.set(j.n, j.at);
      failed.delete(j.n);
    } else if ('failed' in j) failed.set(j.n, j.failed);
    else if ('key' in j) keys.set(j.n, { key: j.key, firstSent: j.firstSent });
  }
  return { done, failed, keys };
}

/**
 * Paces writes per universe (an even spacing at the allowed rate) and per user (2 in any of their windows, counted
 * from when each write was answered: the service's window starts when the first arrives, before its answer). One
 * user's writes go one after another.
 */
class Pacer {
  private readonly next = new Map<number, number>();
  private readonly answered = new Map<string, number[]>();
  private readonly writing = new Map<string, Promise<void>>();

  constructor(
    private readonly gapMs: number,
    private readonly perUser: number,
    private readonly userWindowMs: number,
    private readonly now: () => number,
  ) {}

  /** Runs `write` (one attempt) when the universe's spacing and the user's window allow. */
  async run<T>(universeId: number, userId: number, wait: (ms: number) => Promise<void>, write: () => Promise<T>) {
    const key = `${universeId}/${userId}`;
    const before = this.writing.get(key);
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    this.writing.set(key, mine);
    try {
      await before;
      const at = this.book(universeId, key);
      if (at > this.now()) await wait(at - this.now());
      try {
        return await write();
      } finally {
        this.answered.set(key, [...(this.answered.get(key) ?? []), this.now()]);
      }
    } finally {
      if (this.writing.get(key) === mine) this.writing.delete(key);
      done();
    }
  }

  private book(universeId: number, key: string): number {
    const now = this.now();
    const recent = (this.answered.get(key) ?? []).filter((t) => t > now - this.userWindowMs);
    this.answered.set(key, recent);
    const userFree = recent.length < this.perUser ? now : recent[recent.length - this.perUser] + this.userWindowMs;
    const at = Math.max(now, this.next.get(universeId) ?? 0, userFree);
    this.next.set(universeId, at + this.gapMs);
    return at;
  }

  /** A 429 said wait: nothing of this universe starts before then. */
  pause(universeId: number, until: number): void {
    this.next.set(universeId, Math.max(this.next.get(universeId) ?? 0, until));
  }
}

const MAX_RATE_LIMITED = 10;

export async function applyBans(
  client: OpenApiClient,
  plan: BanPlan,
  opts: ApplyBansOptions,
): Promise<ApplyBansResult> {
  const now = opts.now ?? Date.now;
  const wait = opts.wait ?? ((ms: number, signal?: AbortSignal) => sleep(ms, signal));
  const share = opts.budgetShare !== undefined && opts.budgetShare > 0 && opts.budgetShare <= 1 ? opts.budgetShare : 1;
  const limits = opts.limitScale ?? 1;
  const windows = opts.windowScale ?? 1;
  // Writes go at 97% of the universe's limit and a user's window is taken 5% longer: the service counts arrivals in
  // windows that start with one, and answers take more or less time on their way.
  const perWindow = UPDATES_PER_SECOND * limits * share * 0.97;
  const pacer = new Pacer((windows * 1000) / perWindow, USER_UPDATES_PER_MINUTE * limits, windows * 63_000, now);
  const journal = readBanJournal(opts.journalFile);
  const note = (line: JournalLine) => fs.appendFileSync(opts.journalFile, `${JSON.stringify(line)}\n`);
  const result: ApplyBansResult = { written: 0, earlier: 0, skipped: 0, failures: [], requests: 0 };
  const todo: BanAction[] = [];
  for (const a of plan.actions) {
    if (!isWrite(a)) result.skipped++;
    else if (journal.done.has(a.n)) result.earlier++;
    else todo.push(a);
  }
  const progress = () =>
    opts.onProgress?.({ done: result.written, failed: result.failures.length, toWrite: todo.length });
  progress();

  const one = async (a: BanAction): Promise<void> => {
    const { universeId, placeId } = a.target;
    const kept = journal.keys.get(a.n);
    const idempotencyKey =
      kept && now() - Date.parse(kept.firstSent) < KEY_LIFETIME_MS
        ? kept
        : { key: randomUUID(), firstSent: new Date(now()).toISOString() };
    if (idempotencyKey !== kept) note({ n: a.n, ...idempotencyKey });
    const w = a.write!;
    for (let attempt = 0; ; attempt++) {
      try {
        await pacer.run(
          universeId,
          a.userId,
          (ms) => wait(ms, opts.signal),
          () => {
            if (opts.signal?.aborted) throw abortError(opts.signal);
            result.requests++;
            return client.restrictions.update(
              {
                universeId,
                placeId,
                userId: a.userId,
                idempotencyKey,
                gameJoinRestriction: {
                  active: w.active,
                  ...(w.active
                    ? {
                        duration: w.durationSeconds ?? null,
                        displayReason: w.displayReason,
                        privateReason: w.privateReason,
                        excludeAltAccounts: w.excludeAltAccounts,
                      }
                    : {}),
                },
              },
              { signal: opts.signal },
            );
          },
        );
        note({ n: a.n, done: true, at: new Date(now()).toISOString() });
        result.written++;
        return;
      } catch (error) {
        if (opts.signal?.aborted) throw error;
        if (error instanceof RateLimitedError && attempt < MAX_RATE_LIMITED) {
          pacer.pause(universeId, now() + (error.retryAfterMs ?? 1000));
          continue;
        }
        const reason = error instanceof Error ? error.message : String(error);
        note({ n: a.n, failed: reason, at: new Date(now()).toISOString() });
        result.failures.push({ n: a.n, userId: a.userId, where: describeTarget(a.target), reason });
        return;
      }
    }
  };

  const concurrency = Math.max(1, opts.concurrency ?? 8);
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      await one(todo[next++]);
      progress();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, todo.length) }, worker));
  return result;
}
