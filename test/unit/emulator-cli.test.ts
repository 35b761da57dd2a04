// The command-line contract of dist/emulator.js (docs/ARCHITECTURE.md), on a bundle built the same way.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import {
  buildCli,
  runCli,
  call,
  DS,
  ENTRY,
  ensureGone,
  entry,
  exitWithin,
  gatewayError,
  spawnCli,
  tempDir,
  until,
} from './fixtures/emulator/harness';

let cli = '';
before(async () => {
  cli = await buildCli();
});

describe('emulator CLI', () => {
  it('prints the ready line, hints at the sandbox key on stderr, and stops with exit 0 on SIGTERM and SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const child = await spawnCli(['--port', '0']);
      assert.match(child.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      await until(() => /sandbox/.test(child.stderr()), 5000, 'the sandbox key hint');
      assert.equal((await call(child.url, 'GET', DS())).status, 200);
      child.proc.kill(signal);
      assert.deepEqual(await child.exited, { code: 0, signal: null });
    }
  });

  it('exits non-zero with a one-line reason on a bad flag', async () => {
    const dir = tempDir();
    const taken = await spawnCli(['--port', '0']);
    const port = new URL(taken.url).port;
    try {
      for (const [args, reason] of [
        [['--bogus'], /unknown option --bogus/],
        [['--port'], /--port needs a value/],
        [['--port', 'abc'], /--port: invalid value/],
        [['--port', '70000'], /--port: invalid value/],
        [['--seed', 'other'], /unknown seed/],
        [['--rate-limit-scale', '0'], /--rate-limit-scale: invalid value/],
        [['--rate-limit-window-scale', '-2'], /--rate-limit-window-scale: invalid value/],
        [['--rate-limit-window-scale', 'Infinity'], /--rate-limit-window-scale: invalid value/],
        [['--operation-delay', '-1'], /--operation-delay: invalid value/],
        [['--concurrent-users', '-1'], /--concurrent-users: invalid value/],
        [['--concurrent-users', '2.5'], /--concurrent-users: invalid value/],
        [['--etag-mismatch-status', '418'], /--etag-mismatch-status: invalid value/],
        [['--control=yes'], /takes no value/],
        [['--data', ''], /--data: the folder name is empty/],
        [['--data='], /--data: the folder name is empty/],
        [['--exit-unheld'], /--exit-unheld needs --data/],
        [['--exit-unheld=1', '--data', dir], /takes no value/],
        [['--clock', 'yesterday'], /--clock: invalid time/],
        [['--clock', '2024-01-15T10:00:00'], /--clock: invalid time/],
        [['--config', '/nonexistent.json'], /--config: cannot read/],
        [['--entry-header-prefix', 'bad prefix', '--port', '0'], /entryHeaderPrefix/],
        [['--port', port], /EADDRINUSE/],
      ] as const) {
        const r = await runCli([...args]);
        assert.notEqual(r.code, 0, args.join(' '));
        assert.equal(r.stdout, '');
        const lines = r.stderr.trim().split('\n');
        assert.match(lines[lines.length - 1], reason);
      }
    } finally {
      taken.proc.kill('SIGTERM');
      await taken.exited;
    }
  });

  it('prints help', async () => {
    const r = await runCli(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /--rate-limit-scale/);
    assert.match(r.stdout, /--rate-limit-window-scale/);
    assert.match(r.stdout, /--exit-unheld/);
    assert.match(r.stdout, /--clock <time>/);
  });

  it('starts its clock at --clock', async () => {
    const child = await spawnCli(['--port', '0', '--clock', '2024-01-15T10:00:00Z']);
    try {
      const r = await call(child.url, 'POST', ENTRY, { query: entry('C', 'k'), body: '1' });
      assert.match(r.json.createdTime, /^2024-01-15T10:00/);
    } finally {
      child.proc.kill('SIGTERM');
      await child.exited;
    }
  });

  it('keeps serving when the reader of its output goes away (EPIPE), and stops cleanly', async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'holders'));
    fs.writeFileSync(path.join(dir, 'holders', String(process.pid)), '');
    const child = await spawnCli(['--port', '0', '--data', dir, '--exit-unheld']);
    try {
      child.proc.stdout!.destroy();
      child.proc.stderr!.destroy();
      // A holder file of a process that is not running: the emulator removes it and says so on stderr.
      const dead = path.join(dir, 'holders', '999999999');
      fs.writeFileSync(dead, '');
      await until(() => !fs.existsSync(dead), 5000, 'the dead holder file to go');
      await new Promise((r) => setTimeout(r, 200));
      assert.equal((await call(child.url, 'GET', DS())).status, 200);
      child.proc.kill('SIGTERM');
      assert.deepEqual(await exitWithin(child, 10_000), { code: 0, signal: null });
    } finally {
      await ensureGone(child);
    }
  });

  it('takes API keys from --api-key and --config, and the other options', async () => {
    const dir = tempDir();
    const config = path.join(dir, 'keys.json');
    fs.writeFileSync(config, JSON.stringify({ apiKeys: [{ key: 'limited', scopes: ['asset:read'], universes: [5] }] }));
    const child = await spawnCli([
      '--port=0',
      '--host',
      '127.0.0.1',
      '--api-key',
      'one',
      '--config',
      config,
      '--entry-header-prefix',
      'acme',
      '--seed',
      'demo',
      '--rate-limits',
      '--rate-limit-scale',
      '2',
      '--rate-limit-window-scale',
      '0.5',
      '--operation-delay',
      '10',
      '--control',
    ]);
    try {
      assert.doesNotMatch(child.stderr(), /sandbox/);
      gatewayError(await call(child.url, 'GET', DS(), { key: 'sandbox' }), 401);
      const r = await call(child.url, 'GET', `${DS()}/datastore/entries/entry`, {
        key: 'one',
        query: { datastoreName: 'Settings', entryKey: 'GameConfig' },
      });
      assert.equal(r.status, 200);
      assert.ok(r.headers.get('acme-entry-version'));
      assert.equal(r.headers.get('x-ratelimit-limit'), '600, 600;w=30');
      assert.equal((await call(child.url, 'GET', DS(5), { key: 'limited' })).status, 403);
      assert.equal((await call(child.url, 'GET', '/_emulator/requests', { key: null })).status, 200);
    } finally {
      child.proc.kill('SIGTERM');
      await child.exited;
    }
  });

  it('exports startEmulator without running the CLI when required', async () => {
    const mod = require(cli) as typeof import('../../src/emulator/cli');
    const emu = await mod.startEmulator({ port: 0 });
    try {
      assert.equal((await call(emu.url, 'GET', DS())).status, 200);
    } finally {
      await emu.close();
    }
  });
});
