// Every write answered 2xx survives `kill -9` right after the answer: run the built CLI with --data, write, kill,
// start again on the same folder and read it back.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { buildCli, call, DS, entry, ENTRY, spawnCli, tempDir, U, type Reply } from './fixtures/emulator/harness';

before(async () => {
  await buildCli();
});

/** Starts on `dir`, runs `write` (must answer 2xx), kills -9 at once, starts again and returns `read`'s result. */
async function killAfter<T>(
  dir: string,
  write: (url: string) => Promise<Reply>,
  read: (url: string) => Promise<T>,
): Promise<T> {
  const first = await spawnCli(['--data', dir, '--port', '0']);
  const r = await write(first.url);
  first.proc.kill('SIGKILL');
  assert.ok(r.status >= 200 && r.status < 300, r.text);
  assert.equal((await first.exited).signal, 'SIGKILL');
  const second = await spawnCli(['--data', dir, '--port', '0']);
  try {
    return await read(second.url);
  } finally {
    second.proc.kill('SIGKILL');
    await second.exited;
  }
}

const restriction = `/cloud/v2/universes/${U}/user-restrictions/55`;

describe('persistence across kill -9', () => {
  const dir = tempDir();

  it('keeps a set, with its metadata and version', async () => {
    let version = '';
    const got = await killAfter(
      dir,
      async (url) => {
        const r = await call(url, 'POST', ENTRY, {
          query: entry('P', 'k'),
          body: '{"kept":true}',
          headers: { 'platform-entry-attributes': '{"a":1}', 'platform-entry-userids': '[4]' },
        });
        version = r.json?.version;
        return r;
      },
      (url) => call(url, 'GET', ENTRY, { query: entry('P', 'k') }),
    );
    assert.equal(got.text, '{"kept":true}');
    assert.equal(got.headers.get('platform-entry-version'), version);
    assert.equal(got.headers.get('platform-entry-attributes'), '{"a":1}');
    assert.equal(got.headers.get('platform-entry-userids'), '[4]');
  });

  it('keeps an increment', async () => {
    const got = await killAfter(
      dir,
      (url) => call(url, 'POST', `${ENTRY}/increment`, { query: entry('P', 'n', { incrementBy: 41 }) }),
      (url) => call(url, 'POST', `${ENTRY}/increment`, { query: entry('P', 'n', { incrementBy: 1 }) }),
    );
    assert.equal(got.text, '42');
  });

  it('keeps a delete as a tombstone', async () => {
    const got = await killAfter(
      dir,
      (url) => call(url, 'DELETE', ENTRY, { query: entry('P', 'k') }),
      async (url) => [
        await call(url, 'GET', ENTRY, { query: entry('P', 'k') }),
        await call(url, 'GET', `${ENTRY}/versions`, { query: entry('P', 'k') }),
      ],
    );
    assert.equal(got[0].status, 404);
    assert.deepEqual(
      got[1].json.versions.map((v: { deleted: boolean }) => v.deleted),
      [false, true],
    );
  });

  it('keeps a restriction update, its log entry and its idempotency key', async () => {
    const query = { 'idempotencyKey.key': 'k1', 'idempotencyKey.firstSent': new Date().toISOString() };
    const body = JSON.stringify({ gameJoinRestriction: { active: true, displayReason: 'persisted' } });
    const got = await killAfter(
      dir,
      (url) => call(url, 'PATCH', restriction, { query, body }),
      async (url) => [
        await call(url, 'GET', restriction),
        await call(url, 'GET', `/cloud/v2/universes/${U}/user-restrictions:listLogs`),
        await call(url, 'PATCH', restriction, { query, body }),
      ],
    );
    assert.equal(got[0].json.gameJoinRestriction.displayReason, 'persisted');
    assert.equal(got[1].json.logs.length, 1);
    assert.deepEqual(got[2].json, got[0].json);
  });

  it('keeps an asset create with its file and operation', async () => {
    let op = '';
    const got = await killAfter(
      dir,
      async (url) => {
        const form = new FormData();
        form.append(
          'request',
          JSON.stringify({
            assetType: 'Audio',
            displayName: 'Song',
            description: '',
            creationContext: { creator: { groupId: '9' } },
          }),
        );
        form.append('fileContent', new Blob([new Uint8Array(Buffer.from('OggS....'))], { type: 'audio/ogg' }), 'a.ogg');
        const r = await call(url, 'POST', '/assets/v1/assets', { body: form });
        op = r.json?.path;
        return r;
      },
      async (url) => [
        await call(url, 'GET', `/assets/v1/${op}`),
        await call(url, 'GET', '/assets/v1/assets/20000000001'),
      ],
    );
    assert.equal(got[0].json.done, true);
    assert.equal(got[0].json.response.assetId, '20000000001');
    assert.equal(got[1].json.displayName, 'Song');
    assert.deepEqual(got[1].json.creationContext, { creator: { groupId: '9' } });
    const blobs = fs.readdirSync(path.join(dir, 'blobs'));
    assert.equal(blobs.length, 1);
    assert.equal(fs.readFileSync(path.join(dir, 'blobs', blobs[0]), 'latin1'), 'OggS....');
  });

  it('keeps cursors valid across a restart', async () => {
    let cursor = '';
    const got = await killAfter(
      dir,
      async (url) => {
        const r = await call(url, 'GET', DS(), { query: { limit: 1 } });
        cursor = r.json.nextPageCursor;
        return r;
      },
      (url) => call(url, 'GET', DS(), { query: { limit: 1, cursor } }),
    );
    assert.equal(got.status, 200, got.text);
  });

  it('skips a torn last journal line', async () => {
    fs.appendFileSync(path.join(dir, 'journal.jsonl'), '[{"t":"ds","u":1');
    const child = await spawnCli(['--data', dir, '--port', '0']);
    try {
      assert.equal((await call(child.url, 'POST', `${ENTRY}/increment`, { query: entry('P', 'n') })).text, '43');
      assert.match(child.stderr(), /skipped unreadable line/);
    } finally {
      child.proc.kill('SIGKILL');
      await child.exited;
    }
  });
});

describe('demo seed in a data dir', () => {
  it('is loaded once, keeps changes made to it, and is not duplicated by later starts', async () => {
    const dir = tempDir();
    const keys = async (url: string) => {
      let n = 0;
      let cursor: string | undefined;
      do {
        const r = await call(url, 'GET', `${DS()}/datastore/entries`, {
          query: { datastoreName: 'PlayerData', limit: 1000, cursor },
        });
        n += r.json.keys.length;
        cursor = r.json.nextPageCursor || undefined;
      } while (cursor);
      return n;
    };
    const versions = (url: string) => call(url, 'GET', `${ENTRY}/versions`, { query: entry('Settings', 'GameConfig') });
    const got = await killAfter(
      dir,
      async (url) => {
        assert.equal(await keys(url), 0);
        return call(url, 'GET', DS());
      },
      async (url) => keys(url),
    );
    assert.equal(got, 0); // not seeded without --seed
    for (let run = 0; run < 2; run++) {
      const child = await spawnCli(['--data', dir, '--port', '0', '--seed', 'demo']);
      try {
        assert.equal(await keys(child.url), 300);
        assert.equal((await versions(child.url)).json.versions.length, 3 + run);
        const r = await call(child.url, 'POST', ENTRY, {
          query: entry('Settings', 'GameConfig'),
          body: `{"run":${run}}`,
        });
        assert.equal(r.status, 200);
      } finally {
        child.proc.kill('SIGKILL');
        await child.exited;
      }
    }
  });
});
