// Every user restriction method of the client against the real emulator over loopback HTTP.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { InvalidArgumentError, PermissionDeniedError, ServerError, type OpenApiClient } from '../../src/api';
import { API_KEY, everything, makeClient, rejection } from './support/client';
import { TestEmulator } from './support/emulator';

const READ_ONLY_KEY = 'restriction-reader-key';
const OTHER_UNIVERSE_KEY = 'other-universe-key';
const U = 4242;
const PLACE = 424201;
let emulator: TestEmulator;
let client: OpenApiClient;

before(async () => {
  emulator = await TestEmulator.start({
    apiKeys: [
      { key: API_KEY, userId: 900 },
      { key: READ_ONLY_KEY, scopes: ['universe.user-restriction:read'] },
      { key: OTHER_UNIVERSE_KEY, universes: [1] },
    ],
  });
  client = makeClient(emulator.url).client;
});
after(async () => {
  await client.close();
  await emulator.close();
});
beforeEach(() => emulator.reset());

const ban = {
  active: true,
  duration: '3600s',
  privateReason: 'cheating',
  displayReason: 'Rule 3',
  excludeAltAccounts: false,
};

describe('user restrictions', () => {
  it('a never-restricted user reads as an inactive default', async () => {
    const r = await client.restrictions.get({ universeId: U, userId: 17 });
    assert.equal(r.path, `universes/${U}/user-restrictions/17`);
    assert.equal(r.user, 'users/17');
    assert.deepEqual(
      { ...r.gameJoinRestriction },
      { active: false, privateReason: '', displayReason: '', excludeAltAccounts: false, inherited: false },
    );
  });

  it('ban, read back, unban', async () => {
    const banned = await client.restrictions.update({ universeId: U, userId: 17, gameJoinRestriction: ban });
    assert.equal(banned.gameJoinRestriction.active, true);
    assert.equal(banned.gameJoinRestriction.duration, '3600s');
    assert.ok(banned.gameJoinRestriction.startTime);
    const read = await client.restrictions.get({ universeId: U, userId: 17 });
    assert.equal(read.gameJoinRestriction.displayReason, 'Rule 3');
    const lifted = await client.restrictions.update({
      universeId: U,
      userId: 17,
      gameJoinRestriction: { active: false },
      updateMask: 'gameJoinRestriction',
    });
    assert.equal(lifted.gameJoinRestriction.active, false);
  });

  it('permanent and numeric-duration bans; a place inherits a universe ban', async () => {
    const permanent = await client.restrictions.update({
      universeId: U,
      userId: 1,
      gameJoinRestriction: { ...ban, duration: undefined },
    });
    assert.equal(permanent.gameJoinRestriction.duration, undefined);
    const timed = await client.restrictions.update({
      universeId: U,
      userId: 2,
      gameJoinRestriction: { ...ban, duration: 60 },
    });
    assert.equal(timed.gameJoinRestriction.duration, '60s');

    const placeBan = await client.restrictions.update({
      universeId: U,
      placeId: PLACE,
      userId: 3,
      gameJoinRestriction: ban,
    });
    assert.equal(placeBan.path, `universes/${U}/places/${PLACE}/user-restrictions/3`);
    const inherited = await client.restrictions.get({ universeId: U, placeId: PLACE, userId: 1 });
    assert.equal(inherited.gameJoinRestriction.active, true);
    assert.equal(inherited.gameJoinRestriction.inherited, true);
    const placeList = await client.restrictions.list({ universeId: U, placeId: PLACE });
    assert.ok(placeList.items.some((r) => r.user === 'users/3'));
  });

  it('lists every restricted user across pages exactly once', async () => {
    for (let id = 100; id < 125; id++) {
      await client.restrictions.update({ universeId: U, userId: id, gameJoinRestriction: ban });
    }
    const page = await client.restrictions.list({ universeId: U, maxPageSize: 10 });
    assert.equal(page.items.length, 10);
    assert.ok(page.next);
    const users = [];
    for await (const r of client.restrictions.list({ universeId: U, maxPageSize: 7 })) users.push(r.user);
    assert.equal(users.length, 25);
    assert.equal(new Set(users).size, 25);
  });

  it('logs: one entry per change, filtered by user and place, paged', async () => {
    await client.restrictions.update({ universeId: U, userId: 5, gameJoinRestriction: ban });
    await client.restrictions.update({ universeId: U, userId: 5, gameJoinRestriction: { active: false } });
    await client.restrictions.update({ universeId: U, placeId: PLACE, userId: 6, gameJoinRestriction: ban });
    const forUser = await client.restrictions.listLogs({ universeId: U, user: 5 });
    assert.equal(forUser.items.length, 2);
    for (const log of forUser.items) {
      assert.equal(log.user, 'users/5');
      assert.equal(log.place, '');
      assert.equal(log.moderator.platformUser, 'users/900');
    }
    const forPlace = await client.restrictions.listLogs({ universeId: U, place: PLACE });
    assert.deepEqual(
      forPlace.items.map((l) => [l.user, l.place]),
      [['users/6', `places/${PLACE}`]],
    );
    const both = await client.restrictions.listLogs({ universeId: U, user: 'users/6', place: `places/${PLACE}` });
    assert.equal(both.items.length, 1);
    const all = [];
    for await (const log of client.restrictions.listLogs({ universeId: U, maxPageSize: 1 })) all.push(log);
    assert.equal(all.length, 3);
  });

  it('the same idempotency key applies a change once', async () => {
    const idempotencyKey = { key: randomUUID(), firstSent: new Date().toISOString() };
    await client.restrictions.update({ universeId: U, userId: 8, gameJoinRestriction: ban, idempotencyKey });
    await client.restrictions.update({ universeId: U, userId: 8, gameJoinRestriction: ban, idempotencyKey });
    const { items: logs } = await client.restrictions.listLogs({ universeId: U, user: 8 });
    assert.equal(logs.length, 1);
  });

  it('a PATCH answered 503 is retried with its key, leaving one log entry', async () => {
    await emulator.fault({
      method: 'PATCH',
      path: '/user-restrictions/9',
      status: 503,
      body: '{"code":"UNAVAILABLE","message":"try later"}',
    });
    const r = await client.restrictions.update({ universeId: U, userId: 9, gameJoinRestriction: ban });
    assert.equal(r.gameJoinRestriction.active, true);
    assert.equal((await emulator.requests({ method: 'PATCH' })).length, 2);
    const { items: logs } = await client.restrictions.listLogs({ universeId: U, user: 9 });
    assert.equal(logs.length, 1);
  });

  it('invalid input is INVALID_ARGUMENT, never a 500', async () => {
    const cases = [
      () =>
        client.restrictions.update({
          universeId: U,
          userId: 1,
          gameJoinRestriction: ban,
          updateMask: 'gameJoinRestriction.active',
        }),
      () => client.restrictions.update({ universeId: U, userId: 1, gameJoinRestriction: { ...ban, duration: '1.5s' } }),
      () => client.restrictions.update({ universeId: U, userId: 1, gameJoinRestriction: { ...ban, duration: '0s' } }),
      () =>
        client.restrictions.update({
          universeId: U,
          userId: 1,
          gameJoinRestriction: { ...ban, displayReason: 'x'.repeat(401) },
        }),
      () => client.restrictions.get({ universeId: U, userId: 'not-a-user' }),
      () => client.restrictions.get({ universeId: U, userId: '..' }),
      () => client.restrictions.list({ universeId: U, pageToken: 'garbage-token' }),
    ];
    for (const call of cases) {
      const err = await rejection(call);
      assert.ok(!(err instanceof ServerError), err.message);
      assert.ok(err instanceof InvalidArgumentError, `${err.name}: ${err.message}`);
    }
  });

  it('a read-only key cannot update; a key for other universes cannot read', async () => {
    const reader = makeClient(emulator.url, { apiKey: READ_ONLY_KEY }).client;
    const other = makeClient(emulator.url, { apiKey: OTHER_UNIVERSE_KEY }).client;
    try {
      await reader.restrictions.get({ universeId: U, userId: 1 });
      const denied = await rejection(() =>
        reader.restrictions.update({ universeId: U, userId: 1, gameJoinRestriction: ban }),
      );
      assert.ok(denied instanceof PermissionDeniedError, String(denied));
      assert.equal(denied.code, 'PERMISSION_DENIED');
      assert.ok(!everything(denied).includes(READ_ONLY_KEY));
      const elsewhere = await rejection(() => other.restrictions.get({ universeId: U, userId: 1 }));
      assert.ok(elsewhere instanceof PermissionDeniedError, String(elsewhere));
    } finally {
      await reader.close();
      await other.close();
    }
  });
});
