// Moments: what a person types, read into a time, and the range the service can restore.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkMoment, momentBefore, parseMoment, readMoment, restorableSince, RETENTION_NOTE } from '../../src/api';

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

  it('reads a time ago in words, which needs "ago"', () => {
    assert.equal(iso('3 hours ago'), '2024-03-10T09:34:56.789Z');
    assert.equal(iso('2 days ago'), '2024-03-08T12:34:56.789Z');
    assert.equal(iso('1 day ago'), '2024-03-09T12:34:56.789Z');
    assert.equal(iso('an hour ago'), '2024-03-10T11:34:56.789Z');
    assert.equal(iso(' 45  Minutes ago'), '2024-03-10T11:49:56.789Z');
    assert.equal(iso('2 weeks ago'), '2024-02-25T12:34:56.789Z');
    assert.equal(readMoment('2 days ago', { now }).form, 'ago');
  });

  it('reads a day by name in the zone given: its start without a time, or the time of day given', () => {
    // now is Sunday 2024-03-10 12:34:56.789 UTC.
    assert.equal(iso('yesterday', 0), '2024-03-09T00:00:00.000Z');
    assert.equal(readMoment('yesterday', { now, zone: 0 }).form, 'day');
    assert.equal(iso('Yesterday 18:00', 0), '2024-03-09T18:00:00.000Z');
    assert.equal(readMoment('yesterday 18:00', { now, zone: 0 }).form, 'time');
    assert.equal(iso('today 09:30', 0), '2024-03-10T09:30:00.000Z');
    assert.equal(iso('today', 0), '2024-03-10T00:00:00.000Z');
    assert.equal(iso('today 9:30:15', 60), '2024-03-10T08:30:15.000Z');
    assert.equal(iso('last Tuesday 18:00', 0), '2024-03-05T18:00:00.000Z');
    assert.equal(iso('tue at 18:00', 0), '2024-03-05T18:00:00.000Z');
    assert.equal(iso('last saturday', 0), '2024-03-09T00:00:00.000Z');
    // The day named today is a week ago: "last Sunday" on a Sunday.
    assert.equal(iso('last sunday 10:00', 0), '2024-03-03T10:00:00.000Z');
    // Days are counted in the zone's calendar: at 12:34 UTC it is already Monday 2024-03-11 at UTC+12.
    assert.equal(iso('yesterday 08:00', 12 * 60), '2024-03-09T20:00:00.000Z');
    assert.equal(iso('yesterday 08:00', -13 * 60), '2024-03-08T21:00:00.000Z');
    // Across a month's start.
    const march1 = new Date('2024-03-01T06:00:00Z');
    assert.equal(parseMoment('yesterday 12:00', { now: march1, zone: 0 }).toISOString(), '2024-02-29T12:00:00.000Z');
    // In this machine's zone, with its rules.
    const local = new Date(now);
    local.setDate(local.getDate() - 1);
    local.setHours(18, 0, 0, 0);
    assert.equal(iso('yesterday 18:00', 'local'), local.toISOString());
  });

  it('refuses text that is no time, and dates or zones that do not exist, naming the accepted forms', () => {
    for (const bad of [
      '',
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
      'the day before yesterday',
      'yesterday 24:00',
      'today 10:60',
      'last monkey',
      'last today',
      '2 days',
      '3 fortnights ago',
    ]) {
      assert.throws(
        () => parseMoment(bad, { now, zone: 0 }),
        /is not a (valid date and |valid )?time|no valid zone/,
        bad,
      );
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
