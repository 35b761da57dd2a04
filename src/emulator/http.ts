// What every handler works with: the request context, the query, body reading and response writing.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Blobs } from './blobs';
import type { Clock } from './clock';
import { ApiError, type Family } from './errors';
import type { ConcurrentUsers, RateRule } from './ratelimit';
import type { Store } from './store';
import type { Tokens } from './tokens';

export interface EmulatorKey {
  key: string;
  /** Absent = every scope. */
  scopes?: string[];
  /** Absent = every universe. */
  universes?: number[];
  /** The moderator id written to restriction logs; default 1. */
  userId?: number;
}

/** Shared by all handlers of one running emulator. */
export interface App {
  store: Store;
  tokens: Tokens;
  blobs: Blobs;
  /** Every time written or reported comes from here. */
  clock: Clock;
  /** Entry header prefix: `<prefix>-entry-version`, ... */
  prefix: string;
  operationDelayMs: number;
  /** What a cloud v2 etag mismatch answers: 409 (default), 412 or 400 (docs/SERVICE.md, "Cloud v2 differences"). */
  etagMismatchStatus: number;
  /** Concurrent users per universe: the memory-store quota grows with them. */
  users: ConcurrentUsers;
  /** How long a memory-store flush takes, on the emulator's clock. */
  flushDelayMs: number;
  /** Which answers memory stores give where the wire has differed (memory-queues.ts). */
  memoryWire: MemoryWire;
}

/** `live`: as probed in 2026 (the default); `spec`: as the OpenAPI spec says; `2024`: as the 2024 wire was. */
export type MemoryWire = 'live' | 'spec' | '2024';

export interface Ctx {
  app: App;
  req: IncomingMessage;
  res: ServerResponse;
  /** Path parameters, percent-decoded. */
  params: Record<string, string>;
  /** The same, as they appear in the path (cloud v2 data stores decode their own). */
  rawParams: Record<string, string>;
  query: Query;
  key: EmulatorKey;
  /** The `{universeId}` path parameter, validated; 0 on routes without one. */
  universeId: number;
  /** Added to every response of this request (rate-limit headers). */
  extraHeaders?: Record<string, string>;
}

export interface Route {
  method: string;
  /** Literal segments and parameters: `{name}` never spans `/` or `:`, `{name+}` may hold `:`, `{name*}` also `/`. */
  path: string;
  family: Family;
  /** Needed in any case; handlers check scopes that depend on the state themselves (requireScope). */
  scopes?: string[];
  /** Any one of these is enough: the names one permission has had. */
  anyScope?: string[];
  rate?: RateRule[];
  handle(ctx: Ctx): void | Promise<void>;
}

/** The query string, split once; values are percent-decoded only when asked for. The first occurrence wins. */
export class Query {
  private readonly raw = new Map<string, string>();

  constructor(qs: string) {
    if (!qs) return;
    for (const part of qs.split('&')) {
      const eq = part.indexOf('=');
      const rawName = eq < 0 ? part : part.slice(0, eq);
      const name = decodeComponent(rawName) ?? rawName;
      if (name && !this.raw.has(name)) this.raw.set(name, eq < 0 ? '' : part.slice(eq + 1));
    }
  }

  /** The decoded value; undefined when absent, null when its percent-encoding is malformed. */
  get(name: string): string | undefined | null {
    const raw = this.raw.get(name);
    return raw === undefined ? undefined : decodeComponent(raw);
  }
}

/** decodeURIComponent with `+` as space; null instead of a throw (bad `%xx`, or a lone UTF-16 surrogate). */
export function decodeComponent(s: string): string | null {
  if (!s.includes('%') && !s.includes('+')) return s;
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** A request header's value; undefined when absent (Node gives repeated headers as one string, set-cookie aside). */
export function requestHeader(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
}

export function requireScope(ctx: Ctx, scope: string): void {
  const scopes = ctx.key.scopes;
  if (scopes && !scopes.includes(scope)) {
    throw new ApiError(
      403,
      `The API key does not have sufficient scope to perform this operation (needs ${scope}).`,
      'InsufficientScope',
    );
  }
}

/** 403 unless the key has one of `scopes` (the names one permission has had). */
export function requireAnyScope(ctx: Ctx, scopes: readonly string[]): void {
  const held = ctx.key.scopes;
  if (held && !scopes.some((s) => held.includes(s))) requireScope(ctx, scopes[0]);
}

export function send(ctx: Ctx, status: number, headers: Record<string, string>, body?: string | Buffer): void {
  ctx.res.writeHead(status, ctx.extraHeaders ? { ...headers, ...ctx.extraHeaders } : headers);
  ctx.res.end(body);
}

export function sendJson(ctx: Ctx, status: number, value: unknown, headers?: Record<string, string>): void {
  sendJsonText(ctx, status, JSON.stringify(value), headers);
}

/** An answer whose JSON text is already made. */
export function sendJsonText(ctx: Ctx, status: number, body: string, headers?: Record<string, string>): void {
  send(
    ctx,
    status,
    { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
    body,
  );
}

/** Past the limit, the rest of a body is read and thrown away (so the answer reaches the client), up to this much. */
const DRAIN_MAX = 64 * 1024 * 1024;

/**
 * The whole request body, or undefined when it is larger than `limit` bytes. A body that goes on far past the
 * limit gets its connection closed.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > limit + DRAIN_MAX) req.destroy();
    });
    req.on('end', () => resolve(size <= limit ? Buffer.concat(chunks, size) : undefined));
    req.on('close', () => resolve(undefined));
  });
}

/** A JSON body: ApiError 400 (in the route's family) when it is too large or not JSON. */
export async function readJson(ctx: Ctx, limit: number): Promise<unknown> {
  const body = await readBody(ctx.req, limit);
  if (!body) throw new ApiError(400, `The request body is larger than ${limit} bytes.`);
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new ApiError(400, 'The request body is not valid JSON.');
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
