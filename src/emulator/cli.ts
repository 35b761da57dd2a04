// node dist/emulator.js [options]: the command-line front of the emulator (contract in docs/ARCHITECTURE.md). The
// bundle also exports startEmulator, so the extension can require it and run the same emulator in its own process,
// and runEmulatorCli, which `universe-explorer emulator` (dist/cli.js) runs with the same options. Exit codes: 0 after
// a clean stop, 1 when it cannot start, 2 for a bad flag, 3 when the data folder is in use by another emulator.
// Standard output and error are only logs: a reader that went away (EPIPE) never stops the emulator.
import fs = require('node:fs');
import { parseClock } from './clock';
import { isObject } from './http';
import { DataFolderInUse, SANDBOX_KEY, startEmulator, type EmulatorKey, type EmulatorOptions } from './server';

export { DataFolderInUse, startEmulator } from './server';
export type { EmulatorKey, EmulatorOptions, RunningEmulator } from './server';

const help = (program: string): string => `Usage: ${program} [options]

A local emulator of the Open API (user restrictions, standard and ordered data stores, memory stores: sorted
maps, queues and flush, assets).

  --host <addr>                 default 127.0.0.1
  --port <n>                    default 8787; 0 picks a free port
  --data <dir>                  keep state in this folder across restarts (default: in memory); one emulator
                                per folder: another one's start exits with code 3
  --exit-unheld                 with --data: stop once no live process holds the emulator (a file
                                <dir>/holders/<pid>) for 5 s; 30 s after the start before the first one
  --clock <time>                start the emulator's clock at this RFC 3339 time (2024-01-15T12:00:00Z); it runs
                                on from there (default: the real time)
  --api-key <key>               repeatable; a key with every scope on every universe
  --config <file.json>          {"apiKeys":[{"key":"...","scopes":["..."],"universes":[1234],"userId":1}]}
  --entry-header-prefix <word>  default platform (headers platform-entry-version, ...)
  --seed demo                   load the demo universe 123456
  --rate-limits                 enforce the documented limits, answering 429 with retry-after
  --rate-limit-scale <x>        multiply those limits by x (default 1)
  --rate-limit-window-scale <x> multiply their windows' lengths by x (default 1; 1/60 makes the minute a second)
  --concurrent-users <n>        concurrent users in every universe (default 0): the cloud v2 and ordered data
                                store limits are 300 + k x n per minute, memory-store request units 1000 + 120 x n;
                                the memory-store quota is 64 KB + 1.2 KB x the highest n of the last 8 days
                                (emulator clock); POST /_emulator/concurrent-users changes it
  --etag-mismatch-status <n>    what a cloud v2 data store etag mismatch answers: 409 (default), 412 or 400
  --operation-delay <ms>        how long an asset operation stays pending (default 0)
  --flush-delay <ms>            how long a memory-store flush operation stays pending (emulator clock; default 1000)
  --memory-store-wire <w>       live (default): queue reads answer {id, queueItems}, 404 when empty; spec:
                                {readId, items}, 200 when empty; 2024: {data, id}, 204 when empty
  --control                     enable the /_emulator/* test endpoints (faults, request log, reset, clock,
                                concurrent users)
  --help                        show this help

Without --api-key or --config, the single key "${SANDBOX_KEY}" (every scope) is accepted.
Prints "listening on http://<host>:<port>" when ready; stops on SIGINT or SIGTERM.
Versions are kept as the service keeps them: the last write of each hour, for 30 days after it was superseded.
Memory-store items expire on the emulator's clock (ttl, at most 45 days) and queue reads hide items for their
invisibility window; both survive a restart with --data, as do ordered data store entries.
`;

class UsageError extends Error {}

const number = (flag: string, v: string, check: (n: number) => boolean): number => {
  const n = Number(v);
  if (v.trim() === '' || !check(n)) throw new UsageError(`${flag}: invalid value "${v}"`);
  return n;
};

function readConfig(file: string): EmulatorKey[] {
  let config: unknown;
  try {
    config = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`--config: cannot read ${file}: ${(err as Error).message}`);
  }
  const keys = (config as { apiKeys?: unknown })?.apiKeys;
  const isKey = (o: unknown): o is EmulatorKey =>
    isObject(o) &&
    typeof o.key === 'string' &&
    o.key !== '' &&
    (o.scopes === undefined || (Array.isArray(o.scopes) && o.scopes.every((s) => typeof s === 'string'))) &&
    (o.universes === undefined || (Array.isArray(o.universes) && o.universes.every((u) => Number.isSafeInteger(u)))) &&
    (o.userId === undefined || Number.isSafeInteger(o.userId));
  if (!Array.isArray(keys) || !keys.every(isKey)) {
    throw new UsageError(`--config: ${file} must hold {"apiKeys":[{"key":"...","scopes":[...],"universes":[...]}]}`);
  }
  return keys;
}

/** Options from the command line; undefined for --help. Throws UsageError on a bad flag. */
function parseArgs(argv: string[]): EmulatorOptions | undefined {
  const opts: EmulatorOptions = {};
  const keys: EmulatorKey[] = [];
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] =
      argv[i].startsWith('--') && argv[i].includes('=') ? argv[i].split(/=(.*)/s) : [argv[i], undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    const noValue = (): true => {
      if (inline !== undefined) throw new UsageError(`${flag} takes no value`);
      return true;
    };
    switch (flag) {
      case '--help':
      case '-h':
        return undefined;
      case '--host':
        opts.host = value();
        break;
      case '--port':
        opts.port = number(flag, value(), (n) => Number.isInteger(n) && n >= 0 && n <= 65535);
        break;
      case '--data':
        opts.dataDir = value();
        if (opts.dataDir === '') throw new UsageError('--data: the folder name is empty');
        break;
      case '--exit-unheld':
        opts.exitUnheld = noValue();
        break;
      case '--clock': {
        const v = value();
        if (parseClock(v) === undefined)
          throw new UsageError(`--clock: invalid time "${v}" (an RFC 3339 time such as 2024-01-15T12:00:00Z)`);
        opts.clock = v;
        break;
      }
      case '--api-key':
        keys.push({ key: value() });
        break;
      case '--config':
        keys.push(...readConfig(value()));
        break;
      case '--entry-header-prefix':
        opts.entryHeaderPrefix = value();
        break;
      case '--seed': {
        const v = value();
        if (v !== 'demo') throw new UsageError(`--seed: unknown seed "${v}" (only "demo")`);
        opts.seed = v;
        break;
      }
      case '--rate-limits':
        opts.rateLimits = noValue();
        break;
      case '--rate-limit-scale':
        opts.rateLimitScale = number(flag, value(), (n) => n > 0 && Number.isFinite(n));
        break;
      case '--rate-limit-window-scale':
        opts.rateLimitWindowScale = number(flag, value(), (n) => n > 0 && Number.isFinite(n));
        break;
      case '--concurrent-users':
        opts.concurrentUsers = number(flag, value(), (n) => Number.isSafeInteger(n) && n >= 0);
        break;
      case '--etag-mismatch-status':
        opts.etagMismatchStatus = number(flag, value(), (n) => [400, 409, 412].includes(n)) as 400 | 409 | 412;
        break;
      case '--operation-delay':
        opts.operationDelayMs = number(flag, value(), (n) => n >= 0 && Number.isFinite(n));
        break;
      case '--flush-delay':
        opts.flushDelayMs = number(flag, value(), (n) => n >= 0 && Number.isFinite(n));
        break;
      case '--memory-store-wire': {
        const v = value();
        if (v !== 'live' && v !== 'spec' && v !== '2024')
          throw new UsageError(`--memory-store-wire: unknown wire "${v}" (live, spec or 2024)`);
        opts.memoryStoreWire = v;
        break;
      }
      case '--control':
        opts.control = noValue();
        break;
      default:
        throw new UsageError(`unknown option ${flag}`);
    }
  }
  if (keys.length) opts.apiKeys = keys;
  if (opts.exitUnheld && opts.dataDir === undefined) throw new UsageError('--exit-unheld needs --data');
  return opts;
}

/** Runs the emulator as its command line does, with `argv` (the options); `program` is how the help names it. */
export async function runEmulatorCli(argv: string[], program = 'node dist/emulator.js'): Promise<void> {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  let opts: EmulatorOptions | undefined;
  try {
    opts = parseArgs(argv);
  } catch (err) {
    process.stderr.write(`emulator: ${(err as Error).message} (see --help)\n`);
    process.exit(2);
  }
  if (!opts) {
    process.stdout.write(help(program));
    return;
  }
  opts.log = (line) => process.stderr.write(`emulator: ${line}\n`);
  const running = await startEmulator(opts).catch((err: Error) => {
    process.stderr.write(`emulator: ${err.message.split('\n')[0]}\n`);
    process.exit(err instanceof DataFolderInUse ? 3 : 1);
  });
  // After the start, so that a refused start says one line.
  if (!opts.apiKeys)
    process.stderr.write(`emulator: no API key given; accepting x-api-key: ${SANDBOX_KEY} (every scope)\n`);
  process.stdout.write(`listening on ${running.url}\n`);
  void running.closed.then(() => process.exit(0));
  const stop = (): void => void running.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) void runEmulatorCli(process.argv.slice(2));
