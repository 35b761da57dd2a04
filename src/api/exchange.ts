// One request and its answer through undici, the only module that uses it: the answer collected into one Buffer,
// within a deadline and a size limit, and ended at once when the caller's signal fires.
import type { Readable } from 'node:stream';
import type { Agent, Dispatcher } from 'undici';
import { header, type Headers } from './schemas';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface HttpResponse {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** One request as undici takes it: the timeouts are undici's own, between the pieces of the answer. */
export interface ExchangeRequest {
  origin: string;
  path: string;
  method: Method;
  headers: Record<string, string>;
  body?: Buffer | Readable;
  headersTimeout: number;
  bodyTimeout: number;
}

/** Why the exchange itself ended: its deadline passed, or its body went over the limit. */
export class ExchangeLimit extends Error {
  constructor(
    readonly kind: 'deadline' | 'size',
    readonly status?: number,
  ) {
    super(kind);
  }
}

export interface Limits {
  /** Until the whole answer is in. */
  deadlineMs: number;
  /** Start the deadline once the request is sent (a streamed upload may take longer than any answer). */
  deadlineAfterSend: boolean;
  maxBodyBytes: number;
}

/** The keep-alive connections requests go through. */
export class Connections {
  private readonly agent: Agent = new (undici().Agent)({ keepAliveTimeout: 4_000, connections: 16 });

  /**
   * One request through undici's dispatch. Cheaper per call than undici's request(), which builds a stream for every
   * body; bulk work sends thousands of small requests. Rejects with undici's error, an ExchangeLimit, or the signal's
   * reason.
   */
  exchange(req: ExchangeRequest, signal: AbortSignal | undefined, limits: Limits): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      this.agent.dispatch(req, new Exchange(resolve, reject, signal, limits));
    });
  }

  close(): Promise<void> {
    return this.agent.close();
  }
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
