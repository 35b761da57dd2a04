// One emulator per data folder (emulator.lock), stale locks taken over, --exit-unheld with holder files, and the
// cursor secret kept whole: the built CLI as child processes, as the extension runs it.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { startEmulator } from '../../src/emulator/server';
import {
  buildCli,
  runCli,
  call,
  deadPid,
  DS,
  ENTRY,
  ensureGone,
  entry,
  exitWithin,
  spawnCli,
  tempDir,
  type Child,
} from './fixtures/emulator/harness';

// Built once, before the first test's time starts.
before(() => buildCli());

const lockOf = (dir: string): { pid: number; url?: string } =>
  JSON.parse(fs.readFileSync(path.join(dir, 'emulator.lock'), 'utf8'));
const set = (url: string, key: string, value: number) =>
  call(url, 'POST', ENTRY, { query: entry('F', key), body: String(value) });
const get = async (url: string, key: string) => (await call(url, 'GET', ENTRY, { query: entry('F', key) })).text;

async function stop(child: Child): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  child.proc.kill('SIGTERM');
  return child.exited;
}

describe('the data folder lock', () => {
  it('holds the pid and url; a second emulator refuses with exit code 3 and one line, and the first keeps every write', async () => {
    const dir = tempDir();
    const first = await spawnCli(['--data', dir, '--port', '0']);
    try {
      assert.deepEqual(lockOf(dir), { pid: first.proc.pid, url: first.url });
      assert.equal((await set(first.url, 'before', 1)).status, 200);
      const second = await runCli(['--data', dir, '--port', '0']);
      assert.equal(second.code, 3);
      assert.equal(second.stdout, '');
      assert.equal(
        second.stderr,
        `emulator: the data folder ${dir} is in use by the emulator with pid ${first.proc.pid} (${first.url})\n`,
      );
      await assert.rejects(startEmulator({ port: 0, dataDir: dir }), {
        message: `the data folder ${dir} is in use by the emulator with pid ${first.proc.pid} (${first.url})`,
      });
      for (let i = 0; i < 20; i++) assert.equal((await set(first.url, `after${i}`, i)).status, 200);
      assert.deepEqual(lockOf(dir), { pid: first.proc.pid, url: first.url }, 'the lock is still the first one');
    } finally {
      assert.deepEqual(await stop(first), { code: 0, signal: null });
    }
    assert.ok(!fs.existsSync(path.join(dir, 'emulator.lock')), 'removed on a clean stop');
    const again = await spawnCli(['--data', dir, '--port', '0']);
    try {
      assert.equal(await get(again.url, 'before'), '1');
      for (let i = 0; i < 20; i++) assert.equal(await get(again.url, `after${i}`), String(i));
    } finally {
      await stop(again);
    }
  });

  it('is taken over when its pid is not alive, or when it stays unreadable', async () => {
    for (const content of [async () => JSON.stringify({ pid: await deadPid(), url: 'http://127.0.0.1:1' }), '']) {
      const dir = tempDir();
      const stale = typeof content === 'string' ? content : await content();
      fs.writeFileSync(path.join(dir, 'emulator.lock'), stale);
      const child = await spawnCli(['--data', dir, '--port', '0']);
      try {
        assert.match(child.stderr(), /took over the data folder/);
        assert.deepEqual(lockOf(dir), { pid: child.proc.pid, url: child.url });
        assert.equal((await call(child.url, 'GET', DS())).status, 200);
      } finally {
        await stop(child);
      }
    }
  });

  it('is taken by only one of several emulators started together on a stale lock', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'emulator.lock'), JSON.stringify({ pid: await deadPid() }));
    const tries = [0, 1, 2, 3].map(() => spawnCli(['--data', dir, '--port', '0']));
    const results = await Promise.allSettled(tries);
    const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    try {
      assert.equal(started.length, 1);
      assert.deepEqual(lockOf(dir), { pid: started[0].proc.pid, url: started[0].url });
      for (const r of results)
        if (r.status === 'rejected') assert.match(String(r.reason), /exited \(3\).*is in use by the emulator with pid/);
    } finally {
      for (const child of started) await stop(child);
    }
  });
});

describe('--exit-unheld', { concurrency: true }, () => {
  const holder = (dir: string, pid: number) => path.join(dir, 'holders', String(pid));

  it('waits for its first holder, runs while a live process holds it, and stops cleanly 5 s after the last let go', async () => {
    const dir = tempDir();
    const child = await spawnCli(['--data', dir, '--port', '0', '--exit-unheld']);
    try {
      assert.equal(await exitWithin(child, 6500), undefined, 'no holder yet: the grace period after the start');
      fs.writeFileSync(holder(dir, process.pid), '');
      assert.equal(await exitWithin(child, 6500), undefined, 'held by this live process');
      assert.equal((await call(child.url, 'GET', DS())).status, 200);
      const letGo = Date.now();
      fs.rmSync(holder(dir, process.pid));
      assert.deepEqual(await exitWithin(child, 10_000), { code: 0, signal: null });
      assert.ok(Date.now() - letGo >= 4500, 'not before 5 s');
      assert.ok(!fs.existsSync(path.join(dir, 'emulator.lock')));
    } finally {
      await ensureGone(child);
    }
  });

  it('stops once its holder process has ended, and removes that holder file', async () => {
    const dir = tempDir();
    const shortLived = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 1500)']);
    const ended = new Promise((resolve) => shortLived.on('exit', resolve));
    fs.mkdirSync(path.join(dir, 'holders'));
    fs.writeFileSync(holder(dir, shortLived.pid!), '');
    const child = await spawnCli(['--data', dir, '--port', '0', '--exit-unheld']);
    try {
      await ended;
      assert.deepEqual(await exitWithin(child, 15_000), { code: 0, signal: null }, 'well before the 30 s grace period');
      assert.ok(!fs.existsSync(holder(dir, shortLived.pid!)));
    } finally {
      await ensureGone(child);
    }
  });
});

describe('the cursor secret', () => {
  it('is replaced whole (a new file renamed into place, readable by this user only), never rewritten in place', async () => {
    const dir = tempDir();
    const secret = path.join(dir, 'secret');
    // Half a secret, as a crash in the middle of an in-place write would leave, seen through a second name.
    fs.writeFileSync(secret, '0123abcd', { mode: 0o644 });
    fs.linkSync(secret, path.join(dir, 'old-secret'));
    const child = await spawnCli(['--data', dir, '--port', '0']);
    await stop(child);
    assert.match(fs.readFileSync(secret, 'utf8'), /^[0-9a-f]{64}$/);
    assert.equal(fs.statSync(secret).mode & 0o777, 0o600);
    assert.equal(fs.readFileSync(path.join(dir, 'old-secret'), 'utf8'), '0123abcd', 'the old file was not written');
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => f.includes('tmp')),
      [],
    );
  });

  it('survives a restart: saved cursors still verify', async () => {
    const dir = tempDir();
    let child = await spawnCli(['--data', dir, '--port', '0']);
    let cursor: string;
    try {
      for (const name of ['A', 'B'])
        await call(child.url, 'POST', ENTRY, { query: { datastoreName: name, entryKey: 'k' }, body: '1' });
      cursor = (await call(child.url, 'GET', DS(), { query: { limit: 1 } })).json.nextPageCursor;
      assert.ok(cursor);
    } finally {
      child.proc.kill('SIGKILL');
      await child.exited;
    }
    child = await spawnCli(['--data', dir, '--port', '0']);
    try {
      const next = await call(child.url, 'GET', DS(), { query: { limit: 1, cursor } });
      assert.equal(next.status, 200, next.text);
      assert.deepEqual(
        next.json.datastores.map((d: { name: string }) => d.name),
        ['B'],
      );
    } finally {
      await stop(child);
    }
  });
});

describe('--data', () => {
  it('refuses an empty folder name, on the command line and in process', async () => {
    const r = await runCli(['--data', '', '--port', '0']);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, 'emulator: --data: the folder name is empty (see --help)\n');
    await assert.rejects(startEmulator({ port: 0, dataDir: '' }), /dataDir is empty/);
  });
});
