// What the data folder (--data) promises, on emulators run as child processes and killed with SIGKILL as a crash
// leaves them, over plain HTTP:
// - nothing acknowledged is lost and nothing refused is kept: a journal append that fails (a full disk) is answered
//   507 and cut back, so the writes around it survive kill -9; one that cannot even be cut back breaks the journal
//   (503 for that write and every later one) and the restart drops its torn tail;
// - a long history of large values stays small on disk (version retention) and restarts;
// - compaction runs in the background, and a journal of the previous format is read.
// Retention on the clock is in emulator-retention.test.ts; the lock, holders and secret in emulator-folder.test.ts.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { TestEmulator } from './support/emulator';
import {
  buildCli,
  call,
  DS,
  dsError,
  ENTRY,
  ensureGone,
  entry,
  folderBytes,
  spawnCli,
  spawnNode,
  tempDir,
  U,
  until,
  v2Error,
  type Child,
  type Reply,
} from './fixtures/emulator/harness';

const FAULTY = path.join(__dirname, 'fixtures/emulator/faulty-emulator.ts');
const DISK_FULL = "The emulator's disk is full; nothing was written. Free some space and try again.";
const START = '2024-01-15T10:00:00.000Z';
const MiB = 1024 * 1024;
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

before(async () => {
  await buildCli();
});

/** START + ms, as RFC 3339. */
const at = (ms: number): string => new Date(Date.parse(START) + ms).toISOString();
const md5 = (v: string | Buffer): string => createHash('md5').update(v).digest('base64');
const sha256 = (v: string | Buffer): string => createHash('sha256').update(v).digest('hex');

const set = (url: string, key: string, value: string | Buffer): Promise<Reply> =>
  call(url, 'POST', ENTRY, { query: entry('D', key), body: value, headers: { 'content-md5': md5(value) } });
const get = (url: string, key: string): Promise<Reply> => call(url, 'GET', ENTRY, { query: entry('D', key) });
const getVersion = (url: string, key: string, versionId: string): Promise<Reply> =>
  call(url, 'GET', `${ENTRY}/versions/version`, { query: entry('D', key, { versionId }) });
const ban = (url: string, reason: string): Promise<Reply> =>
  call(url, 'PATCH', `/cloud/v2/universes/${U}/user-restrictions/77`, {
    body: JSON.stringify({ gameJoinRestriction: { active: true, displayReason: reason } }),
  });

/** The ids of the versions of D/key listed, oldest first. */
async function versionIds(url: string, key: string): Promise<string[]> {
  const r = await call(url, 'GET', `${ENTRY}/versions`, { query: entry('D', key, { limit: 100 }) });
  assert.equal(r.status, 200, r.text);
  return r.json.versions.map((v: { version: string }) => v.version);
}

/** Moves the emulator's clock (POST /_emulator/clock, --control); returns its new time. */
async function moveClock(url: string, move: { advanceMs: number } | { set: string }): Promise<string> {
  const r = await call(url, 'POST', '/_emulator/clock', { key: null, body: JSON.stringify(move) });
  assert.equal(r.status, 200, r.text);
  return r.json.now;
}

async function kill9(child: Child): Promise<void> {
  child.proc.kill('SIGKILL');
  assert.equal((await child.exited).signal, 'SIGKILL');
}

interface JournalFact {
  t: string;
  key?: string;
}

/** The journal's facts, checking that it has no torn line: it ends with a newline and every line is JSON. */
function journalFacts(dir: string): JournalFact[] {
  const text = fs.readFileSync(path.join(dir, 'journal.jsonl'), 'utf8');
  assert.ok(text === '' || text.endsWith('\n'), `the journal ends in a torn line: …${text.slice(-60)}`);
  return text
    .split('\n')
    .slice(0, -1)
    .flatMap((line, i) => {
      try {
        return JSON.parse(line) as JournalFact[];
      } catch {
        return assert.fail(`line ${i + 1} of the journal is torn: ${line.slice(0, 60)}…`);
      }
    });
}

/** The keys of the entry versions in the journal, in order. */
const journaledKeys = (dir: string): (string | undefined)[] =>
  journalFacts(dir)
    .filter((f) => f.t === 'ds')
    .map((f) => f.key);

/**
 * faulty-emulator.ts (startEmulator from src, in a child process) on `dir`: `fail('append')` makes its next journal
 * append write half its line and fail with ENOSPC, `fail('truncate')` its next cut back fail with EIO.
 */
async function faultyEmulator(
  dir: string,
): Promise<{ child: Child; fail: (op: 'append' | 'truncate') => Promise<void> }> {
  const child = await spawnNode(['--import', 'tsx', FAULTY, dir], 'pipe');
  let sent = 0;
  const fail = async (op: 'append' | 'truncate'): Promise<void> => {
    child.proc.stdin!.write(`fail ${op}\n`);
    sent++;
    await until(() => child.stdout().split('\nok ').length > sent, 5000, `fail ${op}`);
  };
  return { child, fail };
}

describe('a journal append that fails', () => {
  it('is refused 507 and cut back: the writes before and after it survive kill -9, the refused ones are nowhere', async () => {
    const dir = tempDir();
    const big = `"${'B'.repeat(3000)}"`; // large enough for a value file, written before the journal line
    const { child, fail } = await faultyEmulator(dir);
    try {
      assert.equal((await set(child.url, 'a', '"A"')).status, 200);
      assert.equal((await set(child.url, 'k', '1')).status, 200);

      await fail('append');
      const refused = [await set(child.url, 'b', '"B"')];
      await fail('append');
      refused.push(await set(child.url, 'k', big));
      for (const r of refused) {
        dsError(r, 507, 'InsufficientStorage');
        assert.equal(r.json.message, DISK_FULL);
      }
      await fail('append');
      const refusedV2 = await ban(child.url, 'refused');
      v2Error(refusedV2, 507, 'RESOURCE_EXHAUSTED');
      assert.equal(refusedV2.json.message, DISK_FULL);
      assert.doesNotMatch(child.stderr(), /internal error/i);
      assert.ok(!fs.existsSync(path.join(dir, 'values', sha256(big))), 'the value file of the refused write is gone');

      // The next writes land on a clean line.
      assert.equal((await set(child.url, 'c', '"C"')).status, 200);
      assert.equal((await set(child.url, 'k', '3')).status, 200);
      dsError(await get(child.url, 'b'), 404, 'EntryNotFound');
      await kill9(child);
    } finally {
      await ensureGone(child);
    }
    assert.deepEqual(journaledKeys(dir), ['a', 'k', 'c', 'k']);

    const again = await spawnCli(['--data', dir, '--port', '0']);
    try {
      assert.equal((await get(again.url, 'a')).text, '"A"');
      assert.equal((await get(again.url, 'c')).text, '"C"');
      dsError(await get(again.url, 'b'), 404, 'EntryNotFound');
      assert.equal((await get(again.url, 'k')).text, '3');
      assert.equal((await versionIds(again.url, 'k')).length, 2, 'the versions 1 and 3, not the refused one');
      const restriction = await call(again.url, 'GET', `/cloud/v2/universes/${U}/user-restrictions/77`);
      assert.equal(restriction.json.gameJoinRestriction.active, false);
      assert.doesNotMatch(again.stderr(), /skipped|torn/, 'there was no torn line to cut off');
    } finally {
      await ensureGone(again);
    }
  });

  it('that cannot be cut back breaks the journal: it and every later write get 503, and a restart loses nothing acknowledged', async () => {
    const dir = tempDir();
    const journal = path.join(dir, 'journal.jsonl');
    const { child, fail } = await faultyEmulator(dir);
    try {
      assert.equal((await set(child.url, 'a', '"A"')).status, 200);
      const size = fs.statSync(journal).size;
      await fail('append');
      await fail('truncate');
      const broken = await set(child.url, 'b', '"B"');
      dsError(broken, 503, 'Unavailable');
      assert.match(broken.json.message, /could not be repaired.*nothing was written.*Restart/);
      // No fault armed any more: the journal itself refuses.
      dsError(await set(child.url, 'c', '"C"'), 503, 'Unavailable');
      v2Error(await ban(child.url, 'refused too'), 503, 'UNAVAILABLE');
      assert.doesNotMatch(child.stderr(), /internal error/i);
      assert.equal((await get(child.url, 'a')).text, '"A"', 'reads go on');
      dsError(await get(child.url, 'b'), 404, 'EntryNotFound');
      assert.ok(fs.statSync(journal).size > size, 'the half line is still in the journal');
      await kill9(child);
    } finally {
      await ensureGone(child);
    }

    const again = await spawnCli(['--data', dir, '--port', '0']);
    try {
      assert.match(again.stderr(), /torn at the end\); it is cut off/);
      assert.equal((await get(again.url, 'a')).text, '"A"');
      dsError(await get(again.url, 'b'), 404, 'EntryNotFound');
      dsError(await get(again.url, 'c'), 404, 'EntryNotFound');
      assert.equal((await set(again.url, 'd', '"D"')).status, 200, 'the restarted emulator takes writes again');
      assert.deepEqual(journaledKeys(dir), ['a', 'd']);
    } finally {
      await ensureGone(again);
    }
  });

  it('on a really full disk (a small tmpfs, when this process may mount one) is refused and cut back', async (t) => {
    const mount = tempDir();
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mount], { stdio: 'ignore' });
    } catch {
      return t.skip('this process cannot mount a tmpfs; the injected failures above cover the same code');
    }
    const dir = path.join(mount, 'data');
    const journal = path.join(dir, 'journal.jsonl');
    const filler = path.join(mount, 'filler');
    let child: Child | undefined;
    try {
      child = await spawnCli(['--data', dir, '--port', '0']);
      assert.equal((await set(child.url, 'k', '"kept"')).status, 200);
      fill(filler);
      // Small writes until the journal's last page has less room than the next line needs: that line is written
      // in part, then the disk is full.
      const PAGE = 4096;
      for (let i = 0; PAGE - (fs.statSync(journal).size % PAGE) >= 1200; i++)
        assert.equal((await set(child.url, `pad${i}`, '1')).status, 200);
      const size = fs.statSync(journal).size;
      const refused = [await set(child.url, 'k', `"${'b'.repeat(998)}"`)];
      assert.equal(fs.statSync(journal).size, size, 'nothing of the refused line is left');
      refused.push(await set(child.url, 'k', `"${'b'.repeat(4 * MiB - 2)}"`)); // its value file does not fit
      for (const r of refused) {
        dsError(r, 507, 'InsufficientStorage');
        assert.equal(r.json.message, DISK_FULL);
      }
      assert.deepEqual(fs.readdirSync(path.join(dir, 'values')), [], 'no part of the value file is left');
      fs.rmSync(filler);
      assert.equal((await set(child.url, 'after', '"space is back"')).status, 200);
      await kill9(child);
      journalFacts(dir);

      child = await spawnCli(['--data', dir, '--port', '0']);
      assert.equal((await get(child.url, 'k')).text, '"kept"');
      assert.equal((await versionIds(child.url, 'k')).length, 1);
      assert.equal((await get(child.url, 'after')).text, '"space is back"');
      assert.doesNotMatch(child.stderr(), /skipped|torn/);
    } finally {
      if (child) await ensureGone(child);
      execFileSync('umount', ['-l', mount]);
    }
  });
});

/** Writes to `file` until the file system is full. */
function fill(file: string): void {
  const fd = fs.openSync(file, 'w');
  try {
    for (const size of [64 * 1024, 4096, 1]) {
      const chunk = Buffer.alloc(size);
      for (;;) {
        try {
          fs.writeSync(fd, chunk);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
          break;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

describe('a big history', () => {
  it('140 writes of 4 MiB to one key keep the last write of each hour, stay small on disk and restart after kill -9', async (t) => {
    const dir = tempDir();
    const began = Date.now();
    // Every value different throughout, JSON, just under the 4 MiB limit.
    const value = (): Buffer => Buffer.from(`"${randomBytes(3 * MiB - 3).toString('base64')}"`);
    const sums: string[] = [];
    let last: Buffer = Buffer.alloc(0);
    let written = 0;
    let peak = 0;
    let kept: string[];
    let child = await spawnCli(['--data', dir, '--port', '0', '--clock', START, '--control']);
    try {
      // 20 writes in each of 7 hours, 3 hours apart.
      for (let i = 0; i < 140; i++) {
        last = value();
        const r = await set(child.url, 'big', last);
        assert.equal(r.status, 200, r.text);
        sums.push(md5(last));
        written += last.length;
        if (i % 20 === 19) {
          peak = Math.max(peak, folderBytes(dir));
          await moveClock(child.url, { advanceMs: 3 * HOUR });
        }
      }
      kept = await versionIds(child.url, 'big');
      assert.equal(kept.length, 7, 'the last write of each hour');
      await kill9(child);
    } finally {
      await ensureGone(child);
    }
    const wrote = Date.now() - began;
    // At most the hour's 20 values and one of each earlier hour: thinned versions' files are removed at once.
    assert.ok(peak < 27 * 4 * MiB, `the folder held ${peak} bytes`);

    child = await spawnCli(['--data', dir, '--port', '0', '--clock', at(21 * HOUR)]);
    try {
      const latest = await get(child.url, 'big');
      assert.equal(latest.status, 200);
      assert.equal(latest.headers.get('content-md5'), sums[139]);
      assert.ok(Buffer.from(latest.text).equals(last), 'the latest value, byte for byte');
      assert.deepEqual(await versionIds(child.url, 'big'), kept);
      const oldest = await getVersion(child.url, 'big', kept[0]);
      assert.equal(oldest.headers.get('content-md5'), sums[19], 'an older kept version is read from its file');
      const size = folderBytes(dir);
      assert.ok(size < written, `the folder holds ${size} bytes after ${written} were written`);
      assert.ok(size < 8 * 4 * MiB, `the folder holds ${size} bytes for 7 kept values`);
      t.diagnostic(`140 writes of 4 MiB in ${wrote} ms, the folder at most ${peak} bytes, ${size} after the restart`);
    } finally {
      await ensureGone(child);
    }
  });
});

describe('compaction', () => {
  it('runs in the background on a large journal and keeps every write made meanwhile, thinning included', async () => {
    const dir = tempDir();
    const journal = path.join(dir, 'journal.jsonl');
    // A journal of 80,000 keys written an hour before the clock's start (the format of journal.ts).
    const written = Date.parse('2024-01-15T09:00:00Z');
    const lines: string[] = [];
    for (let i = 1; i <= 80_000; i++) {
      const key = `k${String(i).padStart(6, '0')}`;
      lines.push(
        JSON.stringify([
          {
            t: 'ds',
            u: U,
            store: 'D',
            scope: 'global',
            key,
            seq: i,
            at: written,
            deleted: false,
            uids: '[]',
            value: Buffer.from(String(i)).toString('base64'),
          },
        ]),
      );
    }
    fs.writeFileSync(journal, lines.join('\n') + '\n');
    const before = fs.statSync(journal).ino;
    const emulator = await TestEmulator.start({ dataDir: dir, clock: START });
    const expected = new Map<string, string>();
    let overlapped = false;
    try {
      for (let round = 0; round < 3; round++) {
        await Promise.all(
          [1, 2, 40_000, 79_999].map(async (i) => {
            const key = `k${String(i).padStart(6, '0')}`;
            assert.equal((await set(emulator.url, key, `"r${round}"`)).status, 200);
            expected.set(key, `"r${round}"`);
          }),
        );
        assert.equal((await set(emulator.url, `new${round}`, String(round))).status, 200);
        expected.set(`new${round}`, String(round));
        overlapped ||= fs.existsSync(`${journal}.tmp`);
      }
      assert.equal((await call(emulator.url, 'DELETE', ENTRY, { query: entry('D', 'k000003') })).status, 204);
      expected.set('k000003', '');
      await emulator.advanceClock(2 * HOUR); // thins the rounds of the hour just gone down to their last
      overlapped ||= fs.existsSync(`${journal}.tmp`);
      assert.ok(overlapped, 'the writes were made while the journal was being compacted');
      await until(() => fs.statSync(journal).ino !== before && !fs.existsSync(`${journal}.tmp`), 20_000, 'compaction');
    } finally {
      await emulator.close();
    }
    const again = await TestEmulator.start({ dataDir: dir, clock: at(2 * HOUR) });
    try {
      for (const [key, value] of expected) {
        const r = await get(again.url, key);
        if (value === '') assert.equal(r.status, 404, key);
        else assert.equal(r.text, value, key);
      }
      assert.equal((await versionIds(again.url, 'k000001')).length, 2, 'the first, and the last of the hour after');
      const deleted = await call(again.url, 'GET', `${ENTRY}/versions`, { query: entry('D', 'k000003') });
      assert.deepEqual(
        deleted.json.versions.map((v: { deleted: boolean }) => v.deleted),
        [false, true],
      );
      assert.equal((await get(again.url, 'k050000')).text, '50000');
      const listed = await call(again.url, 'GET', `${DS()}/datastore/entries`, {
        query: { datastoreName: 'D', limit: 1000, prefix: 'new' },
      });
      assert.deepEqual(
        listed.json.keys.map((k: { key: string }) => k.key),
        ['new0', 'new1', 'new2'],
      );
    } finally {
      await again.close();
    }
  });
});

describe('a data folder of the previous format', () => {
  it('is read as it is (every value inline), its large values moving to files', async () => {
    const dir = tempDir();
    const big = (c: string) => `"${c.repeat(3000)}"`;
    const version = (seq: number, value: string) => ({
      t: 'ds',
      u: U,
      store: 'D',
      scope: 'global',
      key: 'old',
      seq,
      at: Date.parse(START) + seq * HOUR,
      deleted: false,
      uids: '[]',
      value: Buffer.from(value).toString('base64'),
    });
    fs.writeFileSync(
      path.join(dir, 'journal.jsonl'),
      [[version(1, big('a'))], [version(2, big('b'))], [version(3, '"small"')]]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n',
    );
    const emulator = await TestEmulator.start({ dataDir: dir, clock: at(10 * HOUR) });
    try {
      assert.equal((await get(emulator.url, 'old')).text, '"small"');
      const all = await versionIds(emulator.url, 'old');
      assert.equal((await getVersion(emulator.url, 'old', all[0])).text, big('a'));
      assert.equal(fs.readdirSync(path.join(dir, 'values')).length, 2);
      assert.ok(fs.statSync(path.join(dir, 'journal.jsonl')).size < 2000, 'the journal names the files');
    } finally {
      await emulator.close();
    }
  });
});
