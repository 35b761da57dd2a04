// Documented limits (docs/SERVICE.md, "Rate limits"), enforced only with
// `rateLimits`. Each rule is a fixed window that opens at the first request. `rateLimitScale` multiplies every limit,
// the per-user restriction limit included (at least 1 request per window remains); `rateLimitWindowScale` multiplies
// every window's length, so a test can go through many small windows in a few seconds.
// Cloud v2 data stores have budgets that grow with the universe's concurrent users (CCU): 300 + k x CCU per minute,
// CCU being a setting (`concurrentUsers`, default 0; the control endpoint changes it). Legacy v1 keeps its fixed
// limits in buckets of its own: v1 calls do not draw on the v2 budgets (docs/SERVICE.md, U21). Ordered data stores
// and memory stores grow the same way (open-api-ordered-memory.md, 2.6 and 6).
import { ApiError } from './errors';

export interface RateRule {
  name: string;
  limit: number;
  windowMs: number;
  /** What one window is counted for: a universe, an API key, or one user within a universe (`{userId}` param). */
  by: 'universe' | 'key' | 'user';
  /** Added to `limit` for each concurrent user of the universe. */
  perUser?: number;
}

const rule = (name: string, limit: number, windowMs: number, by: RateRule['by'], perUser?: number): RateRule => ({
  name,
  limit,
  windowMs,
  by,
  perUser,
});
const SECOND = 1000;
const MINUTE = 60 * SECOND;

export const RATES = {
  // Data stores: per universe, reads and writes counted apart.
  dsRead: rule('ds-read', 300, MINUTE, 'universe'),
  dsWrite: rule('ds-write', 300, MINUTE, 'universe'),
  // Cloud v2 data stores: per universe, one budget per category, scaled by concurrent users; snapshot per key.
  v2Read: rule('v2-read', 300, MINUTE, 'universe', 40), // get entry
  v2Write: rule('v2-write', 300, MINUTE, 'universe', 20), // create, update, increment
  v2List: rule('v2-list', 300, MINUTE, 'universe', 2), // list data stores, entries, revisions
  v2Remove: rule('v2-remove', 300, MINUTE, 'universe', 40), // delete entry, delete and undelete data store
  v2Snapshot: rule('v2-snapshot', 60, MINUTE, 'key'),
  // User restrictions: per universe, plus 2 updates per minute for one user.
  urGet: rule('ur-get', 50, SECOND, 'universe'),
  urList: rule('ur-list', 50, SECOND, 'universe'),
  urUpdate: rule('ur-update', 10, SECOND, 'universe'),
  urLogs: rule('ur-logs', 50, SECOND, 'universe'),
  urUser: rule('ur-user', 2, MINUTE, 'user'),
  // Assets are not tied to a universe: per API key.
  assetMain: rule('asset-main', 120, MINUTE, 'key'), // create, get, update
  assetMisc: rule('asset-misc', 100, MINUTE, 'key'), // archive, restore, versions, rollback
  assetOp: rule('asset-op', 300, MINUTE, 'key'),
  // Ordered data stores: per universe, budgets of their own, scaled by concurrent users.
  odRead: rule('od-read', 300, MINUTE, 'universe', 40), // get
  odWrite: rule('od-write', 300, MINUTE, 'universe', 20), // create, update, increment
  odList: rule('od-list', 300, MINUTE, 'universe', 2),
  odRemove: rule('od-remove', 300, MINUTE, 'universe', 40), // delete
  // Memory stores: request units per universe, one per request here (the service charges a list or read the items
  // it returns).
  memoryUnits: rule('memory-units', 1000, MINUTE, 'universe', 120),
} satisfies Record<string, RateRule>;

interface Window {
  start: number;
  count: number;
}

interface RateSubject {
  universe: number;
  key: string;
  user?: string;
}

/**
 * The concurrent-users figure: one for every universe, and others set for single universes. It also remembers, on
 * the emulator's clock, the figures of the last 8 days: the memory-store quota follows the highest of them.
 */
export class ConcurrentUsers {
  private all: number;
  private readonly byUniverse = new Map<number, number>();
  /** Each figure set, from when it was set (oldest first). */
  private history: { at: number; all: number; byUniverse: Map<number, number> }[] = [];

  constructor(
    private readonly start = 0,
    private readonly now: () => number = Date.now,
  ) {
    this.all = start;
    this.remember();
  }

  of(universe: number): number {
    return this.byUniverse.get(universe) ?? this.all;
  }

  /** The highest figure of `universe` in the last `windowMs` of the clock (the current one included). */
  peak(universe: number, windowMs: number): number {
    const since = this.now() - windowMs;
    while (this.history.length > 1 && this.history[1].at <= since) this.history.shift();
    return Math.max(...this.history.map((h) => h.byUniverse.get(universe) ?? h.all));
  }

  /** Sets the figure of one universe, or of every universe (those set apart included). */
  set(users: number, universe?: number): void {
    if (universe !== undefined) this.byUniverse.set(universe, users);
    else {
      this.all = users;
      this.byUniverse.clear();
    }
    this.remember();
  }

  toJson(): { concurrentUsers: number; universes: Record<string, number> } {
    return { concurrentUsers: this.all, universes: Object.fromEntries(this.byUniverse) };
  }

  /** Back to the start figure, with no history (the clock goes back to its start too). */
  reset(): void {
    this.history = [];
    this.set(this.start);
  }

  private remember(): void {
    this.history.push({ at: this.now(), all: this.all, byUniverse: new Map(this.byUniverse) });
  }
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly scale: number,
    private readonly windowScale = 1,
    private readonly users = new ConcurrentUsers(),
  ) {}

  /**
   * Counts one request against every rule and returns the x-ratelimit-* headers of the tightest one. Over a limit:
   * throws a 429 carrying those headers and retry-after (whole seconds), and counts nothing.
   */
  take(rules: readonly RateRule[], subject: RateSubject, now = Date.now()): Record<string, string> {
    let tightest: { limit: number; left: number; resetMs: number; windowMs: number } | undefined;
    const windows: Window[] = [];
    for (const r of rules) {
      const id =
        r.by === 'universe' ? subject.universe : r.by === 'key' ? subject.key : `${subject.universe}/${subject.user}`;
      const name = `${r.name}|${id}`;
      const windowMs = r.windowMs * this.windowScale;
      let w = this.windows.get(name);
      if (!w || now - w.start >= windowMs) this.windows.set(name, (w = { start: now, count: 0 }));
      const base = r.limit + (r.perUser ?? 0) * this.users.of(subject.universe);
      const limit = Math.max(1, Math.floor(base * this.scale));
      const left = limit - w.count;
      const resetMs = w.start + windowMs - now;
      if (!tightest || left < tightest.left) tightest = { limit, left, resetMs, windowMs };
      windows.push(w);
    }
    if (!tightest) return {};
    const headers = (left: number): Record<string, string> => ({
      'x-ratelimit-limit': `${tightest.limit}, ${tightest.limit};w=${tightest.windowMs / SECOND}`,
      'x-ratelimit-remaining': String(left),
      'x-ratelimit-reset': String(Math.ceil(tightest.resetMs / SECOND)),
    });
    if (tightest.left <= 0) {
      const retry = String(Math.max(1, Math.ceil(tightest.resetMs / SECOND)));
      throw new ApiError(429, 'Too many requests. Retry after the time in retry-after.', 'TooManyRequests', {
        ...headers(0),
        'retry-after': retry,
      });
    }
    for (const w of windows) w.count++;
    return headers(tightest.left - 1);
  }

  reset(): void {
    this.windows.clear();
  }
}
