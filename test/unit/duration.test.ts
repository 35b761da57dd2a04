import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  durationPresets,
  MAX_DURATION_SECONDS,
  checkDuration,
  describeDuration,
  formatDuration,
  formatTimeLeft,
  fromServiceDuration,
  parseDuration,
  toServiceDuration,
} from '../../src/core/duration';

test('parseDuration reads a number and a unit, and combinations of them, as whole seconds', () => {
  assert.equal(parseDuration('90m'), 5400);
  assert.equal(parseDuration('12h'), 43200);
  assert.equal(parseDuration('3d'), 259200);
  assert.equal(parseDuration('1h30m'), 5400);
  assert.equal(parseDuration(' 1h 30m '), 5400);
  assert.equal(parseDuration('2w 3d'), 17 * 86400);
  assert.equal(parseDuration('45s'), 45);
  assert.equal(parseDuration('1s'), 1);
  assert.equal(parseDuration('3 days'), 259200);
  assert.equal(parseDuration('1 Hour'), 3600);
  assert.equal(parseDuration('90M'), 5400);
  assert.equal(parseDuration('007m'), 420);
});

test('parseDuration accepts the service maximum and refuses one second more', () => {
  assert.equal(parseDuration(`${MAX_DURATION_SECONDS}s`), MAX_DURATION_SECONDS);
  assert.equal(parseDuration('3652500d'), MAX_DURATION_SECONDS);
  assert.throws(() => parseDuration(`${MAX_DURATION_SECONDS + 1}s`), /at most 315576000000 seconds/);
  assert.throws(() => parseDuration('3652500d 1s'), /at most/);
  assert.throws(() => parseDuration('99999999999999999999999d'), /at most/);
});

test('parseDuration refuses zero, fractions, missing or unknown units and stray text, saying why', () => {
  assert.throws(() => parseDuration(''), /Enter a number and a unit/);
  assert.throws(() => parseDuration('   '), /Enter/);
  assert.throws(() => parseDuration('0m'), /at least 1 second/);
  assert.throws(() => parseDuration('0s 0m'), /at least 1 second/);
  assert.throws(() => parseDuration('1.5h'), /whole numbers.*1\.5h/);
  assert.throws(() => parseDuration('1,5h'), /whole numbers/);
  assert.throws(() => parseDuration('90'), /"90" has no unit/);
  assert.throws(() => parseDuration('1h30'), /"30" has no unit/);
  assert.throws(() => parseDuration('90x'), /"x" is not a unit/);
  assert.throws(() => parseDuration('3 fortnights'), /"fortnights" is not a unit/);
  assert.throws(() => parseDuration('-5m'), /"-5m" is not a duration/);
  assert.throws(() => parseDuration('m'), /"m" is not a duration/);
  assert.throws(() => parseDuration('1h; drop'), /"; drop" is not a duration/);
});

test('checkDuration is the message of parseDuration, or undefined', () => {
  assert.equal(checkDuration('3d'), undefined);
  assert.match(checkDuration('3q') ?? '', /not a unit/);
});

test('presets are whole seconds within the limit, and one is permanent', () => {
  assert.deepEqual(
    durationPresets().map((p) => [p.label, p.seconds]),
    [
      ['1 hour', 3600],
      ['1 day', 86400],
      ['7 days', 604800],
      ['30 days', 2592000],
      ['Permanent', undefined],
    ],
  );
});

test('service durations: <n>s both ways', () => {
  assert.equal(toServiceDuration(5400), '5400s');
  assert.equal(fromServiceDuration('5400s'), 5400);
  assert.equal(fromServiceDuration('0.5s'), 0.5);
  assert.equal(fromServiceDuration(undefined), undefined);
  assert.equal(fromServiceDuration('5400'), undefined);
  assert.equal(fromServiceDuration('1h'), undefined);
});

test('formatDuration writes the largest units first and leaves zero parts out', () => {
  assert.equal(formatDuration(0), '0s');
  assert.equal(formatDuration(45), '45s');
  assert.equal(formatDuration(5400), '1h 30m');
  assert.equal(formatDuration(604800), '7d');
  assert.equal(formatDuration(86400 + 5 * 60), '1d 5m');
  assert.equal(formatDuration(93784), '1d 2h 3m 4s');
  assert.equal(formatDuration(MAX_DURATION_SECONDS), '3652500d');
  // What it writes reads back.
  for (const s of [1, 59, 61, 5400, 93784, 604800, MAX_DURATION_SECONDS])
    assert.equal(parseDuration(formatDuration(s)), s);
});

test('formatDuration with a unit count approximates from the largest unit used', () => {
  assert.equal(formatDuration(93784, 2), '1d 2h');
  assert.equal(formatDuration(86400 + 5 * 60, 2), '1d');
  assert.equal(formatDuration(3600 + 59, 2), '1h');
  assert.equal(formatDuration(59, 2), '59s');
});

test('describeDuration: permanent without a duration', () => {
  assert.equal(describeDuration(undefined), 'permanent');
  assert.equal(describeDuration('86400s'), '1d');
});

test('formatTimeLeft counts from the start time at a given now', () => {
  const start = '2024-01-15T12:00:00.000Z';
  const t0 = Date.parse(start);
  assert.equal(formatTimeLeft(start, undefined, t0), 'permanent');
  assert.equal(formatTimeLeft(start, '604800s', t0), '7d left');
  assert.equal(formatTimeLeft(start, '604800s', t0 + 1000), '6d 23h left');
  assert.equal(formatTimeLeft(start, '3600s', t0 + 3599_000), '1s left');
  assert.equal(formatTimeLeft(start, '3600s', t0 + 3599_500), '1s left');
  assert.equal(formatTimeLeft(start, '3600s', t0 + 3600_000), 'expired');
  assert.equal(formatTimeLeft(start, '3600s', t0 + 10 * 86400_000), 'expired');
  // Without (or with an unreadable) start time, the whole duration.
  assert.equal(formatTimeLeft(undefined, '5400s', t0), '1h 30m');
  assert.equal(formatTimeLeft('not a time', '5400s', t0), '1h 30m');
});
