// Request dispatch: path and method to a route, the API key, its universes and scopes, the rate limits, then the
// route's handler. An unknown path is 404 and a known path with another method is 405 (with `allow`), both in the
// gateway's body {errors:[{code:0,message}]}, before the API key is looked at. Then a missing or unknown x-api-key is
// 401 (gateway body), a key not allowed for the universe in the path or lacking a scope is 403 in the route's family.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, diskFull, errorBody, invalidApiKey, isDiskFull, type Family } from './errors';
import {
  decodeComponent,
  Query,
  requestHeader,
  requireAnyScope,
  requireScope,
  type App,
  type Ctx,
  type EmulatorKey,
  type Route,
} from './http';
import { pathId } from './params';
import type { RateLimiter } from './ratelimit';

export interface CompiledPath {
  regex: RegExp;
  names: string[];
  family: Family;
  methods: Map<string, Route>;
}

/** The routes grouped by path, each path a regular expression capturing its parameters. */
export function compile(routes: Route[]): CompiledPath[] {
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

/** What dispatch works with. */
export interface Dispatcher {
  paths: readonly CompiledPath[];
  app: App;
  /** The API keys, by key. */
  keys: ReadonlyMap<string, EmulatorKey>;
  /** Present when rate limits are enforced. */
  limiter?: RateLimiter;
  log: (line: string) => void;
}

/** Answers a request (`path` and `qs`: its URL split at the first `?`). */
export function dispatch(d: Dispatcher, req: IncomingMessage, res: ServerResponse, path: string, qs: string): void {
  let compiled: CompiledPath | undefined;
  let match: RegExpExecArray | null = null;
  for (const p of d.paths)
    if ((match = p.regex.exec(path))) {
      compiled = p;
      break;
    }
  if (!compiled || !match) return fail(d.log, res, 'gateway', new ApiError(404, 'Not found.'));
  const route = compiled.methods.get(req.method ?? '');
  if (!route) {
    const allow = [...compiled.methods.keys()].join(', ');
    return fail(d.log, res, 'gateway', new ApiError(405, 'Method not allowed.', undefined, { allow }));
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
    const given = requestHeader(req, 'x-api-key');
    const key = given === undefined ? undefined : d.keys.get(given);
    if (!key) return fail(d.log, res, 'gateway', invalidApiKey());
    ctx = { app: d.app, req, res, params, rawParams, query: new Query(qs), key, universeId: 0 };
    if (params.universeId !== undefined) {
      ctx.universeId = pathId(ctx, 'universeId', 'Universe ID', 'InvalidUniverseId');
      if (key.universes && !key.universes.includes(ctx.universeId)) {
        throw new ApiError(403, `The API key is not allowed to access universe ${ctx.universeId}.`, 'Forbidden');
      }
    }
    for (const scope of route.scopes ?? []) requireScope(ctx, scope);
    if (route.anyScope) requireAnyScope(ctx, route.anyScope);
    if (d.limiter && route.rate) {
      ctx.extraHeaders = d.limiter.take(route.rate, { universe: ctx.universeId, key: key.key, user: params.userId });
    }
    const pending = route.handle(ctx);
    if (pending) pending.catch((err: unknown) => fail(d.log, res, family, err, ctx?.extraHeaders));
  } catch (err) {
    fail(d.log, res, family, err, ctx?.extraHeaders);
  }
}

/** Answers a failure in `family`'s body; anything but an ApiError (or a full disk) is a 500, and is logged. */
export function fail(
  log: (line: string) => void,
  res: ServerResponse,
  family: Family,
  err: unknown,
  extraHeaders?: Record<string, string>,
): void {
  const e =
    err instanceof ApiError ? err : isDiskFull(err) ? diskFull() : new ApiError(500, 'Internal error in the emulator.');
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
