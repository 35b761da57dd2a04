// The restriction log's selection: what the page may hand the host (ids only, at most 10,000, with the rows they
// came from), and how a selection counts its distinct users and is tied to its filter, run and universe.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MOST_SELECTED, readToHost, type LogRow, type LogState } from '../../src/restrictions/log/protocol';
import { describeSelected, rowKey, selectedOf, selectionScope } from '../../src/restrictions/log/selection';

const row = (user: string, time: string, place = ''): LogRow => ({
  time,
  action: 'ban',
  user,
  place,
  moderator: '',
  active: true,
  duration: '',
  displayReason: '',
  privateReason: '',
  excludeAltAccounts: false,
});

describe('readToHost: the selected users', () => {
  it('takes user ids with the count of rows, each id once', () => {
    assert.deepEqual(readToHost({ type: 'banSelected', userIds: ['12', '7', '12'], rows: 3 }), {
      type: 'banSelected',
      userIds: ['12', '7'],
      rows: 3,
    });
    assert.deepEqual(readToHost({ type: 'unbanSelected', userIds: ['9223372036854775807'], rows: 1 }), {
      type: 'unbanSelected',
      userIds: ['9223372036854775807'],
      rows: 1,
    });
    const most = Array.from({ length: MOST_SELECTED }, (_, i) => String(i + 1));
    assert.equal(readToHost({ type: 'banSelected', userIds: most, rows: MOST_SELECTED })?.type, 'banSelected');
  });

  it('refuses anything but a list of 1 to 10,000 ids and a whole count of rows no smaller', () => {
    const bad: unknown[] = [
      { type: 'banSelected' },
      { type: 'banSelected', userIds: [], rows: 0 },
      { type: 'banSelected', userIds: '12', rows: 1 },
      { type: 'banSelected', userIds: [12], rows: 1 },
      { type: 'banSelected', userIds: ['12 '], rows: 1 },
      { type: 'banSelected', userIds: ['012'], rows: 1 },
      { type: 'banSelected', userIds: ['-5'], rows: 1 },
      { type: 'banSelected', userIds: ['1e5'], rows: 1 },
      { type: 'banSelected', userIds: ['<b>1</b>'], rows: 1 },
      { type: 'banSelected', userIds: ['12345678901234567890'], rows: 1 },
      { type: 'unbanSelected', userIds: ['12', null], rows: 2 },
      { type: 'unbanSelected', userIds: ['12'] },
      { type: 'unbanSelected', userIds: ['12'], rows: '1' },
      { type: 'unbanSelected', userIds: ['12'], rows: 1.5 },
      { type: 'unbanSelected', userIds: ['12', '13'], rows: 1 },
      { type: 'banSelected', userIds: Array.from({ length: MOST_SELECTED + 1 }, (_, i) => String(i + 1)), rows: 1e6 },
    ];
    for (const message of bad) assert.equal(readToHost(message), undefined, JSON.stringify(message).slice(0, 80));
  });
});

describe('the selection', () => {
  const rows = [
    row('5', '2026-11-27T10:00:02Z'),
    row('5', '2026-11-27T10:00:01Z', '77'),
    row('6', '2026-11-27T10:00:00Z'),
  ];

  it('counts the selected rows shown and their distinct users, in the order shown', () => {
    const keys = new Set([rowKey(rows[0]), rowKey(rows[1]), rowKey(rows[2]), 'gone|1|']);
    assert.deepEqual(selectedOf(rows, keys), { rows: 3, userIds: ['5', '6'] });
    assert.deepEqual(selectedOf(rows, new Set([rowKey(rows[1])])), { rows: 1, userIds: ['5'] });
    assert.equal(describeSelected(selectedOf(rows, keys)), '2 users selected');
    assert.equal(describeSelected({ rows: 1, userIds: ['5'] }), '1 user selected');
    assert.equal(describeSelected({ rows: 0, userIds: [] }), 'No users selected');
    const many = Array.from({ length: MOST_SELECTED + 1 }, (_, i) => String(i));
    assert.equal(
      describeSelected({ rows: many.length, userIds: many }),
      '10,001 users selected: at most 10,000 at a time',
    );
  });

  it('belongs to its universe, filter and run', () => {
    const state = (user: string, run: string, universeId = 1): Pick<LogState, 'restore' | 'filter' | 'run'> => ({
      restore: { connectionId: 'c', universeId, filter: { user, place: '' } },
      filter: { user, place: '' },
      run,
    });
    const scope = selectionScope(state('', ''));
    assert.equal(selectionScope(state('', '')), scope);
    assert.notEqual(selectionScope(state('5', '')), scope);
    assert.notEqual(selectionScope(state('', 'run-1')), scope);
    assert.notEqual(selectionScope(state('', '', 2)), scope);
  });
});
