// Version retention as the live service keeps versions (reference 3.9), and the controllable clock every time comes
// from. The clock starts at a fixed time, so hours and days are exact.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { TestEmulator } from './support/emulator';
import { call, dsError, DS, ENTRY, entry, gatewayError, tempDir, U, type Reply } from './fixtures/emulator/harness';

const START = '2024-01-15T10:00:00.000Z';
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let emulator: TestEmulator;
before(async () => {
  emulator = await TestEmulator.start({ clock: START, operationDelayMs: MINUTE });
});
after(() => emulator.close());
beforeEach(() => emulator.reset());

const set = (key: string, value: unknown, url = emulator.url): Promise<Reply> =>
  call(url, 'POST', ENTRY, { query: entry('R', key), body: JSON.stringify(value) });
const listed = async (key: string, url = emulator.url): Promise<string[]> => {
  const r = await call(url, 'GET', `${ENTRY}/versions`, { query: entry('R', key, { limit: 100 }) });
  assert.equal(r.status, 200, r.text);
  return r.json.versions.map((v: { version: string }) => v.version);
};
const keys = async (url = emulator.url): Promise<string[]> =>
  (await call(url, 'GET', `${DS()}/datastore/entries`, { query: { datastoreName: 'R' } })).json.keys.map(
    (k: { key: string }) => k.key,
  );

describe('version retention', () => {
  it('keeps the last write of each UTC hour once that hour ended over an hour ago, and lists what was just written', async () => {
    const v1 = (await set('k', 1)).json.version;
    const v2 = (await set('k', 2)).json.version;
    await emulator.advanceClock(30 * MINUTE); // 10:30
    const v3 = (await set('k', 3)).json.version;
    assert.deepEqual(await listed('k'), [v1, v2, v3]);
    await emulator.advanceClock(HOUR); // 11:30: hour 10 ended 30 minutes ago
    const v4 = (await set('k', 4)).json.version;
    assert.deepEqual(await listed('k'), [v1, v2, v3, v4]);
    await emulator.advanceClock(40 * MINUTE); // 12:10: hour 10 ended 70 minutes ago
    assert.deepEqual(await listed('k'), [v3, v4]);
    const thinned = await call(emulator.url, 'GET', `${ENTRY}/versions/version`, {
      query: entry('R', 'k', { versionId: v1 }),
    });
    dsError(thinned, 404, 'VersionNotFound');
    const kept = await call(emulator.url, 'GET', `${ENTRY}/versions/version`, {
      query: entry('R', 'k', { versionId: v3 }),
    });
    assert.equal(kept.text, '3');
  });

  it('expires a superseded version 30 days after it was superseded; the latest never expires', async () => {
    const v1 = (await set('k', 1)).json.version;
    await emulator.advanceClock(2 * HOUR);
    const v2 = (await set('k', 2)).json.version; // supersedes v1 at 12:00
    await emulator.advanceClock(30 * DAY - 2 * MINUTE);
    assert.deepEqual(await listed('k'), [v1, v2]);
    await emulator.advanceClock(3 * MINUTE);
    assert.deepEqual(await listed('k'), [v2]);
    await emulator.advanceClock(400 * DAY);
    assert.deepEqual(await listed('k'), [v2]);
    assert.equal((await call(emulator.url, 'GET', ENTRY, { query: entry('R', 'k') })).text, '2');
  });

  it('purges a deleted key for good 30 days after the delete', async () => {
    await set('gone', 1);
    await set('stays', 1);
    await emulator.advanceClock(HOUR);
    assert.equal((await call(emulator.url, 'DELETE', ENTRY, { query: entry('R', 'gone') })).status, 204);
    await emulator.advanceClock(30 * DAY - MINUTE);
    assert.deepEqual(await keys(), ['gone', 'stays'], 'a tombstoned key is listed until it is purged');
    assert.equal((await listed('gone')).length, 2);
    await emulator.advanceClock(2 * MINUTE);
    assert.deepEqual(await keys(), ['stays']);
    const versions = await call(emulator.url, 'GET', `${ENTRY}/versions`, { query: entry('R', 'gone') });
    dsError(versions, 404, 'EntryNotFound');
    // A new write starts a new key.
    const again = (await set('gone', 2)).json;
    assert.equal(again.createdTime, again.objectCreatedTime);
  });

  it('replays the same history after a restart, whatever the clock then says', async () => {
    const dir = tempDir();
    let first = await TestEmulator.start({ dataDir: dir, clock: START });
    let history: string[];
    try {
      for (let i = 0; i < 3; i++) await set('k', i, first.url);
      await first.advanceClock(2 * HOUR);
      await set('k', 3, first.url);
      await set('deleted', 1, first.url);
      await call(first.url, 'DELETE', ENTRY, { query: entry('R', 'deleted') });
      await first.advanceClock(31 * DAY);
      history = await listed('k', first.url);
      assert.equal(history.length, 1);
      assert.deepEqual(await keys(first.url), ['k']);
    } finally {
      await first.close();
    }
    first = await TestEmulator.start({ dataDir: dir, clock: START });
    try {
      assert.deepEqual(await listed('k', first.url), history);
      assert.deepEqual(await keys(first.url), ['k']);
      // Compacted on start: the journal no longer holds what retention removed.
      const facts = fs
        .readFileSync(path.join(dir, 'journal.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .flatMap((line) => JSON.parse(line) as { t: string }[]);
      assert.deepEqual(
        facts.map((f) => f.t),
        ['ds'],
      );
    } finally {
      await first.close();
    }
  });

  it('counts 30 days from the write that superseded a version, even after that write was thinned and a restart', async () => {
    const dir = tempDir();
    let emulator = await TestEmulator.start({ dataDir: dir, clock: START });
    let first: string;
    try {
      first = (await set('k', 1, emulator.url)).json.version; // 10:00
      await emulator.advanceClock(2 * HOUR);
      await set('k', 2, emulator.url); // 12:00 supersedes the first
      await emulator.advanceClock(50 * MINUTE);
      await set('k', 3, emulator.url); // 12:50, the last of its hour
      await emulator.advanceClock(2 * HOUR); // 14:50: the write of 12:00 is thinned
      assert.equal((await listed('k', emulator.url)).length, 2);
    } finally {
      await emulator.close();
    }
    await (await TestEmulator.start({ dataDir: dir, clock: START })).close(); // compacts the journal
    emulator = await TestEmulator.start({ dataDir: dir, clock: START });
    try {
      await emulator.advanceClock(2 * HOUR + 30 * DAY - MINUTE); // 30 days after 12:00, less a minute
      assert.equal((await listed('k', emulator.url))[0], first);
      await emulator.advanceClock(2 * MINUTE);
      assert.notEqual((await listed('k', emulator.url))[0], first, 'expired 30 days after 12:00, not 12:50');
    } finally {
      await emulator.close();
    }
  });
});

describe('the clock', () => {
  it('gives every time the emulator writes or reports', async () => {
    const version = (await set('k', 1)).json;
    assert.equal(version.createdTime.slice(0, 16), START.slice(0, 16));
    const got = await call(emulator.url, 'GET', ENTRY, { query: entry('R', 'k') });
    assert.match(got.headers.get('platform-entry-version-created-time')!, /^2024-01-15T10:00/);

    const ban = await call(emulator.url, 'PATCH', `/cloud/v2/universes/${U}/user-restrictions/5`, {
      query: { 'idempotencyKey.key': 'x', 'idempotencyKey.firstSent': START },
      body: JSON.stringify({ gameJoinRestriction: { active: true } }),
    });
    assert.equal(ban.status, 200, ban.text);
    assert.match(ban.json.updateTime, /^2024-01-15T10:00/);
    assert.match(ban.json.gameJoinRestriction.startTime, /^2024-01-15T10:00/);
    const logs = await call(emulator.url, 'GET', `/cloud/v2/universes/${U}/user-restrictions:listLogs`);
    assert.match(logs.json.logs[0].createTime, /^2024-01-15T10:00/);

    const form = new FormData();
    form.append(
      'request',
      JSON.stringify({ assetType: 'Audio', displayName: 'Song', creationContext: { creator: { userId: '1' } } }),
    );
    form.append('fileContent', new Blob([new Uint8Array(Buffer.from('OggS....'))], { type: 'audio/ogg' }), 'a.ogg');
    const op = (await call(emulator.url, 'POST', '/assets/v1/assets', { body: form })).json;
    assert.equal(op.done, false);
    await emulator.advanceClock(MINUTE);
    const done = (await call(emulator.url, 'GET', `/assets/v1/${op.path}`)).json;
    assert.equal(done.done, true, 'the operation is done once the clock has passed its delay');
    assert.match(done.response.revisionCreateTime, /^2024-01-15T10:00/);

    // An idempotency key is remembered for 24 hours of the emulator's time.
    await emulator.advanceClock(DAY);
    const late = await call(emulator.url, 'PATCH', `/cloud/v2/universes/${U}/user-restrictions/5`, {
      query: { 'idempotencyKey.key': 'x', 'idempotencyKey.firstSent': START },
      body: JSON.stringify({ gameJoinRestriction: { active: true } }),
    });
    assert.equal(late.status, 400);
  });

  it('moves forward only, by advanceMs or to a set time, and starts over on reset', async () => {
    const control = (method: string, body?: unknown) =>
      call(emulator.url, method, '/_emulator/clock', {
        key: null,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    assert.match((await control('GET')).json.now, /^2024-01-15T10:00/);
    assert.match((await control('POST', { set: '2024-03-01T00:00:00Z' })).json.now, /^2024-03-01T00:00:00/);
    assert.match((await control('POST', { advanceMs: DAY })).json.now, /^2024-03-02T00:00:00/);
    for (const bad of [
      { set: '2024-01-01T00:00:00Z' },
      { advanceMs: -1 },
      { advanceMs: 'soon' },
      { set: 'tomorrow' },
      { advanceMs: 1, set: '2030-01-01T00:00:00Z' },
      {},
    ]) {
      gatewayError(await control('POST', bad), 400);
    }
    await emulator.reset();
    assert.match((await control('GET')).json.now, /^2024-01-15T10:00/);
  });

  it('is the real time without a start time', async () => {
    const plain = await TestEmulator.start();
    try {
      const version = (await set('k', 1, plain.url)).json;
      assert.ok(Math.abs(Date.parse(version.createdTime) - Date.now()) < 60_000);
    } finally {
      await plain.close();
    }
  });
});
