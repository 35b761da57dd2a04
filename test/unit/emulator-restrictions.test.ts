import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/server';
import { call, start, v2Error } from './fixtures/emulator/harness';

const U = 777;
const P1 = 7771;
const P2 = 7772;
const base = `/cloud/v2/universes/${U}`;
let emu: RunningEmulator;
let universe = 1000; // a fresh universe per test that needs one

before(async () => {
  emu = await start({ apiKeys: [{ key: 'mod', userId: 42 }] });
});
after(() => emu.close());

const req = (
  method: string,
  path: string,
  init: { query?: Record<string, string | number | undefined>; body?: unknown } = {},
) =>
  call(emu.url, method, path, {
    key: 'mod',
    query: init.query,
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
    headers: init.body === undefined ? undefined : { 'content-type': 'application/json' },
  });
const ban = (path: string, g: Record<string, unknown>, query?: Record<string, string>) =>
  req('PATCH', path, { body: { gameJoinRestriction: g }, query });

describe('get', () => {
  it('returns the inactive default for a user never restricted', async () => {
    const r = await req('GET', `${base}/user-restrictions/123`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, {
      path: `universes/${U}/user-restrictions/123`,
      user: 'users/123',
      gameJoinRestriction: {
        active: false,
        privateReason: '',
        displayReason: '',
        excludeAltAccounts: false,
        inherited: false,
      },
    });
    const place = await req('GET', `${base}/places/${P1}/user-restrictions/123`);
    assert.equal(place.json.path, `universes/${U}/places/${P1}/user-restrictions/123`);
  });

  it('400s ids that are not positive numbers', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999', '%ZZ']) {
      v2Error(await req('GET', `${base}/user-restrictions/${id}`), 400, 'INVALID_ARGUMENT');
    }
    v2Error(await req('GET', `/cloud/v2/universes/x/user-restrictions/1`), 400, 'INVALID_ARGUMENT');
    v2Error(await req('GET', `${base}/places/x/user-restrictions/1`), 400, 'INVALID_ARGUMENT');
  });
});

describe('update', () => {
  it('bans with a server-set startTime, kept while active; unbans replace the whole restriction', async () => {
    const path = `${base}/user-restrictions/201`;
    const before = Date.now();
    const r = await ban(path, {
      active: true,
      duration: '3600s',
      privateReason: 'p',
      displayReason: 'd',
      excludeAltAccounts: true,
      startTime: '2000-01-01T00:00:00Z',
      inherited: true,
    });
    assert.equal(r.status, 200, r.text);
    const g = r.json.gameJoinRestriction;
    assert.ok(Date.parse(g.startTime) >= before - 1000, g.startTime);
    assert.deepEqual(
      { ...g, startTime: undefined },
      {
        active: true,
        startTime: undefined,
        duration: '3600s',
        privateReason: 'p',
        displayReason: 'd',
        excludeAltAccounts: true,
        inherited: false,
      },
    );
    assert.ok(r.json.updateTime);
    const again = await ban(path, { active: true, duration: '7200s' }, { updateMask: 'game_join_restriction' });
    assert.equal(again.json.gameJoinRestriction.startTime, g.startTime);
    assert.equal(again.json.gameJoinRestriction.privateReason, '');
    const off = await ban(path, { active: false }, { updateMask: 'gameJoinRestriction' });
    assert.deepEqual(off.json.gameJoinRestriction, {
      active: false,
      privateReason: '',
      displayReason: '',
      excludeAltAccounts: false,
      inherited: false,
    });
    assert.deepEqual((await req('GET', path)).json, off.json);
  });

  it('checks the mask, the duration, the reasons and the body', async () => {
    const path = `${base}/user-restrictions/202`;
    v2Error(await ban(path, { active: true }, { updateMask: 'gameJoinRestriction.active' }), 400, 'INVALID_ARGUMENT');
    v2Error(await ban(path, { active: true }, { updateMask: 'user' }), 400, 'INVALID_ARGUMENT');
    for (const duration of ['0s', '1.5s', '315576000001s', '10', 's', '-5s', 5]) {
      v2Error(await ban(path, { active: true, duration }), 400, 'INVALID_ARGUMENT');
    }
    assert.equal((await ban(path, { active: true, duration: '1s' })).status, 200);
    assert.equal((await ban(path, { active: true, duration: '315576000000s' })).status, 200);
    assert.equal((await ban(path, { active: true, duration: null })).json.gameJoinRestriction.duration, undefined);
    assert.equal(
      (await ban(path, { active: true, privateReason: 'x'.repeat(1000), displayReason: 'ü'.repeat(400) })).status,
      200,
    );
    v2Error(await ban(path, { active: true, privateReason: 'x'.repeat(1001) }), 400, 'INVALID_ARGUMENT');
    v2Error(await ban(path, { active: true, displayReason: 'x'.repeat(401) }), 400, 'INVALID_ARGUMENT');
    v2Error(await ban(path, { active: 'yes' }), 400, 'INVALID_ARGUMENT');
    v2Error(await req('PATCH', path, { body: '{not json' }), 400, 'INVALID_ARGUMENT');
    v2Error(await req('PATCH', path, { body: [] }), 400, 'INVALID_ARGUMENT');
    v2Error(await req('PATCH', path, { body: { active: true } }), 400, 'INVALID_ARGUMENT');
    v2Error(await req('PATCH', path, { body: 'x'.repeat(70_000) }), 400, 'INVALID_ARGUMENT');
  });

  it('applies an idempotency key once; a different body with it is 400; an old firstSent is 400', async () => {
    const u = ++universe;
    const path = `/cloud/v2/universes/${u}/user-restrictions/5`;
    const firstSent = new Date().toISOString();
    const key = { 'idempotencyKey.key': 'abc', 'idempotencyKey.firstSent': firstSent };
    const first = await ban(path, { active: true, privateReason: 'once' }, key);
    await new Promise((r) => setTimeout(r, 5));
    const second = await ban(path, { active: true, privateReason: 'once' }, key);
    assert.deepEqual(second.json, first.json);
    const logs = await req('GET', `/cloud/v2/universes/${u}/user-restrictions:listLogs`);
    assert.equal(logs.json.logs.length, 1);
    v2Error(await ban(path, { active: true, privateReason: 'twice' }, key), 400, 'INVALID_ARGUMENT');
    v2Error(
      await ban(`/cloud/v2/universes/${u}/user-restrictions/6`, { active: true, privateReason: 'once' }, key),
      400,
      'INVALID_ARGUMENT',
    );
    const old = new Date(Date.now() - 25 * 3600 * 1000).toISOString();
    v2Error(
      await ban(path, { active: true }, { 'idempotencyKey.key': 'new', 'idempotencyKey.firstSent': old }),
      400,
      'INVALID_ARGUMENT',
    );
    v2Error(
      await ban(path, { active: true }, { 'idempotencyKey.key': 'new', 'idempotencyKey.firstSent': 'yesterday' }),
      400,
      'INVALID_ARGUMENT',
    );
    assert.equal((await req('GET', `/cloud/v2/universes/${u}/user-restrictions:listLogs`)).json.logs.length, 1);
  });
});

describe('places and inheritance', () => {
  it('shows a universe ban as inherited at every place and in place lists', async () => {
    const u = ++universe;
    const ub = `/cloud/v2/universes/${u}`;
    await ban(`${ub}/user-restrictions/10`, { active: true, displayReason: 'universe' });
    await ban(`${ub}/places/${P1}/user-restrictions/11`, { active: true, displayReason: 'place' });
    await ban(`${ub}/places/${P1}/user-restrictions/12`, { active: false });
    await ban(`${ub}/user-restrictions/13`, { active: false });
    const at = await req('GET', `${ub}/places/${P2}/user-restrictions/10`);
    assert.equal(at.json.path, `universes/${u}/places/${P2}/user-restrictions/10`);
    assert.equal(at.json.gameJoinRestriction.active, true);
    assert.equal(at.json.gameJoinRestriction.inherited, true);
    assert.equal(at.json.gameJoinRestriction.displayReason, 'universe');
    const placeBan = await req('GET', `${ub}/places/${P1}/user-restrictions/11`);
    assert.equal(placeBan.json.gameJoinRestriction.inherited, false);
    assert.equal((await req('GET', `${ub}/user-restrictions/11`)).json.gameJoinRestriction.active, false);
    const p1 = (await req('GET', `${ub}/places/${P1}/user-restrictions`)).json.userRestrictions;
    assert.deepEqual(
      p1.map((r: { user: string; gameJoinRestriction: { inherited: boolean } }) => [
        r.user,
        r.gameJoinRestriction.inherited,
      ]),
      [
        ['users/10', true],
        ['users/11', false],
        ['users/12', false],
      ],
    );
    const p2 = (await req('GET', `${ub}/places/${P2}/user-restrictions`)).json.userRestrictions;
    assert.deepEqual(
      p2.map((r: { user: string }) => r.user),
      ['users/10'],
    );
    const all = (await req('GET', `${ub}/user-restrictions`)).json;
    assert.deepEqual(
      all.userRestrictions.map((r: { user: string }) => r.user),
      ['users/10', 'users/13'],
    );
    assert.equal('nextPageToken' in all, false);
  });

  it('pages lists with maxPageSize (default 10, clamped to 100) and a token tied to the list', async () => {
    const u = ++universe;
    const ub = `/cloud/v2/universes/${u}`;
    for (let i = 1; i <= 105; i++) await ban(`${ub}/user-restrictions/${i}`, { active: true });
    assert.equal((await req('GET', `${ub}/user-restrictions`)).json.userRestrictions.length, 10);
    const big = await req('GET', `${ub}/user-restrictions`, { query: { maxPageSize: 1000 } });
    assert.equal(big.json.userRestrictions.length, 100);
    const rest = await req('GET', `${ub}/user-restrictions`, {
      query: { maxPageSize: 1000, pageToken: big.json.nextPageToken },
    });
    assert.deepEqual(
      rest.json.userRestrictions.map((r: { user: string }) => r.user),
      ['users/101', 'users/102', 'users/103', 'users/104', 'users/105'],
    );
    assert.equal('nextPageToken' in rest.json, false);
    v2Error(
      await req('GET', `${ub}/places/${P1}/user-restrictions`, { query: { pageToken: big.json.nextPageToken } }),
      400,
      'INVALID_ARGUMENT',
    );
    v2Error(
      await req('GET', `${ub}/user-restrictions`, { query: { pageToken: 'forged.token' } }),
      400,
      'INVALID_ARGUMENT',
    );
    v2Error(await req('GET', `${ub}/user-restrictions`, { query: { maxPageSize: -1 } }), 400, 'INVALID_ARGUMENT');
  });
});

describe('logs', () => {
  it('writes one entry per change, newest first, with moderator and place', async () => {
    const u = ++universe;
    const ub = `/cloud/v2/universes/${u}`;
    await ban(`${ub}/user-restrictions/1`, { active: true, duration: '60s', privateReason: 'a' });
    await ban(`${ub}/places/${P1}/user-restrictions/2`, { active: true });
    await ban(`${ub}/user-restrictions/1`, { active: false });
    const logs = (await req('GET', `${ub}/user-restrictions:listLogs`)).json;
    assert.equal('nextPageToken' in logs, false);
    assert.deepEqual(
      logs.logs.map((l: { user: string; place: string; active: boolean }) => [l.user, l.place, l.active]),
      [
        ['users/1', '', false],
        ['users/2', `places/${P1}`, true],
        ['users/1', '', true],
      ],
    );
    const first = logs.logs[2];
    assert.deepEqual(first.moderator, { platformUser: 'users/42' });
    assert.deepEqual(first.restrictionType, { gameJoinRestriction: {} });
    assert.equal(first.duration, '60s');
    assert.equal(first.privateReason, 'a');
    assert.ok(Date.parse(first.createTime) && Date.parse(first.startTime));
    assert.equal(first.excludeAltAccounts, false);
  });

  it('filters by user and place in every accepted spelling, and refuses anything else', async () => {
    const u = ++universe;
    const ub = `/cloud/v2/universes/${u}`;
    await ban(`${ub}/user-restrictions/1`, { active: true });
    await ban(`${ub}/places/${P1}/user-restrictions/1`, { active: true });
    await ban(`${ub}/places/${P1}/user-restrictions/2`, { active: true });
    await ban(`${ub}/places/${P2}/user-restrictions/2`, { active: true });
    const count = async (filter: string) => {
      const r = await req('GET', `${ub}/user-restrictions:listLogs`, { query: { filter } });
      assert.equal(r.status, 200, `${filter}: ${r.text}`);
      return r.json.logs.length;
    };
    assert.equal(await count("user == 'users/1'"), 2);
    assert.equal(await count('user=="users/2"'), 2);
    assert.equal(await count(`place == 'places/${P1}'`), 2);
    assert.equal(await count(`user == 'users/2' && place == 'places/${P1}'`), 1);
    assert.equal(await count(`place=="places/${P2}"&&user=='users/2'`), 1);
    assert.equal(await count(`  user == 'users/9'  `), 0);
    assert.equal(await count(''), 4);
    for (const bad of [
      "user = 'users/1'",
      "user == 'places/1'",
      'user == users/1',
      "user == 'users/1' || place == 'places/1'",
      "user == 'users/1' && user == 'users/2'",
      "active == 'true'",
      'user == \'users/1"',
      '&&',
    ]) {
      v2Error(
        await req('GET', `${ub}/user-restrictions:listLogs`, { query: { filter: bad } }),
        400,
        'INVALID_ARGUMENT',
      );
    }
  });

  it('pages logs with a token that changing the filter invalidates', async () => {
    const u = ++universe;
    const ub = `/cloud/v2/universes/${u}`;
    for (let i = 1; i <= 25; i++) await ban(`${ub}/user-restrictions/${1 + (i % 2)}`, { active: i % 3 === 0 });
    const seen: string[] = [];
    let pageToken: string | undefined;
    do {
      const r = await req('GET', `${ub}/user-restrictions:listLogs`, {
        query: { pageToken, filter: "user == 'users/1'" },
      });
      assert.equal(r.status, 200, r.text);
      assert.ok(r.json.logs.length <= 10);
      seen.push(...r.json.logs.map((l: { createTime: string }) => l.createTime));
      pageToken = r.json.nextPageToken;
    } while (pageToken);
    assert.equal(seen.length, 12);
    const token = (await req('GET', `${ub}/user-restrictions:listLogs`, { query: { maxPageSize: 5 } })).json
      .nextPageToken;
    assert.ok(token);
    v2Error(
      await req('GET', `${ub}/user-restrictions:listLogs`, {
        query: { pageToken: token, filter: "user == 'users/1'" },
      }),
      400,
      'INVALID_ARGUMENT',
    );
    assert.equal(
      (await req('GET', `${ub}/user-restrictions:listLogs`, { query: { pageToken: token, maxPageSize: 5 } })).json.logs
        .length,
      5,
    );
  });
});
