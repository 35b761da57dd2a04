// The command-line contract of dist/emulator.js (design.md), on a bundle built the same way.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { buildCli, call, DS, gatewayError, spawnCli, tempDir } from './fixtures/emulator/harness';

let cli = '';
before(async () => {
  cli = await buildCli();
});

/** Runs the CLI to its end. */
function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [cli, ...args]);
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('emulator CLI', () => {
  it('prints the ready line, hints at the sandbox key on stderr, and stops with exit 0 on SIGTERM and SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const child = await spawnCli(['--port', '0']);
      assert.match(child.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.match(child.stderr(), /sandbox/);
      assert.equal((await call(child.url, 'GET', DS())).status, 200);
      child.proc.kill(signal);
      assert.deepEqual(await child.exited, { code: 0, signal: null });
    }
  });

  it('exits non-zero with a one-line reason on a bad flag', async () => {
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
        [['--control=yes'], /takes no value/],
        [['--config', '/nonexistent.json'], /--config: cannot read/],
        [['--entry-header-prefix', 'bad prefix', '--port', '0'], /entryHeaderPrefix/],
        [['--port', port], /EADDRINUSE/],
      ] as const) {
        const r = await run([...args]);
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
    const r = await run(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /--rate-limit-scale/);
    assert.match(r.stdout, /--rate-limit-window-scale/);
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
