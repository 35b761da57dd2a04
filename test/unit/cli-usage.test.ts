// The command line's rules, on the bundle as it ships (dist/cli.js): help for the program and every command, usage
// errors (exit 2) in one line, the API key only from UE_API_KEY or a file and never in anything written, exit 1 for
// a failure, and no progress on a stderr that is not a terminal.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { COMMANDS } from '../../src/cli/main';
import { API_KEY } from './support/client';
import { buildCli, cli, CLI_KEY } from './support/cli';
import { sharedEmulator, TestEmulator } from './support/emulator';

const U = '4242';
const shared = sharedEmulator({ apiKeys: [{ key: CLI_KEY }, { key: API_KEY }] });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-cli-usage-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = (name: string) => path.join(dir, name);
const connection = () => ['--base-url', shared.emulator.url, '--universe', U];

/** One line on stderr naming the command, and nothing on stdout. */
function usageError(r: { code: number | null; stdout: string; stderr: string }, command: string, text: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
  assert.ok(r.stderr.startsWith(command ? `universe-explorer ${command}: ` : 'universe-explorer: '), r.stderr);
  assert.match(r.stderr, text);
}

/** Runs a program to its end, with UE_API_KEY set to the key; its stdout and stderr together. */
function run(program: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      env: { ...process.env, UE_API_KEY: CLI_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function seed(store: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await shared.client.datastores.setEntry({ universeId: U, datastoreName: store, entryKey: `k${i}`, value: { i } });
  }
}

describe('universe-explorer: help', () => {
  before(() => cli(['--help'])); // builds the bundle once, outside the first test's time

  it('--help lists every command, the connection, the key rules and the exit codes', async () => {
    const r = await cli(['--help']);
    assert.equal(r.code, 0);
    assert.equal(r.stderr, '');
    for (const c of COMMANDS) assert.match(r.stdout, new RegExp(`^ {2}${c.name} +\\S`, 'm'), c.name);
    assert.match(r.stdout, /^ {2}emulator +\S/m);
    assert.match(r.stdout, /UE_API_KEY/);
    assert.match(r.stdout, /--api-key is refused/);
    assert.match(r.stdout, /Exit codes: 0 done, 1 failed, 2 usage .*\n3 partly done/);
  });

  it('every command has its --help: usage, options, the --json shape and the exit codes', async () => {
    for (const c of COMMANDS) {
      for (const args of [
        [...c.name.split(' '), '--help'],
        ['help', ...c.name.split(' ')],
      ]) {
        const r = await cli(args);
        assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
        assert.ok(r.stdout.startsWith(`Usage: universe-explorer ${c.name} `), r.stdout);
        if (c.json === undefined) assert.doesNotMatch(r.stdout, /--json/, c.name);
        else
          assert.match(
            r.stdout,
            new RegExp(`With --json, stdout holds one JSON object:\\n {2}[^\\n]*\\{"command":"${c.name}`),
          );
        assert.match(r.stdout, /Exit codes: 0 done, 1 failed, 2 usage/);
      }
    }
    const emulator = await cli(['emulator', '--help']);
    assert.equal(emulator.code, 0);
    assert.match(emulator.stdout, /^Usage: universe-explorer emulator \[options\]/);
  });

  it('no command, an unknown command or an unknown option is a usage error (exit 2)', async () => {
    const none = await cli([]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^Usage: universe-explorer <command>/);
    usageError(await cli(['exprot']), '', /unknown command "exprot": use one of export, import/);
    usageError(await cli(['bans', 'kick']), 'bans', /unknown command "kick": use one of bans list, bans ban/);
    usageError(await cli(['export', ...connection(), '--stor', 'A']), 'export', /unknown option --stor/);
    usageError(await cli(['export', ...connection(), '--store']), 'export', /--store <value>' argument missing/);
    usageError(await cli(['compare', ...connection(), '--store', 'A', 'extra']), 'compare', /unexpected argument/);
    const json = await cli(['export', '--universe', 'abc', '--store', 'A', '--out', file('x.ndjson'), '--json']);
    assert.equal(json.code, 2);
    assert.deepEqual(json.json(), {
      command: 'export',
      exitCode: 2,
      error: { kind: 'usage', message: '--universe: "abc" is not a universe id (a number, e.g. 123456)' },
    });
  });
});

describe('universe-explorer: the API key', () => {
  it('--api-key and --api-key=… are refused (exit 2) without repeating the value, even with --help', async () => {
    const secret = 'flag-given-SECRET-0xC0FFEE';
    for (const args of [
      ['export', '--api-key', secret, ...connection(), '--store', 'A', '--out', file('a.ndjson')],
      ['export', ...connection(), `--api-key=${secret}`, '--store', 'A', '--out', file('a.ndjson')],
      ['bans', 'list', '--help', '--api-key', secret],
      ['index', 'query', '--universe', U, '--api-key', secret, 'SELECT 1'],
    ]) {
      const r = await cli(args);
      usageError(r, args[0] === 'export' ? 'export' : `${args[0]} ${args[1]}`, /--api-key is refused: .*UE_API_KEY/);
      assert.ok(!(r.stdout + r.stderr).includes(secret.slice(0, 8)), r.stderr);
    }
    const json = await cli(['bans', 'list', ...connection(), '--api-key', secret, '--json']);
    assert.equal(json.code, 2);
    assert.equal((json.json().error as { kind: string }).kind, 'usage');
    assert.ok(!json.stdout.includes(secret.slice(0, 8)));
    assert.ok(!fs.existsSync(file('a.ndjson')), 'nothing ran');
  });

  it('a key typed by mistake as the value of another option is hidden in the usage error', async () => {
    const r = await cli(['export', '--universe', CLI_KEY, '--store', 'A', '--out', file('a.ndjson'), '--json']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^universe-explorer export: --universe: "\*\*\*" is not a universe id/);
    assert.match(JSON.stringify(r.json()), /--universe: \\"\*\*\*\\" is not a universe id/);
  });

  it('no key at all is a usage error that says where a key comes from', async () => {
    usageError(
      await cli(['bans', 'list', ...connection()], { UE_API_KEY: undefined }),
      'bans list',
      /no API key: set the UE_API_KEY environment variable, or name a file holding the key with --api-key-file/,
    );
  });

  it('--api-key-file is read (and wins over UE_API_KEY); a missing or empty file is a usage error', async () => {
    fs.writeFileSync(file('key.txt'), `${CLI_KEY}\n`);
    const r = await cli(['bans', 'list', ...connection(), '--api-key-file', file('key.txt'), '--json'], {
      UE_API_KEY: 'not-the-key',
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json(), { command: 'bans list', exitCode: 0, universe: U, restrictions: [] });
    usageError(
      await cli(['bans', 'list', ...connection(), '--api-key-file', file('nope.txt')]),
      'bans list',
      /cannot read the API key file .*nope\.txt \(ENOENT\): check the path given to --api-key-file/,
    );
    fs.writeFileSync(file('empty.txt'), '\n');
    usageError(
      await cli(['bans', 'list', ...connection(), '--api-key-file', file('empty.txt')]),
      'bans list',
      /the API key file .*empty\.txt is empty/,
    );
  });

  it('a key the service refuses fails with exit 1 and what to check, never showing the key, even with --debug', async () => {
    const wrong = 'wrong-KEY-given-7d1e2f3a';
    for (const debug of [[], ['--debug']]) {
      const r = await cli(['bans', 'list', ...connection(), ...debug], { UE_API_KEY: wrong });
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      assert.match(
        r.stderr,
        /^universe-explorer bans list: cannot list the bans of universe 4242: .*\(401.*check the API key/,
      );
      assert.ok(!r.stderr.includes(wrong.slice(0, 8)), r.stderr);
      if (debug.length) assert.match(r.stderr, /\n\s+at /, 'the stack with --debug');
      else assert.equal(r.stderr.trimEnd().split('\n').length, 1, 'one line without --debug');
    }
  });

  it('a service answer that echoes the key shows it hidden, in the line and in the --debug stack', async () => {
    await shared.emulator.fault({
      path: '/user-restrictions',
      status: 400,
      body: JSON.stringify({
        code: 'INVALID_ARGUMENT',
        message: `bad key ${CLI_KEY} (${encodeURIComponent(CLI_KEY)})`,
      }),
      times: 5,
    });
    const r = await cli(['bans', 'list', ...connection(), '--debug', '--json']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /bad key \*\*\*/);
    assert.match(r.json().error ? JSON.stringify(r.json().error) : '', /bad key \*\*\*/);
  });
});

describe('universe-explorer: the connection', () => {
  it('--entry-header-prefix reads a service that sends other entry headers; a bad one is a usage error', async () => {
    const acme = await TestEmulator.start({ apiKeys: [{ key: CLI_KEY }], entryHeaderPrefix: 'acme' });
    try {
      fs.writeFileSync(file('one.ndjson'), '{"scope":"global","key":"a","value":1,"attributes":{},"userIds":[]}\n');
      const at = ['--base-url', acme.url, '--universe', U];
      assert.equal((await cli(['import', ...at, '--store', 'S', file('one.ndjson'), '--apply'])).code, 0);
      const out = file('acme.ndjson');
      const plain = await cli(['export', ...at, '--store', 'S', '--out', out, '--json']);
      assert.equal(plain.code, 3, 'the entry cannot be read without its version header');
      const prefixed = await cli([
        'export',
        ...at,
        '--entry-header-prefix',
        'acme',
        '--store',
        'S',
        '--out',
        out,
        '--json',
      ]);
      assert.equal(prefixed.code, 0, prefixed.stderr);
      assert.deepEqual([prefixed.json().exported, prefixed.json().failed], [1, 0]);
    } finally {
      await acme.close();
    }
    usageError(
      await cli(['export', ...connection(), '--entry-header-prefix', 'ac-me', '--store', 'S', '--out', file('x')]),
      'export',
      /--entry-header-prefix: "ac-me" is not a word of letters and digits/,
    );
  });

  it('a plain http:// address on another machine is refused before the key is sent (exit 2)', async () => {
    usageError(
      await cli(['bans', 'list', '--base-url', 'http://example.invalid', '--universe', U]),
      'bans list',
      /Refusing to send the API key to http:\/\/example\.invalid: .*unencrypted/,
    );
    usageError(
      await cli(['bans', 'list', '--base-url', 'not a url', '--universe', U]),
      'bans list',
      /--base-url: "not a url" is not an address/,
    );
  });
});

describe('universe-explorer: output', () => {
  it('writes no progress when stderr is not a terminal, and one JSON object with --json', async () => {
    await seed('Quiet', 30);
    const human = await cli(['export', ...connection(), '--store', 'Quiet', '--out', file('q.ndjson')]);
    assert.equal(human.code, 0, human.stderr);
    assert.equal(human.stderr, '');
    assert.equal(
      human.stdout,
      `Exported 30 entries of Quiet (scope global) of universe ${U} to ${file('q.ndjson')}.\n`,
    );
    const json = await cli(['export', ...connection(), '--store', 'Quiet', '--out', file('q2.ndjson'), '--json']);
    assert.equal(json.stderr, '');
    assert.equal(json.json().exported, 30);
  });

  it('on a terminal, progress goes to stderr and is cleared; stdout keeps only the JSON', async () => {
    await seed('Loud', 30);
    const json = file('loud.json');
    // script(1) runs the command on a pseudo-terminal: its stderr is a TTY, its stdout the file, and what reaches
    // the terminal comes back as script's own output.
    const command = [process.execPath, await buildCli(), 'export', ...connection(), '--store', 'Loud']
      .concat(['--out', file('loud.ndjson'), '--json'])
      .map((a) => `'${a}'`)
      .join(' ');
    const terminal = await run('script', ['-qec', `${command} > '${json}'`, '/dev/null']);
    assert.equal(terminal.code, 0, terminal.output);
    assert.ok(terminal.output.includes('\r\x1b[2KExporting Loud (scope global) of universe 4242: 30 entries'));
    assert.ok(terminal.output.endsWith('\r\x1b[2K'), 'the progress line is cleared at the end');
    assert.ok(!terminal.output.includes(CLI_KEY.slice(0, 8)));
    assert.equal(JSON.parse(fs.readFileSync(json, 'utf8')).exported, 30);
  });

  it('a failure says the thing, the reason and what to do, in one line, exit 1', async () => {
    await seed('Down', 1);
    await shared.emulator.fault({ path: '/standard-datastores', status: 503, times: 50 });
    const r = await cli(['export', ...connection(), '--store', 'Down', '--out', file('down.ndjson')]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(
      r.stderr,
      /^universe-explorer export: cannot export Down \(scope global\) of universe 4242 to .*down\.ndjson: /,
    );
    await shared.emulator.clearFaults();
  });
});
