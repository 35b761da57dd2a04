// The one transport of the client: base URL, x-api-key, timeouts, retries with backoff and retry-after,
// x-ratelimit-* reading, logging, and mapping every failure to a typed error.
import { randomInt } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Agent, Dispatcher } from 'undici';
import type * as z from 'zod/mini';
import {
  abortError,
  ApiError,
  defaultMessage,
  errorClassFor,
  NetworkError,
  parseErrorBody,
  PreconditionFailedError,
  ResponseShapeError,
  TimeoutError,
} from './errors';
import { entryMetadataFromHeaders, parseShape } from './read';
import type { Headers, Schema } from './schemas';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | undefined;

/** The last argument of every client method. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** A body that can only be sent once (a multipart stream); `dispose` releases it after the attempt. */
export interface StreamBody {
  stream: Readable;
  headers: Record<string, string>;
  dispose(): void;
}

export interface RequestSpec {
  method: Method;
  /** Path below the base URL, segments already encoded with `seg`. */
  path: string;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** A fixed body, or a factory called once per attempt. */
  body?: Buffer | (() => Promise<StreamBody>);
  /** Safe to send again after a 429, a 5xx or a dropped connection. */
  idempotent: boolean;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  body: Buffer;
}

export interface RateLimit {
  limit?: string;
  remaining?: number;
  resetSeconds?: number;
  /** Date.now() when these figures were read. */
  at: number;
}

export interface LogEvent {
  method: string;
  path: string;
  status?: number;
  ms: number;
  attempt: number;
  error?: string;
}

export interface RetryOptions {
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  entryHeaderPrefix?: string;
  timeoutMs?: number;
  retry?: RetryOptions;
  log?: (e: LogEvent) => void;
  userAgent?: string;
}

/** Connection failures worth another try (the request may not have reached the service). */
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** A retry-after longer than this is reported to the caller rather than waited out. */
const MAX_RETRY_AFTER_MS = 60_000;

/** Encodes one path segment; `.` and `..` are percent-encoded too, so a segment is never a literal dot segment. */
export function seg(value: string | number): string {
  const s = String(value);
  return s === '.' || s === '..' ? s.replace(/\./g, '%2E') : encode(s);
}

/** Body and content type of a JSON request. */
export function jsonBody(value: unknown): { body: Buffer; headers: Record<string, string> } {
  return { body: Buffer.from(JSON.stringify(value), 'utf8'), headers: { 'content-type': 'application/json' } };
}

function encode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    throw new TypeError(`Not valid Unicode (lone surrogate): ${JSON.stringify(s)}`);
  }
}

function queryString(query: Record<string, QueryValue> | undefined, withValues: boolean): string {
  let out = '';
  for (const k in query) {
    const v = query[k];
    if (v === undefined) continue;
    out += `${out ? '&' : '?'}${encode(k)}${withValues ? `=${encode(String(v))}` : ''}`;
  }
  return out;
}

/**
 * One request through undici's dispatch, the response collected into one Buffer. Cheaper per call than undici's
 * request(), which builds a stream for every body; bulk work sends thousands of small requests.
 */
function exchange(
  agent: Agent,
  opts: Dispatcher.DispatchOptions,
  signal: AbortSignal | undefined,
): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    agent.dispatch(opts, new Exchange(resolve, reject, signal));
  });
}

/** The handler of one exchange: an object with its methods on the prototype, not a closure per callback. */
class Exchange implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: Headers = {};
  private readonly chunks: Buffer[] = [];
  private abort?: (reason: Error) => void;

  constructor(
    private readonly resolve: (res: HttpResponse) => void,
    private readonly reject: (err: Error) => void,
    private readonly signal: AbortSignal | undefined,
  ) {
    if (signal) listen(signal, this);
  }

  cancel(reason: Error): void {
    this.abort?.(reason);
  }

  onConnect(abort: (reason: Error) => void): void {
    if (this.signal?.aborted) abort(this.signal.reason as Error);
    else this.abort = abort;
  }

  onHeaders(status: number, raw: Buffer[]): boolean {
    // undici's own parser: lower-case names (known ones without a string made per response), latin1 values.
    if (status >= 200) [this.status, this.headers] = [status, undici().util.parseHeaders(raw)];
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.signal) unlisten(this.signal, this);
    const body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    this.resolve({ status: this.status, headers: this.headers, body });
  }

  onError(err: Error): void {
    if (this.signal) unlisten(this.signal, this);
    this.reject(err);
  }
}

/** The exchanges in flight per signal: one listener on a signal however many of its requests are running. */
const listening = new WeakMap<AbortSignal, Set<Exchange>>();

function listen(signal: AbortSignal, exchange: Exchange): void {
  let set = listening.get(signal);
  if (!set) {
    const exchanges = (set = new Set());
    listening.set(signal, exchanges);
    signal.addEventListener('abort', () => exchanges.forEach((x) => x.cancel(signal.reason as Error)), { once: true });
  }
  set.add(exchange);
}

function unlisten(signal: AbortSignal, exchange: Exchange): void {
  listening.get(signal)?.delete(exchange);
}

/**
 * undici, required when the first client is made rather than imported: it (and the Node modules it loads) is not
 * read when the extension activates.
 */
function undici(): typeof import('undici') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (undiciModule ??= require('undici') as typeof import('undici'));
}
let undiciModule: typeof import('undici') | undefined;

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** `retry-after` as seconds or an HTTP date, in ms. */
function parseRetryAfter(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export class Transport {
  private readonly agent: Agent = new (undici().Agent)({ keepAliveTimeout: 4_000, connections: 16 });
  private readonly origin: string;
  private readonly basePath: string;
  private readonly apiKey: string;
  private readonly timeoutMs: number;
  private readonly retry: Required<RetryOptions>;
  /** The headers of a request that adds none of its own. */
  private readonly baseHeaders: Record<string, string>;
  private readonly logHook?: (e: LogEvent) => void;
  readonly entryHeaderPrefix: string;
  private latestRateLimit?: RateLimit;

  constructor(opts: TransportOptions) {
    const url = new URL(opts.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.apiKey = opts.apiKey;
    this.entryHeaderPrefix = opts.entryHeaderPrefix ?? 'platform';
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.retry = {
      maxAttempts: Math.max(1, opts.retry?.maxAttempts ?? 4),
      baseDelayMs: opts.retry?.baseDelayMs ?? 250,
      maxDelayMs: opts.retry?.maxDelayMs ?? 8_000,
    };
    this.baseHeaders = {
      'user-agent': opts.userAgent ?? 'universe-explorer',
      accept: 'application/json',
      'x-api-key': opts.apiKey,
    };
    this.logHook = opts.log;
  }

  get rateLimit(): RateLimit | undefined {
    return this.latestRateLimit;
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  /** Sends the request, retrying idempotent calls; resolves with any 2xx response, rejects with a typed error. */
  async request(spec: RequestSpec): Promise<HttpResponse> {
    for (let attempt = 1; ; attempt++) {
      let err: ApiError;
      try {
        const res = await this.once(spec, attempt);
        if (res.status >= 200 && res.status < 300) return res;
        err = this.toError(res);
      } catch (e) {
        if (!(e instanceof NetworkError)) throw e;
        err = e;
      }
      if (!this.shouldRetry(spec, err, attempt)) throw err;
      await sleep(this.delayFor(err, attempt), spec.signal);
    }
  }

  /** Sends the request and parses its JSON body with `schema`. */
  async json<S extends Schema>(spec: RequestSpec, schema: S): Promise<z.output<S>> {
    const res = await this.request(spec);
    return this.parse(spec, res, schema);
  }

  parse<S extends Schema>(spec: RequestSpec, res: HttpResponse, schema: S): z.output<S> {
    return parseShape(schema, this.parseJson(spec, res), () => this.where(spec));
  }

  /** The body as JSON, any shape. */
  parseJson(spec: RequestSpec, res: HttpResponse): unknown {
    try {
      return JSON.parse(res.body.toString('utf8'));
    } catch {
      throw new ResponseShapeError(`Unexpected response from ${this.where(spec)}: (body): not valid JSON`, '(body)', {
        status: res.status,
      });
    }
  }

  private where(spec: RequestSpec): string {
    return `${spec.method} ${this.logPath(spec)}`;
  }

  private async once(spec: RequestSpec, attempt: number): Promise<HttpResponse> {
    const started = this.logHook ? Date.now() : 0;
    const log = (e: { status?: number; error?: string }): void =>
      this.logHook?.({ method: spec.method, path: this.logPath(spec), ms: Date.now() - started, attempt, ...e });
    const streamBody = typeof spec.body === 'function' ? await spec.body() : undefined;
    try {
      const res = await exchange(
        this.agent,
        {
          origin: this.origin,
          path: this.basePath + spec.path + queryString(spec.query, true),
          method: spec.method,
          headers:
            spec.headers || streamBody
              ? { ...this.baseHeaders, ...spec.headers, ...streamBody?.headers, 'x-api-key': this.apiKey }
              : this.baseHeaders,
          body: streamBody ? streamBody.stream : (spec.body as Buffer | undefined),
          headersTimeout: this.timeoutMs,
          bodyTimeout: this.timeoutMs,
        },
        spec.signal,
      );
      this.readRateLimit(res.headers);
      if (this.logHook) log({ status: res.status });
      return res;
    } catch (e) {
      const err = this.classify(e, spec);
      log({ error: err.message });
      throw err;
    } finally {
      streamBody?.dispose();
    }
  }

  private classify(e: unknown, spec: RequestSpec): Error {
    if (spec.signal?.aborted) return abortError(spec.signal);
    const code = (e as { code?: unknown }).code;
    const text = this.redact(e instanceof Error ? e.message : String(e));
    const where = this.where(spec);
    if (typeof code === 'string' && TIMEOUT_CODES.has(code)) {
      return new TimeoutError(`Request timed out after ${this.timeoutMs} ms (${where})`, { code });
    }
    return new NetworkError(`Network error: ${text} (${where})`, {
      code: typeof code === 'string' ? code : undefined,
    });
  }

  private toError(res: HttpResponse): ApiError {
    const body = parseErrorBody(res.body);
    const text = this.redact(body.message ?? defaultMessage(res.status));
    const suffix = body.code ? `${res.status} ${this.redact(body.code)}` : `${res.status}`;
    const Class = errorClassFor(res.status);
    const err = new Class(`${text} (${suffix})`, {
      status: res.status,
      code: body.code === undefined ? undefined : this.redact(body.code),
      details: this.redactDeep(body.details),
      retryAfterMs: parseRetryAfter(header(res.headers, 'retry-after')),
    });
    if (err instanceof PreconditionFailedError && header(res.headers, `${this.entryHeaderPrefix}-entry-version`)) {
      try {
        err.current = entryMetadataFromHeaders(res.headers, this.entryHeaderPrefix);
      } catch {
        // Metadata that does not parse is left out; the status alone tells the caller what happened.
      }
    }
    return err;
  }

  private shouldRetry(spec: RequestSpec, err: ApiError, attempt: number): boolean {
    if (!spec.idempotent || attempt >= this.retry.maxAttempts) return false;
    if ((err.retryAfterMs ?? 0) > MAX_RETRY_AFTER_MS) return false;
    if (err instanceof NetworkError) return TRANSIENT_CODES.has(err.code ?? '');
    const status = err.status ?? 0;
    return (
      status === 429 || status === 502 || status === 503 || status === 504 || (status === 500 && spec.method === 'GET')
    );
  }

  /** retry-after when given (plus a little jitter, never less), else exponential backoff with jitter. */
  private delayFor(err: ApiError, attempt: number): number {
    if (err.retryAfterMs !== undefined) return err.retryAfterMs + randomInt(0, 100);
    const cap = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(cap / 2 + (Math.random() * cap) / 2);
  }

  private readRateLimit(headers: Headers): void {
    const limit = header(headers, 'x-ratelimit-limit');
    const remaining = header(headers, 'x-ratelimit-remaining');
    const reset = header(headers, 'x-ratelimit-reset');
    if (limit === undefined && remaining === undefined && reset === undefined) return;
    const num = (v: string | undefined): number | undefined => {
      const n = v === undefined ? NaN : parseFloat(v);
      return Number.isFinite(n) ? n : undefined;
    };
    this.latestRateLimit = { limit, remaining: num(remaining), resetSeconds: num(reset), at: Date.now() };
  }

  /** The path for logs and messages: query names only, never their values. */
  private logPath(spec: RequestSpec): string {
    return this.basePath + spec.path + queryString(spec.query, false);
  }

  private redact(text: string): string {
    return this.apiKey.length >= 4 ? text.split(this.apiKey).join('***') : text;
  }

  private redactDeep(value: unknown): unknown {
    if (value === undefined || this.apiKey.length < 4) return value;
    const needle = JSON.stringify(this.apiKey).slice(1, -1);
    return JSON.parse(JSON.stringify(value).split(needle).join('***'));
  }
}

/** Sleeps `ms`, rejecting with an AbortError at once when the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
