// The emulator's HTTP server: its options, the data folder, the routes (dispatched by router.ts) and the control
// endpoints. Requests Node's parser refuses never reach the emulator: a request line and headers over 16 KiB get
// 431, a malformed request line (spaces, control characters) 400.
// A data folder is used by one emulator at a time (lock.ts); it is locked before anything in it is read and unlocked
// on close. Retention sweeps every key once a minute (real time) and compacts the journal when it has grown.
import fs = require('node:fs');
import http = require('node:http');
import type { AddressInfo } from 'node:net';
import { assetRoutes } from './assets';
import { Blobs } from './blobs';
import { Clock, parseClock } from './clock';
import { Control } from './control';
import { datastoreRoutes } from './datastores';
import { v2EntryRoutes } from './datastores-v2';
import { v2StoreRoutes } from './datastores-v2-stores';
import { watchHolders } from './holders';
import type { App, EmulatorKey, MemoryWire } from './http';
import type { JournalFault } from './journal';
import { FolderLock } from './lock';
import { flushRoutes } from './memory-flush';
import { sortedMapRoutes } from './memory-maps';
import { queueRoutes } from './memory-queues';
import { orderedRoutes } from './ordered';
import { ConcurrentUsers, RateLimiter } from './ratelimit';
import { restrictionRoutes } from './restrictions';
import { compile, dispatch, fail, type Dispatcher } from './router';
import { seedDemo } from './seed';
import { Store } from './store';
import { Tokens } from './tokens';

export type { EmulatorKey } from './http';
export { DataFolderInUse } from './lock';

export interface EmulatorOptions {
  host?: string; // default 127.0.0.1
  port?: number; // default 8787; 0 = free port
  dataDir?: string; // persist state (journal) here, locked for this emulator; absent = memory only
  clock?: string | number; // the emulator's time at start (RFC 3339 or epoch ms), running on from there; default real
  exitUnheld?: boolean; // needs dataDir: close once no live process has held it for 5 s (holders.ts)
  apiKeys?: EmulatorKey[]; // none given = a single key "sandbox" with every scope on every universe
  entryHeaderPrefix?: string; // default "platform"
  seed?: 'demo';
  rateLimits?: boolean; // enforce documented limits
  rateLimitScale?: number; // multiplies the documented limits (default 1)
  rateLimitWindowScale?: number; // multiplies the documented window lengths (default 1)
  concurrentUsers?: number; // concurrent users in every universe (default 0): cloud v2 data store and ordered data
  // store limits and the memory-store quota grow with it
  etagMismatchStatus?: 400 | 409 | 412; // what a cloud v2 etag mismatch answers (default 409)
  operationDelayMs?: number; // asset operations stay pending this long (default 0)
  flushDelayMs?: number; // a memory-store flush takes effect this long after it is asked for (default 1000)
  memoryStoreWire?: MemoryWire; // memory-store answers where the wire has differed (default live, memory-queues.ts)
  control?: boolean; // enable /_emulator/* test control endpoints
  log?: (line: string) => void;
  /** Test only: fails journal appends or their cut back (journal.ts), to play a full disk. */
  journalFault?: JournalFault;
}

export interface RunningEmulator {
  url: string;
  port: number;
  close(): Promise<void>;
  /** Settles once closed, by close() or by itself (exitUnheld). */
  closed: Promise<void>;
}

/** How often retention runs over every key, and the journal is compacted if it has grown. */
const SWEEP_MS = 60_000;

export const SANDBOX_KEY = 'sandbox';

const paths = compile([
  ...datastoreRoutes,
  ...v2StoreRoutes,
  ...v2EntryRoutes,
  ...restrictionRoutes,
  ...assetRoutes,
  ...orderedRoutes,
  ...sortedMapRoutes,
  ...queueRoutes,
  ...flushRoutes,
]);

function checkOptions(o: EmulatorOptions): void {
  const fail = (what: string): never => {
    throw new Error(`Invalid emulator option: ${what}`);
  };
  if (o.port !== undefined && !(Number.isInteger(o.port) && o.port >= 0 && o.port <= 65535)) fail(`port ${o.port}`);
  if (o.dataDir === '') fail('dataDir is empty');
  if (o.clock !== undefined && parseClock(o.clock) === undefined) fail(`clock "${o.clock}" (an RFC 3339 time)`);
  if (o.exitUnheld && o.dataDir === undefined) fail('exitUnheld needs a dataDir');
  if (o.entryHeaderPrefix !== undefined && !/^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/.test(o.entryHeaderPrefix)) {
    fail(`entryHeaderPrefix "${o.entryHeaderPrefix}" (letters, digits and inner dashes)`);
  }
  if (o.seed !== undefined && o.seed !== 'demo') fail(`seed "${o.seed}" (only "demo")`);
  if (o.rateLimitScale !== undefined && !(o.rateLimitScale > 0 && Number.isFinite(o.rateLimitScale)))
    fail(`rateLimitScale ${o.rateLimitScale}`);
  if (
    o.rateLimitWindowScale !== undefined &&
    !(o.rateLimitWindowScale > 0 && Number.isFinite(o.rateLimitWindowScale))
  ) {
    fail(`rateLimitWindowScale ${o.rateLimitWindowScale}`);
  }
  if (o.operationDelayMs !== undefined && !(o.operationDelayMs >= 0 && Number.isFinite(o.operationDelayMs)))
    fail(`operationDelayMs ${o.operationDelayMs}`);
  if (o.flushDelayMs !== undefined && !(o.flushDelayMs >= 0 && Number.isFinite(o.flushDelayMs)))
    fail(`flushDelayMs ${o.flushDelayMs}`);
  if (o.memoryStoreWire !== undefined && !['live', 'spec', '2024'].includes(o.memoryStoreWire))
    fail(`memoryStoreWire ${o.memoryStoreWire} (live, spec or 2024)`);
  if (o.concurrentUsers !== undefined && !(Number.isSafeInteger(o.concurrentUsers) && o.concurrentUsers >= 0))
    fail(`concurrentUsers ${o.concurrentUsers}`);
  if (o.etagMismatchStatus !== undefined && ![400, 409, 412].includes(o.etagMismatchStatus))
    fail(`etagMismatchStatus ${o.etagMismatchStatus} (400, 409 or 412)`);
  for (const k of o.apiKeys ?? []) if (typeof k.key !== 'string' || k.key === '') fail('an API key is empty');
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  checkOptions(opts);
  const log = opts.log ?? (() => undefined);
  const host = opts.host ?? '127.0.0.1';
  const dataDir = opts.dataDir;
  const clock = new Clock(opts.clock === undefined ? undefined : parseClock(opts.clock));
  const store = new Store(clock, log);
  const users = new ConcurrentUsers(opts.concurrentUsers ?? 0, () => clock.now());
  let lock: FolderLock | undefined;
  let blobs: Blobs | undefined;
  const release = (): void => {
    store.close();
    blobs?.close();
    lock?.release();
  };
  let app: App;
  try {
    if (dataDir !== undefined) {
      fs.mkdirSync(dataDir, { recursive: true });
      lock = await FolderLock.acquire(dataDir, log);
      await store.open({ dataDir, mayReplace: () => lock!.held(), fault: opts.journalFault });
    }
    blobs = Blobs.create(dataDir);
    app = {
      store,
      tokens: Tokens.create(dataDir),
      blobs,
      clock,
      prefix: (opts.entryHeaderPrefix ?? 'platform').toLowerCase(),
      operationDelayMs: opts.operationDelayMs ?? 0,
      etagMismatchStatus: opts.etagMismatchStatus ?? 409,
      users,
      flushDelayMs: opts.flushDelayMs ?? 1000,
      memoryWire: opts.memoryStoreWire ?? 'live',
    };
    if (opts.seed === 'demo') seedDemo(app);
  } catch (err) {
    release();
    throw err;
  }
  const keyList = opts.apiKeys?.length ? opts.apiKeys : [{ key: SANDBOX_KEY }];
  const keys = new Map(keyList.map((k) => [k.key, k]));
  const limiter = opts.rateLimits
    ? new RateLimiter(opts.rateLimitScale ?? 1, opts.rateLimitWindowScale ?? 1, users)
    : undefined;
  const control = opts.control
    ? new Control(
        clock,
        {
          // Back to the start: nothing but the seed it was started with (the Local Sandbox's Reset).
          reset: () => {
            store.reset();
            app.blobs.wipe();
            limiter?.reset();
            clock.restart();
            users.reset(); // its history is on the clock
            if (opts.seed === 'demo') seedDemo(app);
          },
          clockMoved: () => store.sweep(),
        },
        users,
      )
    : undefined;

  const dispatcher: Dispatcher = { paths, app, keys, limiter, log };
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const qs = q < 0 ? '' : url.slice(q + 1);
    if (!control) return dispatch(dispatcher, req, res, path, qs);
    if (path.startsWith('/_emulator/')) return void control.handle(req, res, path);
    res.on('finish', () => control.record(req.method ?? '', path, qs, res.statusCode));
    control.intercept(req, res, path, qs).then(
      (answered) => answered || dispatch(dispatcher, req, res, path, qs),
      (err: Error) => fail(log, res, 'gateway', err),
    );
  });

  let url: string;
  let port: number;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 8787, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    port = (server.address() as AddressInfo).port;
    url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    lock?.setUrl(url);
  } catch (err) {
    server.close();
    release();
    throw err;
  }
  log(`listening on ${url}${dataDir !== undefined ? `, data in ${dataDir}` : ''}`);

  const sweeper = setInterval(() => {
    store.sweep();
    store.compactIfGrown();
  }, SWEEP_MS);
  sweeper.unref();
  const stopWatching = opts.exitUnheld
    ? watchHolders(
        dataDir!,
        () => {
          log('no live process has held the emulator for 5 s (holders/): stopping');
          void close();
        },
        log,
      )
    : undefined;

  let closing: Promise<void> | undefined;
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const close = (): Promise<void> =>
    (closing ??= new Promise<void>((resolve) => {
      clearInterval(sweeper);
      stopWatching?.();
      server.close(() => resolve());
      server.closeAllConnections();
    })
      .then(release)
      .finally(markClosed));
  return { url, port, close, closed };
}
