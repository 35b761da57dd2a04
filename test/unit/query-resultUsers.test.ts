// The user ids of a query result (src/queries/results/users.ts): which columns hold them, and what one gives.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { leftOut, MAX_USERS, namesUsers, userColumns, userIdOf, usersOf } from '../../src/queries/results/users';

test('names like a user: user, userId, user_id, player, playerIds, target_user_id; not username or players_count', () => {
  for (const name of ['user', 'userId', 'USER_ID', 'user-ids', 'player', 'playerIds', 'target_user_id', 'users'])
    assert.ok(namesUsers(name), name);
  for (const name of ['username', 'players_count', 'key', 'userIdx', 'coins']) assert.ok(!namesUsers(name), name);
});

test('a user id is a whole number from 1 to 2^53 - 1, as a number or its digits', () => {
  assert.deepEqual([1, 2001, '2001', ' 42 ', Number.MAX_SAFE_INTEGER].map(userIdOf), [1, 2001, 2001, 42, 2 ** 53 - 1]);
  for (const v of [0, -3, '-3', 1.5, '1e3', 'abc', '', null, '9007199254740992', '12345678901234567890', true, {}])
    assert.equal(userIdOf(v), undefined, JSON.stringify(v));
});

test('the columns that hold ids: whole number types and their lists by name; text and JSON only with an id in them', () => {
  const columns = [
    { name: 'userId', type: 'BIGINT' },
    { name: 'user_ids', type: 'BIGINT[]' },
    { name: 'player', type: 'VARCHAR' },
    { name: 'players', type: 'JSON' },
    { name: 'user', type: 'VARCHAR' },
    { name: 'coins', type: 'BIGINT' },
    { name: 'playerId', type: 'DOUBLE' },
  ];
  const rows = [
    [1, [1, 2], 'Alice', '[3, 4]', 'bob', 5, 1],
    [2, [], '17', null, null, 6, 2],
  ];
  assert.deepEqual(userColumns(columns, rows), [0, 1, 2, 3]);
});

test('every row counts: distinct ids in the order met, lists flattened, rows without an id and values not ids counted', () => {
  const rows = [[[11, 12]], [[12, -1]], [[]], [null], [['abc', 13]], [['9007199254740993']], [[[14, [15]]]]];
  const users = usersOf(rows, 0, 'BIGINT[]', 'user_ids');
  assert.deepEqual(users, { userIds: [11, 12, 13, 14, 15], rowsWithout: 3, notIds: 3 });
  assert.equal(leftOut(users), '3 rows had no user id; 3 values were not user ids.');
  assert.equal(leftOut({ userIds: [1], rowsWithout: 1, notIds: 0 }), '1 row had no user id.');
  assert.equal(leftOut({ userIds: [1], rowsWithout: 0, notIds: 0 }), '');
  assert.deepEqual(usersOf([['[1, 2]'], ['7'], ['"x"']], 0, 'JSON', 'players').userIds, [1, 2, 7]);
});

test(`more than ${MAX_USERS} distinct ids are refused; as many, or duplicates, are not`, () => {
  const rows = Array.from({ length: MAX_USERS }, (_, i) => [i + 1]);
  assert.equal(usersOf([...rows, [1]], 0, 'BIGINT', 'userId').userIds.length, MAX_USERS);
  assert.throws(
    () => usersOf([...rows, [MAX_USERS + 1]], 0, 'BIGINT', 'userId'),
    /^Error: column userId holds more than 100,000 distinct user ids; narrow the query with a WHERE or a LIMIT$/,
  );
});
