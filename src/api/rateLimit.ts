// The x-ratelimit-* figures of the answers: the latest of any request, and the latest of each rate budget (cloud v2
// counts reads, lists and writes apart).
import { header, type Headers } from './schemas';

export interface RateLimit {
  limit?: string;
  remaining?: number;
  resetSeconds?: number;
  /** Date.now() when these figures were read. */
  at: number;
}

/** The figures of an answer's x-ratelimit-* headers; undefined when it has none. */
export function readRateLimit(headers: Headers, now: number): RateLimit | undefined {
  const limit = header(headers, 'x-ratelimit-limit');
  const remaining = header(headers, 'x-ratelimit-remaining');
  const reset = header(headers, 'x-ratelimit-reset');
  if (limit === undefined && remaining === undefined && reset === undefined) return undefined;
  return { limit, remaining: num(remaining), resetSeconds: num(reset), at: now };
}

function num(v: string | undefined): number | undefined {
  const n = v === undefined ? NaN : parseFloat(v);
  return Number.isFinite(n) ? n : undefined;
}

/** Requests per minute from `x-ratelimit-limit` figures such as "300, 300;w=60"; undefined when unreadable. */
export function ratePerMinute(figures: RateLimit | undefined): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)(?:[^;]*;\s*w=(\d+(?:\.\d+)?))?/.exec(figures?.limit ?? '');
  if (!m) return undefined;
  const window = m[2] === undefined ? 60 : Number(m[2]);
  return window > 0 ? (Number(m[1]) * 60) / window : undefined;
}

/** The latest figures seen: of any answer, and per budget. */
export class RateLimits {
  private last?: RateLimit;
  private readonly budgets = new Map<string, RateLimit>();

  get latest(): RateLimit | undefined {
    return this.last;
  }

  /** The latest figures of a budget's requests; of any request without a budget. */
  of(budget: string | undefined): RateLimit | undefined {
    return budget === undefined ? this.last : this.budgets.get(budget);
  }

  /** Takes the figures of an answer, if it has any, as the latest of all and of its budget. */
  read(headers: Headers, budget: string | undefined): void {
    const figures = readRateLimit(headers, Date.now());
    if (!figures) return;
    this.last = figures;
    if (budget !== undefined) this.budgets.set(budget, figures);
  }
}
