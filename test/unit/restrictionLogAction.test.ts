// The action of a restriction log entry (Ban, Edit or Lift), derived from the entry and the same user's entry before
// it at the same place, since the service's log entry holds the restriction after the change and no change type.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logAction, logActions, type LogFacts } from '../../src/restrictions/log/action';

const at = (iso: string, fields: Partial<LogFacts> = {}): LogFacts => ({
  user: '1',
  place: '',
  createTime: iso,
  active: true,
  ...fields,
});

describe('logAction', () => {
  it('an active entry after one still in force is an Edit; after one run out or lifted, or alone, a Ban', () => {
    const t = '2024-03-10T12:00:00Z';
    assert.equal(logAction(at(t), undefined), 'ban');
    assert.equal(logAction(at(t), at('2024-03-10T11:00:00Z')), 'edit'); // permanent
    assert.equal(logAction(at(t, { startTime: '2024-03-10T11:59:59.800Z' }), at('2024-03-10T11:59:59.800Z')), 'edit');
    assert.equal(logAction(at(t), at('2024-03-10T11:00:00Z', { duration: '7200s' })), 'edit');
    assert.equal(logAction(at(t), at('2024-03-10T11:00:00Z', { duration: '60s' })), 'ban');
    assert.equal(logAction(at(t), at('2024-03-10T11:00:00Z', { active: false })), 'ban');
  });

  it('with no entry before it loaded, an active entry that starts at its own time is a Ban, an earlier start an Edit', () => {
    const t = '2024-03-10T12:00:00.000Z';
    assert.equal(logAction(at(t, { startTime: t }), undefined), 'ban');
    assert.equal(logAction(at(t, { startTime: '2024-03-10T11:59:59.500Z' }), undefined), 'ban'); // written apart
    assert.equal(logAction(at(t, { startTime: '2024-03-09T12:00:00Z' }), undefined), 'edit');
  });

  it('an inactive entry after an active one is a Lift, after an inactive one an Edit, alone a Lift', () => {
    const t = '2024-03-10T12:00:00Z';
    assert.equal(logAction(at(t, { active: false }), at('2024-03-10T11:00:00Z')), 'lift');
    assert.equal(logAction(at(t, { active: false }), at('2024-03-10T11:00:00Z', { active: false })), 'edit');
    assert.equal(logAction(at(t, { active: false }), undefined), 'lift');
  });
});

describe('logActions', () => {
  it('reads each entry of a newest-first log against the same user and place before it, not another', () => {
    const s = (h: number) => `2024-03-10T${String(h).padStart(2, '0')}:00:00Z`;
    const log: LogFacts[] = [
      at(s(6), { active: false }), // user 1: lifts the edited ban
      at(s(5), { user: '2', place: '7', active: false }), // user 2 at place 7: lifts its ban there
      at(s(4), { startTime: s(1) }), // user 1: edits, keeping the start
      at(s(3), { user: '2', startTime: s(3) }), // user 2 in the universe: a ban of its own
      at(s(2), { user: '2', place: '7', startTime: s(2) }),
      at(s(1), { startTime: s(1) }),
    ];
    assert.deepEqual(logActions(log), ['lift', 'lift', 'edit', 'ban', 'ban', 'ban']);
    assert.deepEqual(logActions([]), []);
  });
});
