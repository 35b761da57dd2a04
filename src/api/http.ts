// The one transport of the client: base URL, x-api-key, timeouts, retries with backoff and retry-after,
// x-ratelimit-* reading, logging, and mapping every failure to a typed error. What the service sends is bounded:
// each answer must arrive whole within the timeout and within a size limit, and its text reaches errors and logs
// only with the API key hidden, on one line, cut short.
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
  ResponseTooLargeError,
  TimeoutError,
} from './errors';
import { entryMetadataFromHeaders, parseShape } from './read';
import { oneLine, Redactor } from './redact';
import { header, type Headers, type Schema } from './schemas';

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

/**
 * When a request is sent again: `idempotent` after a 429, a 5xx or a dropped connection (a repeat changes nothing);
 * `unapplied` only after an answer that says the service did not apply it (429, or 503 with retry-after) or a
 * connection that was never made; `never` not at all.
 */
export type Retry = 'idempotent' | 'unapplied' | 'never';

/** The most of an answer the client reads, unless a call sets its own limit. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface RequestSpec {
  method: Method;
  /** Path below the base URL, segments already encoded with `seg`. */
  path: string;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** A fixed body, or a factory called once per attempt. */
  body?: Buffer | (() => Promise<StreamBody>);
  retry: Retry;
  /** The most of the answer's body read (default MAX_BODY_BYTES); a larger one is a ResponseTooLargeError. */
  maxBodyBytes?: number;
  signal?: AbortSignal;
  /** The rate budget the request counts against, where the service counts some apart (cloud v2 data stores). */
  budget?: string;
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
  /** Letters and digits (default "platform"); read case-insensitively. */
  entryHeaderPrefix?: string;
  /** How long one attempt of a call may take, from sending it to the last byte of its answer (default 30 s). */
  timeoutMs?: number;
  /** Allow a plain http:// base URL on a host other than this machine (the API key then travels unencrypted). */
  allowInsecureHttp?: boolean;
  retry?: RetryOptions;
  log?: (e: LogEvent) => void;
  userAgent?: string;
}

/** Connection failures before the request was sent: the service cannot have applied it. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);
/** Connection failures worth another try of an idempotent call (the request may or may not have been applied). */
const TRANSIENT_CODES = new Set([
  ...NOT_SENT_CODES,
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
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

/** Query names as sent: a few fixed names, encoded once rather than on every request. */
const encodedNames = new Map<string, string>();

function queryString(query: Record<string, QueryValue> | undefined, withValues: boolean): string {
  let out = '';
  for (const k in query) {
    const v = query[k];
    if (v === undefined) continue;
    let name = encodedNames.get(k);
    if (name === undefined) encodedNames.set(k, (name = encode(k)));
    out += `${out ? '&' : '?'}${name}${withValues ? `=${encode(String(v))}` : ''}`;
  }
  return out;
}

/** 127.0.0.0/8, ::1 and localhost: this machine, where plain http does not leave it. */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** Why the transport itself ended an exchange: its deadline passed, or its body went over the limit. */
class ExchangeLimit extends Error {
  constructor(
    readonly kind: 'deadline' | 'size',
    readonly status?: number,
  ) {
    super(kind);
  }
}

interface Limits {
  /** Until the whole answer is in. */
  deadlineMs: number;
  /** Start the deadline once the request is sent (a streamed upload may take longer than any answer). */
  deadlineAfterSend: boolean;
  maxBodyBytes: number;
}

/**
 * One request through undici's dispatch, the response collected into one Buffer. Cheaper per call than undici's
 * request(), which builds a stream for every body; bulk work sends thousands of small requests.
 */
function exchange(
  agent: Agent,
  opts: Dispatcher.DispatchOptions,
  signal: AbortSignal | undefined,
  limits: Limits,
): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    agent.dispatch(opts, new Exchange(resolve, reject, signal, limits));
  });
}

function expire(exchange: Exchange): void {
  exchange.fail(new ExchangeLimit('deadline'));
}

/** The handler of one exchange: an object with its methods on the prototype, not a closure per callback. */
class Exchange implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: Headers = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private abort?: (reason: Error) => void;
  /** A failure before undici handed over `abort`: the caller has it at once, undici when it connects. */
  private failure?: Error;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly resolve: (res: HttpResponse) => void,
    private readonly reject: (err: Error) => void,
    private readonly signal: AbortSignal | undefined,
    private readonly limits: Limits,
  ) {
    if (signal) listen(signal, this);
    if (!limits.deadlineAfterSend) this.timer = setTimeout(expire, limits.deadlineMs, this);
  }

  /** Ends the exchange with `reason`: undici stops it and closes its connection, nothing more is read. */
  fail(reason: Error): void {
    if (this.abort) return this.abort(reason);
    this.failure ??= reason;
    this.done();
    this.reject(reason);
  }

  onConnect(abort: (reason: Error) => void): void {
    if (this.failure) abort(this.failure);
    else this.abort = abort;
  }

  onRequestSent(): void {
    if (this.limits.deadlineAfterSend) this.timer = setTimeout(expire, this.limits.deadlineMs, this);
  }

  onHeaders(status: number, raw: Buffer[]): boolean {
    if (status < 200) return true;
    // undici's own parser: lower-case names (known ones without a string made per response), latin1 values.
    [this.status, this.headers] = [status, undici().util.parseHeaders(raw)];
    if (Number(header(this.headers, 'content-length')) > this.limits.maxBodyBytes) {
      this.fail(new ExchangeLimit('size', status));
      return false;
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.size += chunk.length;
    if (this.size > this.limits.maxBodyBytes) {
      this.fail(new ExchangeLimit('size', this.status));
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    this.done();
    const body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    this.resolve({ status: this.status, headers: this.headers, body });
  }

  onError(err: Error): void {
    this.done();
    this.reject(err);
  }

  private done(): void {
    clearTimeout(this.timer);
    if (this.signal) unlisten(this.signal, this);
  }
}

/** The exchanges in flight per signal: one listener on a signal however many of its requests are running. */
const listening = new WeakMap<AbortSignal, Set<Exchange>>();

function listen(signal: AbortSignal, exchange: Exchange): void {
  let set = listening.get(signal);
  if (!set) {
    const exchanges = (set = new Set());
    listening.set(signal, exchanges);
    signal.addEventListener('abort', () => exchanges.forEach((x) => x.fail(signal.reason as Error)), { once: true });
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

/** `retry-after` as seconds or an HTTP date, in ms. */
function parseRetryAfter(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** A failure that says the service did not apply the request: a 429, a 503 with retry-after, or no connection. */
function notApplied(err: ApiError): boolean {
  if (err instanceof NetworkError) return NOT_SENT_CODES.has(err.code ?? '');
  return err.status === 429 || (err.status === 503 && err.retryAfterMs !== undefined);
}

const mib = (bytes: number): string => `${+(bytes / 1024 / 1024).toFixed(2)} MiB`;

export class Transport {
  private readonly agent: Agent = new (undici().Agent)({ keepAliveTimeout: 4_000, connections: 16 });
  private readonly origin: string;
  private readonly basePath: string;
  private readonly apiKey: string;
  private readonly secret: Redactor;
  private readonly timeoutMs: number;
  private readonly retry: Required<RetryOptions>;
  /** The headers of a request that adds none of its own. */
  private readonly baseHeaders: Record<string, string>;
  private readonly logHook?: (e: LogEvent) => void;
  /** Lower case, as header names are read. */
  readonly entryHeaderPrefix: string;
  private latestRateLimit?: RateLimit;
  private readonly budgets = new Map<string, RateLimit>();

  constructor(opts: TransportOptions) {
    const url = new URL(opts.baseUrl);
    if (url.protocol === 'http:' && !isLoopback(url.hostname) && !opts.allowInsecureHttp) {
      throw new Error(
        `Refusing to send the API key to ${url.origin}: the API key would travel unencrypted over plain http:// ` +
          'to another machine. Use an https:// address, or allow insecure http for this connection.',
      );
    }
    const prefix = (opts.entryHeaderPrefix ?? 'platform').toLowerCase();
    if (!/^[a-z0-9]+$/.test(prefix)) {
      throw new TypeError(
        `The entry header prefix must be letters and digits only, got ${JSON.stringify(opts.entryHeaderPrefix)}`,
      );
    }
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.apiKey = opts.apiKey;
    this.secret = new Redactor(opts.apiKey);
    this.entryHeaderPrefix = prefix;
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

  /** The latest figures of a budget's requests; of any request without a budget. */
  rateLimitOf(budget: string | undefined): RateLimit | undefined {
    return budget === undefined ? this.latestRateLimit : this.budgets.get(budget);
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  /**
   * Sends the request, retrying as its `retry` allows; resolves with any 2xx response, rejects with a typed error
   * (marked `afterLostAnswer` when an earlier attempt may have been applied).
   */
  request(spec: RequestSpec): Promise<HttpResponse> {
    let path: string;
    try {
      // Built before anything is sent: text that is not valid Unicode is the caller's TypeError, not a network error.
      path = this.basePath + spec.path + queryString(spec.query, true);
    } catch (e) {
      return Promise.reject(e as Error);
    }
    if (typeof spec.body === 'function') {
      return this.onceStreamed(spec, path, 1).then(
        (res) => (res.status >= 200 && res.status < 300 ? res : this.retried(spec, path, res, undefined)),
        (e: unknown) => this.retried(spec, path, undefined, e),
      );
    }
    // The first attempt in one step and without an async frame: most calls end with it.
    const started = this.logHook ? Date.now() : 0;
    return this.dispatch(spec, path, undefined).then(
      (answer) => {
        let res: HttpResponse;
        try {
          res = this.answered(answer, spec, 1, started);
        } catch (e) {
          return this.retried(spec, path, undefined, e);
        }
        return res.status >= 200 && res.status < 300 ? res : this.retried(spec, path, res, undefined);
      },
      (e: unknown) => this.retried(spec, path, undefined, this.failed(e, spec, 1, started)),
    );
  }

  /** After a first attempt that failed (an answer that is not 2xx, or an error): the attempts `retry` allows. */
  private async retried(
    spec: RequestSpec,
    path: string,
    res: HttpResponse | undefined,
    error: unknown,
  ): Promise<HttpResponse> {
    let lost = false;
    for (let attempt = 1; ; attempt++) {
      let err: ApiError;
      if (res) err = this.toError(res);
      else if (error instanceof NetworkError) err = error;
      else throw error;
      err.afterLostAnswer = lost;
      if (!this.shouldRetry(spec, err, attempt)) throw err;
      lost ||= !notApplied(err);
      await sleep(this.delayFor(err, attempt), spec.signal);
      try {
        res = await this.once(spec, path, attempt + 1);
        if (res.status >= 200 && res.status < 300) return res;
      } catch (e) {
        [res, error] = [undefined, e];
      }
    }
  }

  /** Sends the request and parses its JSON body with `schema`. */
  json<S extends Schema>(spec: RequestSpec, schema: S): Promise<z.output<S>> {
    return this.request(spec).then((res) => this.parse(spec, res, schema));
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

  /** Text the service sent, fit for an error message or a log: the API key hidden, then one line, cut short. */
  serviceText(text: string, max?: number): string {
    return oneLine(this.secret.text(text), max);
  }

  /** A value the service sent (error details, metadata), with the API key hidden in every string. */
  redact<T>(value: T): T {
    return this.secret.value(value);
  }

  private where(spec: RequestSpec): string {
    return `${spec.method} ${this.logPath(spec)}`;
  }

  private once(spec: RequestSpec, path: string, attempt: number): Promise<HttpResponse> {
    return typeof spec.body === 'function'
      ? this.onceStreamed(spec, path, attempt)
      : this.send(spec, path, attempt, undefined);
  }

  private async onceStreamed(spec: RequestSpec, path: string, attempt: number): Promise<HttpResponse> {
    const streamBody = await (spec.body as () => Promise<StreamBody>)();
    try {
      return await this.send(spec, path, attempt, streamBody);
    } finally {
      streamBody.dispose();
    }
  }

  /** One attempt: its answer (rate-limit figures read), or its failure as a typed error; both logged. */
  private send(
    spec: RequestSpec,
    path: string,
    attempt: number,
    streamBody: StreamBody | undefined,
  ): Promise<HttpResponse> {
    const started = this.logHook ? Date.now() : 0;
    return this.dispatch(spec, path, streamBody).then(
      (res) => this.answered(res, spec, attempt, started),
      (e: unknown) => {
        throw this.failed(e, spec, attempt, started);
      },
    );
  }

  /** Sends one attempt; its answer as it came, or undici's error. */
  private dispatch(spec: RequestSpec, path: string, streamBody: StreamBody | undefined): Promise<HttpResponse> {
    return exchange(
      this.agent,
      {
        origin: this.origin,
        path,
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
      {
        deadlineMs: this.timeoutMs,
        deadlineAfterSend: streamBody !== undefined,
        maxBodyBytes: spec.maxBodyBytes ?? MAX_BODY_BYTES,
      },
    );
  }

  /** An answer: its rate-limit figures read and logged; a failure to do so as a typed error. */
  private answered(res: HttpResponse, spec: RequestSpec, attempt: number, started: number): HttpResponse {
    try {
      this.readRateLimit(res.headers, spec.budget);
      if (this.logHook) this.log(spec, attempt, started, { status: res.status });
      return res;
    } catch (e) {
      throw this.failed(e, spec, attempt, started);
    }
  }

  private failed(e: unknown, spec: RequestSpec, attempt: number, started: number): Error {
    const err = this.classify(e, spec);
    this.log(spec, attempt, started, { error: err.message });
    return err;
  }

  private log(spec: RequestSpec, attempt: number, started: number, e: { status?: number; error?: string }): void {
    this.logHook?.({ method: spec.method, path: this.logPath(spec), ms: Date.now() - started, attempt, ...e });
  }

  private classify(e: unknown, spec: RequestSpec): Error {
    if (spec.signal?.aborted) return abortError(spec.signal);
    const where = this.where(spec);
    if (e instanceof ExchangeLimit) {
      return e.kind === 'deadline'
        ? new TimeoutError(`Request timed out after ${this.timeoutMs} ms (${where})`, { code: 'DEADLINE' })
        : new ResponseTooLargeError(
            `The answer is larger than ${mib(spec.maxBodyBytes ?? MAX_BODY_BYTES)}; stopped reading it (${where})`,
            { status: e.status },
          );
    }
    const code = (e as { code?: unknown }).code;
    const text = this.serviceText(e instanceof Error ? e.message : String(e));
    if (typeof code === 'string' && TIMEOUT_CODES.has(code)) {
      return new TimeoutError(`Request timed out after ${this.timeoutMs} ms (${where})`, { code });
    }
    return new NetworkError(`Network error: ${text} (${where})`, {
      code: typeof code === 'string' ? code : undefined,
    });
  }

  private toError(res: HttpResponse): ApiError {
    const body = parseErrorBody(res.body);
    const code = body.code === undefined ? undefined : this.serviceText(body.code, 100);
    const Class = errorClassFor(res.status);
    const err = new Class(
      `${this.serviceText(body.message ?? defaultMessage(res.status))} (${code ? `${res.status} ${code}` : res.status})`,
      {
        status: res.status,
        code,
        details: this.redact(body.details),
        retryAfterMs: parseRetryAfter(header(res.headers, 'retry-after')),
      },
    );
    if (err instanceof PreconditionFailedError && header(res.headers, `${this.entryHeaderPrefix}-entry-version`)) {
      try {
        err.current = this.redact(entryMetadataFromHeaders(res.headers, this.entryHeaderPrefix));
      } catch {
        // Metadata that does not parse is left out; the status alone tells the caller what happened.
      }
    }
    return err;
  }

  private shouldRetry(spec: RequestSpec, err: ApiError, attempt: number): boolean {
    if (spec.retry === 'never' || attempt >= this.retry.maxAttempts) return false;
    if ((err.retryAfterMs ?? 0) > MAX_RETRY_AFTER_MS) return false;
    if (spec.retry === 'unapplied') return notApplied(err);
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

  private readRateLimit(headers: Headers, budget: string | undefined): void {
    const limit = header(headers, 'x-ratelimit-limit');
    const remaining = header(headers, 'x-ratelimit-remaining');
    const reset = header(headers, 'x-ratelimit-reset');
    if (limit === undefined && remaining === undefined && reset === undefined) return;
    const num = (v: string | undefined): number | undefined => {
      const n = v === undefined ? NaN : parseFloat(v);
      return Number.isFinite(n) ? n : undefined;
    };
    this.latestRateLimit = { limit, remaining: num(remaining), resetSeconds: num(reset), at: Date.now() };
    if (budget !== undefined) this.budgets.set(budget, this.latestRateLimit);
  }

  /** The path for logs and messages: query names only, never their values. */
  private logPath(spec: RequestSpec): string {
    return this.basePath + spec.path + queryString(spec.query, false);
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
