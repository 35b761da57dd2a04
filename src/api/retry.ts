// When a failed request is sent again, and after how long. `decide` is a pure function of the call's kind, what went
// wrong and the attempt number: idempotent calls (reads, deletes, a PATCH that carries an idempotency key) are
// repeated after a 429, a 502/503/504 (a 500 only for a GET) or a dropped connection; calls a repeat could apply
// twice (an increment, a set without matchVersion, an asset create) only when the failure says the service did not
// apply them; some calls never. `delayMs` adds the random jitter to the wait it chose.
import { randomInt } from 'node:crypto';
import type { Method } from './exchange';

/**
 * When a request is sent again: `idempotent` after a 429, a 5xx or a dropped connection (a repeat changes nothing);
 * `unapplied` only after an answer that says the service did not apply it (429, or 503 with retry-after) or a
 * connection that was never made; `never` not at all.
 */
export type Retry = 'idempotent' | 'unapplied' | 'never';

export interface RetryOptions {
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

/** What went wrong with one attempt: an answer that is not 2xx, or a connection failure with its code. */
export type Failure = { status: number; retryAfterMs?: number } | { code: string | undefined };

/** The wait before the next attempt: the service's retry-after, or the backoff cap of this attempt. */
export type Wait = { retryAfterMs: number } | { backoffMs: number };

export type Decision = { retry: true; why: string; wait: Wait } | { retry: false; why: string };

/** Connection failures before the request was sent: the service cannot have applied it. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);
/** Connection failures worth another try of an idempotent call (the request may or may not have been applied). */
const TRANSIENT_CODES = new Set([
  ...NOT_SENT_CODES,
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
]);
/** A retry-after longer than this is reported to the caller rather than waited out. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** The options with their defaults: 4 attempts (at least 1), backoff from 250 ms doubling up to 8 s. */
export function retrySettings(opts: RetryOptions = {}): Required<RetryOptions> {
  return {
    maxAttempts: Math.max(1, opts.maxAttempts ?? 4),
    baseDelayMs: opts.baseDelayMs ?? 250,
    maxDelayMs: opts.maxDelayMs ?? 8_000,
  };
}

/** A failure that says the service did not apply the request: a 429, a 503 with retry-after, or no connection. */
export function notApplied(failure: Failure): boolean {
  if ('code' in failure) return NOT_SENT_CODES.has(failure.code ?? '');
  return failure.status === 429 || (failure.status === 503 && failure.retryAfterMs !== undefined);
}

/** Whether attempt `attempt` (1 for the first), which failed with `failure`, is followed by another, and why. */
export function decide(
  call: { method: Method; retry: Retry },
  failure: Failure,
  attempt: number,
  settings: Required<RetryOptions>,
): Decision {
  if (call.retry === 'never') return { retry: false, why: 'never repeated' };
  if (attempt >= settings.maxAttempts) return { retry: false, why: 'attempts used up' };
  const retryAfterMs = 'code' in failure ? undefined : failure.retryAfterMs;
  if ((retryAfterMs ?? 0) > MAX_RETRY_AFTER_MS) return { retry: false, why: 'retry-after too long' };
  const again = (why: string): Decision => ({
    retry: true,
    why,
    wait:
      retryAfterMs !== undefined
        ? { retryAfterMs }
        : { backoffMs: Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (attempt - 1)) },
  });
  if (call.retry === 'unapplied') {
    return notApplied(failure) ? again('not applied') : { retry: false, why: 'may have been applied' };
  }
  if ('code' in failure) {
    return TRANSIENT_CODES.has(failure.code ?? '')
      ? again('connection failed')
      : { retry: false, why: 'connection error not transient' };
  }
  const { status } = failure;
  if (status === 429) return again('rate limited');
  if (status === 502 || status === 503 || status === 504) return again('service unavailable');
  if (status === 500 && call.method === 'GET') return again('server error on a GET');
  return { retry: false, why: 'status not retried' };
}

/** retry-after plus a little jitter (never less), else half to all of the backoff cap. */
export function delayMs(wait: Wait): number {
  if ('retryAfterMs' in wait) return wait.retryAfterMs + randomInt(0, 100);
  return Math.round(wait.backoffMs / 2 + (Math.random() * wait.backoffMs) / 2);
}

/** `retry-after` as seconds or an HTTP date, in ms from `now`. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
