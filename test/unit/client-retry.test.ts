// The retry policy as a table: which failed attempts are sent again, why, and after how long.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Method } from '../../src/api/exchange';
import {
  decide,
  delayMs,
  MAX_RETRY_AFTER_MS,
  notApplied,
  parseRetryAfter,
  retrySettings,
  type Failure,
  type Retry,
} from '../../src/api/retry';

const settings = retrySettings(); // 4 attempts, backoff 250 ms doubling up to 8 s

/** [call, failure, failed attempt, expected: the reason, and the wait when it is sent again] */
type Row = [`${Method} ${Retry}`, Failure, number, string, ({ retryAfterMs: number } | { backoffMs: number })?];

const status = (s: number, retryAfterMs?: number): Failure => ({ status: s, retryAfterMs });
const net = (code: string | undefined): Failure => ({ code });
const backoff = (attempt: number) => ({ backoffMs: Math.min(8_000, 250 * 2 ** (attempt - 1)) });

const rows: Row[] = [
  // Idempotent calls (GETs, deletes, a PATCH with an idempotency key): 429, 502/503/504, a 500 only for a GET.
  ['GET idempotent', status(429), 1, 'rate limited', backoff(1)],
  ['GET idempotent', status(429, 2_000), 1, 'rate limited', { retryAfterMs: 2_000 }],
  ['GET idempotent', status(500), 1, 'server error on a GET', backoff(1)],
  ['GET idempotent', status(502), 2, 'service unavailable', backoff(2)],
  ['GET idempotent', status(503), 3, 'service unavailable', backoff(3)],
  ['DELETE idempotent', status(504), 1, 'service unavailable', backoff(1)],
  ['PATCH idempotent', status(500), 1, 'status not retried'],
  ['DELETE idempotent', status(500), 1, 'status not retried'],
  ['GET idempotent', status(400), 1, 'status not retried'],
  ['GET idempotent', status(404), 1, 'status not retried'],
  ['GET idempotent', status(412), 1, 'status not retried'],
  // ... and a connection that failed, whether or not the request reached the service.
  ['GET idempotent', net('ECONNRESET'), 1, 'connection failed', backoff(1)],
  ['PATCH idempotent', net('ECONNREFUSED'), 1, 'connection failed', backoff(1)],
  ['GET idempotent', net('UND_ERR_SOCKET'), 2, 'connection failed', backoff(2)],
  ['GET idempotent', net('ETIMEDOUT'), 1, 'connection failed', backoff(1)],
  ['GET idempotent', net('EPROTO'), 1, 'connection error not transient'],
  ['GET idempotent', net(undefined), 1, 'connection error not transient'],
  // Calls a repeat could apply twice (increment, set without matchVersion, asset create): only when not applied.
  ['POST unapplied', status(429), 1, 'not applied', backoff(1)],
  ['POST unapplied', status(429, 500), 1, 'not applied', { retryAfterMs: 500 }],
  ['POST unapplied', status(503, 1_000), 1, 'not applied', { retryAfterMs: 1_000 }],
  ['POST unapplied', status(503), 1, 'may have been applied'],
  ['POST unapplied', status(502), 1, 'may have been applied'],
  ['POST unapplied', status(500), 1, 'may have been applied'],
  ['POST unapplied', net('ECONNREFUSED'), 1, 'not applied', backoff(1)],
  ['POST unapplied', net('UND_ERR_CONNECT_TIMEOUT'), 1, 'not applied', backoff(1)],
  ['POST unapplied', net('ECONNRESET'), 1, 'may have been applied'],
  ['POST unapplied', net('EPIPE'), 1, 'may have been applied'],
  // Never, whatever the failure.
  ['POST never', status(429), 1, 'never repeated'],
  ['POST never', status(503, 1_000), 1, 'never repeated'],
  ['POST never', net('ECONNREFUSED'), 1, 'never repeated'],
  // The limits: the last attempt is the last; a retry-after too long is the caller's to wait out.
  ['GET idempotent', status(503), 3, 'service unavailable', backoff(3)],
  ['GET idempotent', status(503), 4, 'attempts used up'],
  ['POST unapplied', status(429), 4, 'attempts used up'],
  ['GET idempotent', status(429, MAX_RETRY_AFTER_MS), 1, 'rate limited', { retryAfterMs: MAX_RETRY_AFTER_MS }],
  ['GET idempotent', status(429, MAX_RETRY_AFTER_MS + 1), 1, 'retry-after too long'],
  ['POST unapplied', status(503, MAX_RETRY_AFTER_MS + 1), 1, 'retry-after too long'],
];

describe('retry policy', () => {
  for (const [kind, failure, attempt, why, wait] of rows) {
    const [method, retry] = kind.split(' ') as [Method, Retry];
    it(`${kind}, ${JSON.stringify(failure)}, attempt ${attempt}: ${wait ? 'again' : 'stop'} (${why})`, () => {
      const expected = wait ? { retry: true, why, wait } : { retry: false, why };
      assert.deepEqual(decide({ method, retry }, failure, attempt, settings), expected);
    });
  }

  it('the backoff doubles per attempt up to its cap; with one attempt allowed there is no second', () => {
    const waits = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => {
      const d = decide({ method: 'GET', retry: 'idempotent' }, status(503), n, retrySettings({ maxAttempts: 10 }));
      return d.retry ? d.wait : d;
    });
    assert.deepEqual(
      waits.map((w) => ('backoffMs' in w ? w.backoffMs : w)),
      [250, 500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000],
    );
    assert.deepEqual(
      decide({ method: 'GET', retry: 'idempotent' }, status(503), 1, retrySettings({ maxAttempts: 0 })),
      {
        retry: false,
        why: 'attempts used up',
      },
    );
  });

  it('waits retry-after plus under 100 ms, or half to all of the backoff cap', () => {
    for (let i = 0; i < 200; i++) {
      const after = delayMs({ retryAfterMs: 1_000 });
      assert.ok(after >= 1_000 && after < 1_100, String(after));
      const back = delayMs({ backoffMs: 800 });
      assert.ok(back >= 400 && back <= 800, String(back));
    }
  });

  it('reads retry-after as seconds or an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    assert.equal(parseRetryAfter('2', now), 2_000);
    assert.equal(parseRetryAfter('0.5', now), 500);
    assert.equal(parseRetryAfter('-3', now), 0);
    assert.equal(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter('', now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
  });

  it('says which failures the service did not apply', () => {
    assert.deepEqual(
      [status(429), status(503, 0), status(503), status(500), net('EAI_AGAIN'), net('ECONNRESET')].map(notApplied),
      [true, true, false, false, true, false],
    );
  });
});
