// The one transport of the client: base URL, x-api-key, timeouts, retries as retry.ts decides, x-ratelimit-*
// figures kept by rateLimit.ts, logging, and mapping every failure to a typed error; exchange.ts sends each attempt.
// What the service sends is bounded: each answer must arrive whole within the timeout and within a size limit, and
// its text reaches errors and logs only with the API key hidden, on one line, cut short.
import type { Readable } from 'node:stream';
import type * as z from 'zod/mini';
import type { Access, WriteGuard } from './access';
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
  WriteRefusedError,
} from './errors';
import { Connections, ExchangeLimit, type HttpResponse, type Method } from './exchange';
import { RateLimits, type RateLimit } from './rateLimit';
import { entryMetadataFromHeaders, parseShape } from './read';
import { oneLine, Redactor } from './redact';
import {
  decide,
  delayMs,
  notApplied,
  parseRetryAfter,
  retrySettings,
  type Failure,
  type Retry,
  type RetryOptions,
} from './retry';
import { header, type Schema } from './schemas';
import { isLoopback, queryString, type QueryValue } from './url';

export type { HttpResponse } from './exchange';
export type { RateLimit } from './rateLimit';
export type { Retry, RetryOptions } from './retry';
export { seg } from './url';

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

/** The most of an answer the client reads, unless a call sets its own limit. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface RequestSpec {
  method: Method;
  /** A read, or a write and what it writes to: every function declares it (see access.ts). */
  access: Access;
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

export interface LogEvent {
  method: string;
  path: string;
  status?: number;
  ms: number;
  attempt: number;
  error?: string;
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
  /** Asked before every write is sent; a reason refuses it with a WriteRefusedError (read-only universes). */
  writeGuard?: WriteGuard;
}

/** Connection failures that are the transport's timeout (undici's, between the pieces of the answer). */
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Body and content type of a JSON request. */
export function jsonBody(value: unknown): { body: Buffer; headers: Record<string, string> } {
  return { body: Buffer.from(JSON.stringify(value), 'utf8'), headers: { 'content-type': 'application/json' } };
}

const mib = (bytes: number): string => `${+(bytes / 1024 / 1024).toFixed(2)} MiB`;

export class Transport {
  private readonly connections = new Connections();
  private readonly origin: string;
  private readonly basePath: string;
  private readonly apiKey: string;
  private readonly secret: Redactor;
  private readonly timeoutMs: number;
  private readonly retry: Required<RetryOptions>;
  /** The headers of a request that adds none of its own. */
  private readonly baseHeaders: Record<string, string>;
  private readonly logHook?: (e: LogEvent) => void;
  private readonly writeGuard?: WriteGuard;
  /** Lower case, as header names are read. */
  readonly entryHeaderPrefix: string;
  private readonly rateLimits = new RateLimits();

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
    this.retry = retrySettings(opts.retry);
    this.baseHeaders = {
      'user-agent': opts.userAgent ?? 'universe-explorer',
      accept: 'application/json',
      'x-api-key': opts.apiKey,
    };
    this.logHook = opts.log;
    this.writeGuard = opts.writeGuard;
  }

  get rateLimit(): RateLimit | undefined {
    return this.rateLimits.latest;
  }

  /** The latest figures of a budget's requests; of any request without a budget. */
  rateLimitOf(budget: string | undefined): RateLimit | undefined {
    return this.rateLimits.of(budget);
  }

  close(): Promise<void> {
    return this.connections.close();
  }

  /**
   * Sends the request, retrying as its `retry` allows; resolves with any 2xx response, rejects with a typed error
   * (marked `afterLostAnswer` when an earlier attempt may have been applied).
   */
  request(spec: RequestSpec): Promise<HttpResponse> {
    const target = spec.access === 'read' ? undefined : spec.access;
    const refused = target && this.writeGuard?.(target);
    if (target && refused !== undefined) {
      return Promise.reject(new WriteRefusedError(refused, 'universeId' in target ? target.universeId : undefined));
    }
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
      const failure: Failure =
        err instanceof NetworkError ? { code: err.code } : { status: err.status ?? 0, retryAfterMs: err.retryAfterMs };
      const next = decide(spec, failure, attempt, this.retry);
      if (!next.retry) throw err;
      lost ||= !notApplied(failure);
      await sleep(delayMs(next.wait), spec.signal);
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

  /** Sends one attempt; its answer as it came, or the exchange's error. */
  private dispatch(spec: RequestSpec, path: string, streamBody: StreamBody | undefined): Promise<HttpResponse> {
    return this.connections.exchange(
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
      this.rateLimits.read(res.headers, spec.budget);
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
      cause: e,
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
        retryAfterMs: parseRetryAfter(header(res.headers, 'retry-after'), Date.now()),
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
