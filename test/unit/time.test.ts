import assert from 'node:assert/strict';
import { test } from 'node:test';
import { localAndUtc, localTime, timeOfDay, utcTime } from '../../src/core/time';

// The service's form: seven fraction digits and an offset.
const when = '2026-11-24T13:05:07.1234567+00:00';
const berlin = { timeZone: 'Europe/Berlin' };

test('localTime reads day, short month, year and a 24-hour time in the given zone', () => {
  assert.equal(localTime(when, berlin), '24 Nov 2026, 14:05');
  assert.equal(localTime(when, { ...berlin, seconds: true }), '24 Nov 2026, 14:05:07');
  assert.equal(localTime(when, { timeZone: 'America/New_York' }), '24 Nov 2026, 08:05');
  assert.equal(localTime(Date.UTC(2026, 8, 5, 0, 3, 9), { timeZone: 'UTC', seconds: true }), '5 Sep 2026, 00:03:09');
});

test('localTime moves to the previous day across midnight, and never holds a "/" (tab titles split on it)', () => {
  const shown = localTime('2026-01-01T02:00:00Z', { timeZone: 'America/Los_Angeles', seconds: true });
  assert.equal(shown, '31 Dec 2025, 18:00:00');
  assert.ok(!shown.includes('/'));
});

test('localTime takes milliseconds and ISO text alike, and shows what is not a time as it is', () => {
  assert.equal(localTime(Date.parse(when), berlin), localTime(when, berlin));
  assert.equal(localTime('soon', berlin), 'soon');
  assert.equal(localTime(undefined, berlin), '');
});

test('localTime without a zone is the local time of the machine', () => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  assert.equal(localTime(when), localTime(when, { timeZone: zone }));
});

test('utcTime is ISO UTC to the second, whatever the zone', () => {
  assert.equal(utcTime(when), '2026-11-24 13:05:07');
  assert.equal(utcTime('2026-11-24T14:05:07+01:00'), '2026-11-24 13:05:07');
  assert.equal(utcTime('soon'), 'soon');
});

test('localAndUtc gives the local time with UTC beside it, for tooltips', () => {
  assert.equal(localAndUtc(when, berlin), '24 Nov 2026, 14:05 (UTC 2026-11-24 13:05:07)');
  assert.equal(localAndUtc(when, { ...berlin, seconds: true }), '24 Nov 2026, 14:05:07 (UTC 2026-11-24 13:05:07)');
  assert.equal(localAndUtc('', berlin), '');
});

test('timeOfDay is the local hour and minute', () => {
  assert.equal(timeOfDay(when, berlin), '14:05');
  assert.equal(timeOfDay('2026-11-24T23:59:59Z', { timeZone: 'Asia/Tokyo' }), '08:59');
  assert.equal(timeOfDay('later', berlin), 'later');
});
