// The emulator's HTTP server: routing, API keys, scopes, rate limits and the control endpoints. Routing decisions:
// an unknown path is 404 and a known path with another method is 405 (with `allow`), both in the gateway's body
// {errors:[{code:0,message}]}, before the API key is looked at. Then a missing or unknown x-api-key is 401 (gateway
// body), a key not allowed for the universe in the path or lacking a scope is 403 in the route's family. Requests
// Node's parser refuses never reach the emulator: a request line and headers over 16 KiB get 431, a malformed
// request line (spaces, control characters) 400.
// A data folder is used by one emulator at a time (lock.ts); it is locked before anything in it is read and unlocked
// on close. Retention sweeps every key once a minute (real time) and compacts the journal when it has grown.
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { assetRoutes } from './assets';
import { Blobs } from './blobs';
import { Clock, parseClock } from './clock';
import { Control } from './control';
import { datastoreRoutes } from './datastores';
import { v2EntryRoutes } from './datastores-v2';
import { v2StoreRoutes } from './datastores-v2-stores';
import { ApiError, diskFull, errorBody, invalidApiKey, isDiskFull, type Family } from './errors';
import { watchHolders } from './holders';
import { decodeComponent, Query, requireScope, type App, type Ctx, type EmulatorKey, type Route } from './http';
import type { JournalFault } from './journal';
import { FolderLock } from './lock';
import { pathId } from './params';
import { ConcurrentUsers, RateLimiter } from './ratelimit';
import { restrictionRoutes } from './restrictions';
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
  concurrentUsers?: number; // concurrent users in every universe: cloud v2 data store limits grow with it (default 0)
  etagMismatchStatus?: 400 | 409 | 412; // what a cloud v2 etag mismatch answers (default 409)
  operationDelayMs?: number; // asset operations stay pending this long (default 0)
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

interface CompiledPath {
  regex: RegExp;
  names: string[];
  family: Family;
  methods: Map<string, Route>;
}

function compile(routes: Route[]): CompiledPath[] {
  const byPath = new Map<string, CompiledPath>();
  for (const route of routes) {
    let compiled = byPath.get(route.path);
    if (!compiled) {
      const names: string[] = [];
      const source = route.path
        .split(/(\{\w+[+*]?\})/)
        .map((part) => {
          const [, name, span] = /^\{(\w+)([+*]?)\}$/.exec(part) ?? [];
          if (!name) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          names.push(name);
          return span === '*' ? '(.+)' : span === '+' ? '([^/]+)' : '([^/:]+)';
        })
        .join('');
      compiled = { regex: new RegExp(`^${source}$`), names, family: route.family, methods: new Map() };
      byPath.set(route.path, compiled);
    }
    compiled.methods.set(route.method, route);
  }
  return [...byPath.values()];
}

const paths = compile([...datastoreRoutes, ...v2StoreRoutes, ...v2EntryRoutes, ...restrictionRoutes, ...assetRoutes]);

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
    };
    if (opts.seed === 'demo') seedDemo(app);
  } catch (err) {
    release();
    throw err;
  }
  const keyList = opts.apiKeys?.length ? opts.apiKeys : [{ key: SANDBOX_KEY }];
  const keys = new Map(keyList.map((k) => [k.key, k]));
  const users = new ConcurrentUsers(opts.concurrentUsers ?? 0);
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
            if (opts.seed === 'demo') seedDemo(app);
          },
          clockMoved: () => store.sweep(),
        },
        users,
      )
    : undefined;

  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const qs = q < 0 ? '' : url.slice(q + 1);
    if (!control) return dispatch(req, res, path, qs);
    if (path.startsWith('/_emulator/')) return void control.handle(req, res, path);
    res.on('finish', () => control.record(req.method ?? '', path, qs, res.statusCode));
    control.intercept(req, res, path).then(
      (answered) => answered || dispatch(req, res, path, qs),
      (err: Error) => fail(res, 'gateway', err),
    );
  });

  function fail(res: http.ServerResponse, family: Family, err: unknown, extraHeaders?: Record<string, string>): void {
    const e =
      err instanceof ApiError
        ? err
        : isDiskFull(err)
          ? diskFull()
          : new ApiError(500, 'Internal error in the emulator.');
    if (e.status === 500) log(`internal error: ${(err as Error)?.stack ?? String(err)}`);
    if (res.headersSent) return void res.destroy();
    const body = JSON.stringify(errorBody(family, e));
    res.writeHead(e.status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      ...extraHeaders,
      ...e.headers,
    });
    res.end(body);
  }

  function dispatch(req: http.IncomingMessage, res: http.ServerResponse, path: string, qs: string): void {
    let compiled: CompiledPath | undefined;
    let match: RegExpExecArray | null = null;
    for (const p of paths)
      if ((match = p.regex.exec(path))) {
        compiled = p;
        break;
      }
    if (!compiled || !match) return fail(res, 'gateway', new ApiError(404, 'Not found.'));
    const route = compiled.methods.get(req.method ?? '');
    if (!route) {
      const allow = [...compiled.methods.keys()].join(', ');
      return fail(res, 'gateway', new ApiError(405, 'Method not allowed.', undefined, { allow }));
    }
    const family = route.family;
    let ctx: Ctx | undefined;
    try {
      const params: Record<string, string> = {};
      const rawParams: Record<string, string> = {};
      compiled.names.forEach((name, i) => {
        const value = decodeComponent((rawParams[name] = match![i + 1]));
        if (value === null) throw new ApiError(400, `The ${name} in the path is not correctly percent-encoded.`);
        params[name] = value;
      });
      const key = keys.get(req.headers['x-api-key'] as string);
      if (!key) return fail(res, 'gateway', invalidApiKey());
      ctx = { app, req, res, params, rawParams, query: new Query(qs), key, universeId: 0 };
      if (params.universeId !== undefined) {
        ctx.universeId = pathId(ctx, 'universeId', 'Universe ID', 'InvalidUniverseId');
        if (key.universes && !key.universes.includes(ctx.universeId)) {
          throw new ApiError(403, `The API key is not allowed to access universe ${ctx.universeId}.`, 'Forbidden');
        }
      }
      for (const scope of route.scopes ?? []) requireScope(ctx, scope);
      if (limiter && route.rate) {
        ctx.extraHeaders = limiter.take(route.rate, { universe: ctx.universeId, key: key.key, user: params.userId });
      }
      const pending = route.handle(ctx);
      if (pending) pending.catch((err: unknown) => fail(res, family, err, ctx?.extraHeaders));
    } catch (err) {
      fail(res, family, err, ctx?.extraHeaders);
    }
  }

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
