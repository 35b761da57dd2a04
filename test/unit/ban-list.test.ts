// Ban lists as moderators bring them: pasted ids, one id per line, CSV with and without a header, spreadsheet
// exports (byte-order mark, `;` and tab separators, quoted cells with line breaks), and every bad line reported by its
// number: not a number, negative, zero, blank, a duplicate, over 2^53, scientific notation, bad cells.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseBanList, parseDuration, DurationError } from '../../src/api';

const ids = (text: string) => parseBanList(text).rows.map((r) => r.userId);
const problems = (text: string) => parseBanList(text).problems.map((p) => `${p.line}: ${p.reason}`);

test('pasted ids: any mix of line breaks, commas and spaces', () => {
  assert.deepEqual(ids('2001, 2002 2003\n2004\t\n  2005  '), [2001, 2002, 2003, 2004, 2005]);
  assert.deepEqual(problems('2001, 2002 2003\n2004'), []);
});

test('one id per line, with a final line break and Windows line ends: no blank line is invented', () => {
  const list = parseBanList('2001\r\n2002\r\n');
  assert.deepEqual(
    list.rows.map((r) => [r.line, r.userId]),
    [
      [1, 2001],
      [2, 2002],
    ],
  );
  assert.deepEqual(list.problems, []);
  assert.equal(list.records, 2);
});

test('bad lines are reported by line, never dropped silently; the counts add up', () => {
  const text = ['2001', 'abc', '-5', '', '0', '2001', '9007199254740993', '2.001E+03', '2002', '   '].join('\n');
  const list = parseBanList(text);
  assert.deepEqual(
    list.rows.map((r) => r.userId),
    [2001, 2002],
  );
  assert.deepEqual(problems(text), [
    '2: "abc" is not a user id: a whole number above 0',
    '3: -5 is negative: a user id is a whole number above 0',
    '4: blank line',
    '5: 0 is not a user id: a whole number above 0',
    '6: user 2001 is already listed on line 1: that line is used',
    '7: 9007199254740993 is larger than 2^53 - 1: no user id is that large',
    '8: 2.001E+03 is in scientific notation (a spreadsheet rounds such ids): format the column as text and export again',
    '10: blank line',
  ]);
  assert.equal(list.rows.length + list.problems.length, list.records);
});

test('2^53 - 1 is the largest id taken', () => {
  assert.deepEqual(ids('9007199254740991'), [9007199254740991]);
  assert.equal(problems('9007199254740992').length, 1);
});

test('a CSV with a header, in any column order and spelling, from a spreadsheet (byte-order mark, quoted cells)', () => {
  const text =
    '\uFEFFUser ID,Display Reason,duration,private_reason,excludeAltAccounts\n' +
    '2001,"Cheating, twice",7d,"Report 12\nand 13",yes\n' +
    '2002,,permanent,,\n' +
    '2003,"Said ""hi""",1h30m,,false\n';
  const list = parseBanList(text);
  assert.equal(list.header, true);
  assert.deepEqual(list.problems, []);
  assert.deepEqual(list.rows, [
    {
      line: 2,
      userId: 2001,
      durationSeconds: 604_800,
      displayReason: 'Cheating, twice',
      privateReason: 'Report 12\nand 13',
      excludeAltAccounts: true,
    },
    { line: 4, userId: 2002, durationSeconds: null },
    { line: 5, userId: 2003, durationSeconds: 5400, displayReason: 'Said "hi"', excludeAltAccounts: false },
  ]);
  assert.equal(list.rows.length + list.problems.length + 1, list.records);
});

test('semicolons and tabs between cells (spreadsheets in other locales)', () => {
  assert.deepEqual(
    parseBanList('userId;duration\n2001;1d\n2002;2d').rows.map((r) => [r.userId, r.durationSeconds]),
    [
      [2001, 86_400],
      [2002, 172_800],
    ],
  );
  assert.deepEqual(
    parseBanList('2001\t1d\tSpam').rows.map((r) => [r.userId, r.durationSeconds, r.displayReason]),
    [[2001, 86_400, 'Spam']],
  );
});

test('without a header, a record is read by position: userId, duration, displayReason, privateReason, alts', () => {
  const list = parseBanList('2001,7d,Cheating,from report 5,true\n2002,12h');
  assert.deepEqual(list.rows, [
    {
      line: 1,
      userId: 2001,
      durationSeconds: 604_800,
      displayReason: 'Cheating',
      privateReason: 'from report 5',
      excludeAltAccounts: true,
    },
    { line: 2, userId: 2002, durationSeconds: 43_200 },
  ]);
});

test('bad cells say which and why: duration, alt accounts, reasons over the limits, unknown columns, extra cells', () => {
  const text = [
    'userId,duration,displayReason,privateReason,excludeAltAccounts,notes',
    '2001,1.5h,,,',
    '2002,3 fortnights,,,',
    '2003,,,,maybe',
    `2004,,${'x'.repeat(401)},,`,
    `2005,,,${'y'.repeat(1001)},`,
    `2006,,${'é'.repeat(400)},${'z'.repeat(1000)},`,
    '2007,1d,a,b,true,c,d',
  ].join('\n');
  assert.deepEqual(problems(text), [
    '1: unknown column "notes": the columns are userId, duration, displayReason, privateReason, excludeAltAccounts',
    '2: duration: use whole numbers: "1.5h" has a fraction (try 1h30m for 1.5h)',
    '3: duration: "fortnights" is not a unit: use s, m, h, d or w',
    '4: excludeAltAccounts: "maybe" is not true or false',
    '5: the display reason has 401 characters; the service takes 400 at most',
    '6: the private reason has 1001 characters; the service takes 1000 at most',
    '8: 7 cells where the list has 6 columns: quote a reason that holds the separator',
  ]);
  assert.deepEqual(ids(text), [2006]);
});

test('a duplicate is reported even when its other cells differ; the first line wins', () => {
  const list = parseBanList('userId,duration\n2001,1d\n2001,7d');
  assert.deepEqual(
    list.rows.map((r) => [r.userId, r.durationSeconds]),
    [[2001, 86_400]],
  );
  assert.deepEqual(
    list.problems.map((p) => [p.line, p.reason]),
    [[3, 'user 2001 is already listed on line 2: that line is used']],
  );
});

test('durations: units and their names, and each problem as a kind the editor can say in its own words', () => {
  assert.equal(parseDuration('2w 3d'), 1_468_800);
  assert.equal(parseDuration('90 minutes'), 5400);
  const kinds = ['', '1.5h', '90', '3 fortnights', 'soon', '0s', '10001w'].map((text) => {
    try {
      parseDuration(text);
      return 'parsed';
    } catch (error) {
      assert.ok(error instanceof DurationError);
      return error.problem.kind;
    }
  });
  assert.deepEqual(kinds, ['empty', 'fraction', 'noUnit', 'unit', 'syntax', 'tooShort', 'parsed']);
  assert.throws(() => parseDuration('530000w'), /at most 10,000 years/);
});
