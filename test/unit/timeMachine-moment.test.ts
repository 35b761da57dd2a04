// Moments: what a person types, read into a time, and the range the service can restore.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkMoment, momentBefore, parseMoment, restorableSince, RETENTION_NOTE } from '../../src/api';

const now = new Date('2024-03-10T12:34:56.789Z');
const iso = (text: string, zone?: number | 'local') => parseMoment(text, { now, zone }).toISOString();

describe('parseMoment', () => {
  it('reads times ago from now', () => {
    assert.equal(iso('1h'), '2024-03-10T11:34:56.789Z');
    assert.equal(iso('24h'), '2024-03-09T12:34:56.789Z');
    assert.equal(iso(' 30m ago '), '2024-03-10T12:04:56.789Z');
    assert.equal(iso('7d'), '2024-03-03T12:34:56.789Z');
    assert.equal(iso('2W'), '2024-02-25T12:34:56.789Z');
  });

  it('reads RFC 3339 times with their zone, whatever zone is given for local times', () => {
    assert.equal(iso('2024-01-15T10:00:00Z', 120), '2024-01-15T10:00:00.000Z');
    assert.equal(iso('2024-01-15T11:00+01:00', -300), '2024-01-15T10:00:00.000Z');
    assert.equal(iso('2024-01-15 04:30:15.25-0530'), '2024-01-15T10:00:15.250Z');
    assert.equal(iso('2024-02-29t23:59:59z'), '2024-02-29T23:59:59.000Z');
  });

  it('reads a local time in the zone given, or in this machine zone', () => {
    assert.equal(iso('2024-01-15 11:00', 60), '2024-01-15T10:00:00.000Z');
    assert.equal(iso('2024-01-15T05:00', -300), '2024-01-15T10:00:00.000Z');
    assert.equal(iso('2024-01-15', 0), '2024-01-15T00:00:00.000Z');
    assert.equal(iso('2024-07-01 08:15:30', 'local'), new Date(2024, 6, 1, 8, 15, 30).toISOString());
    assert.equal(iso('2024-07-01 08:15'), new Date(2024, 6, 1, 8, 15).toISOString());
  });

  it('refuses text that is no time, and dates or zones that do not exist, naming the accepted forms', () => {
    for (const bad of [
      '',
      'yesterday',
      '1 hour',
      '-1h',
      '2024-02-30 10:00',
      '2023-02-29T10:00Z',
      '2024-01-15 24:00',
      '2024-01-15 10:60',
      '2024-13-01',
      '2024-01-15T10:00+15:00',
      '2024-01-15T10:00+01:60',
      '15/01/2024 10:00',
    ]) {
      assert.throws(() => parseMoment(bad, { now, zone: 0 }), /is not a (valid date and )?time|no valid zone/, bad);
    }
    assert.throws(() => parseMoment('soon', { now }), /1h, 24h/);
  });
});

describe('the range that can be restored', () => {
  it('goes back 30 days from now', () => {
    assert.equal(restorableSince(now).toISOString(), '2024-02-09T12:34:56.789Z');
  });

  it('refuses a time older than that, naming the limit, and a time in the future', () => {
    assert.doesNotThrow(() => checkMoment(new Date('2024-02-09T12:34:56.789Z'), now));
    assert.doesNotThrow(() => checkMoment(now, now));
    assert.throws(
      () => checkMoment(new Date('2024-02-09T12:34:56.788Z'), now),
      (e: Error) => e.message.includes('30 days') && e.message.includes('2024-02-09T12:34:56.789Z'),
    );
    assert.throws(() => checkMoment(parseMoment('31d', { now }), now), /too long ago/);
    assert.throws(() => checkMoment(new Date('2024-03-10T12:34:56.790Z'), now), /future/);
  });

  it('says what the service keeps', () => {
    assert.match(RETENTION_NOTE, /one version per key per hour/);
    assert.match(RETENTION_NOTE, /30 days/);
  });

  it('puts "just before a version" one millisecond before it was written', () => {
    assert.equal(momentBefore({ createdTime: '2024-01-15T10:00:00Z' }).toISOString(), '2024-01-15T09:59:59.999Z');
    assert.throws(() => momentBefore({ createdTime: 'never' }), /not a time/);
  });
});
