// The x-ratelimit-* figures: read from an answer's headers, kept per budget, and turned into requests per minute.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ratePerMinute, RateLimits, readRateLimit } from '../../src/api/rateLimit';

describe('rate-limit figures', () => {
  it('reads limit, remaining and reset; numbers that do not parse are left out', () => {
    const h = { 'x-ratelimit-limit': '300, 300;w=60', 'x-ratelimit-remaining': '12', 'x-ratelimit-reset': '7.5' };
    assert.deepEqual(readRateLimit(h, 1), { limit: '300, 300;w=60', remaining: 12, resetSeconds: 7.5, at: 1 });
    assert.deepEqual(readRateLimit({ 'x-ratelimit-remaining': ['x', '3'] }, 2), {
      limit: undefined,
      remaining: undefined,
      resetSeconds: undefined,
      at: 2,
    });
    assert.equal(readRateLimit({ 'content-type': 'application/json' }, 3), undefined);
  });

  it('keeps the latest of all answers and of each budget; an answer without figures changes nothing', () => {
    const limits = new RateLimits();
    limits.read({ 'x-ratelimit-remaining': '9' }, 'read');
    limits.read({ 'x-ratelimit-remaining': '4' }, 'write');
    limits.read({}, 'read');
    assert.equal(limits.latest?.remaining, 4);
    assert.equal(limits.of(undefined)?.remaining, 4);
    assert.equal(limits.of('read')?.remaining, 9);
    assert.equal(limits.of('list'), undefined);
    limits.read({ 'x-ratelimit-remaining': '1' }, undefined);
    assert.equal(limits.latest?.remaining, 1);
    assert.equal(limits.of('write')?.remaining, 4);
  });

  it('ratePerMinute reads the limit over its window (60 s when none is given)', () => {
    const at = 0;
    assert.equal(ratePerMinute({ limit: '300, 300;w=60', at }), 300);
    assert.equal(ratePerMinute({ limit: '10;w=1', at }), 600);
    assert.equal(ratePerMinute({ limit: '50', at }), 50);
    assert.equal(ratePerMinute({ limit: '5;w=0', at }), undefined);
    assert.equal(ratePerMinute({ limit: 'many', at }), undefined);
    assert.equal(ratePerMinute({ at }), undefined);
    assert.equal(ratePerMinute(undefined), undefined);
  });
});
