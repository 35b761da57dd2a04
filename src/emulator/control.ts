// Test-only endpoints under /_emulator/ (option `control`): fault injection, the request log, reset, the clock and
// the concurrent-users figure. They need no API key and are not themselves recorded in the request log. The clock
// moves forward only: {"advanceMs": n} or {"set": "<RFC 3339 time>"}; both answer {"now": "<time>"}, as GET does.
// Concurrent users (what the cloud v2 data store limits and the memory-store quota grow with, ratelimit.ts): POST
// {"concurrentUsers": n} sets every universe's figure, {"concurrentUsers": n, "universe": id} one universe's; both
// answer as GET does, {"concurrentUsers": n, "universes": {"<id>": n}}. Reset puts it back to the start figure.
import { validateHeaderName, validateHeaderValue, type IncomingMessage, type ServerResponse } from 'node:http';
import { iso, parseClock, type Clock } from './clock';
import { ApiError, errorBody } from './errors';
import { isObject, readBody } from './http';
import type { ConcurrentUsers } from './ratelimit';

interface Fault {
  method?: string;
  path?: string;
  /** Text the request's query string must contain (e.g. `entryKey=legacy`): a fault for one entry. */
  query?: string;
  status?: number;
  headers: Record<string, string>;
  body: string;
  times: number;
  delayMs: number;
}

/** Only the most recent requests are kept. */
const MAX_LOGGED = 10_000;

export class Control {
  private faults: Fault[] = [];
  private requests: { method: string; path: string; query: string; status: number }[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly hooks: { reset(): void; clockMoved(): void },
    private readonly users: ConcurrentUsers,
  ) {}

  record(method: string, path: string, query: string, status: number): void {
    if (this.requests.length >= MAX_LOGGED) this.requests.shift();
    this.requests.push({ method, path, query, status });
  }

  /**
   * Applies the first fault matching the request, if any: waits its delay, then answers for it (true) or, with no
   * status, lets the request be handled normally (false).
   */
  async intercept(req: IncomingMessage, res: ServerResponse, path: string, query: string): Promise<boolean> {
    const i = this.faults.findIndex(
      (f) =>
        (!f.method || f.method.toUpperCase() === req.method) &&
        (!f.path || path.includes(f.path)) &&
        (!f.query || query.includes(f.query)),
    );
    if (i < 0) return false;
    const fault = this.faults[i];
    if (--fault.times <= 0) this.faults.splice(i, 1);
    if (fault.delayMs > 0) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (fault.status === undefined) return false;
    req.resume();
    res.writeHead(fault.status, fault.headers);
    res.end(fault.body);
    return true;
  }

  async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const reply = (status: number, value: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    try {
      const action = `${req.method} ${path}`;
      if (action === 'POST /_emulator/faults') {
        this.faults.push(parseFault(await readBody(req, 1024 * 1024)));
        return reply(200, { ok: true });
      }
      if (action === 'DELETE /_emulator/faults') {
        this.faults = [];
        return reply(200, { ok: true });
      }
      if (action === 'GET /_emulator/requests') return reply(200, { requests: this.requests });
      if (action === 'POST /_emulator/reset') {
        this.faults = [];
        this.requests = [];
        this.users.reset();
        this.hooks.reset();
        return reply(200, { ok: true });
      }
      if (action === 'POST /_emulator/clock') {
        this.moveClock(await readBody(req, 64 * 1024));
        this.hooks.clockMoved();
      }
      if (action === 'POST /_emulator/clock' || action === 'GET /_emulator/clock')
        return reply(200, { now: iso(this.clock.now()) });
      if (action === 'POST /_emulator/concurrent-users') this.setUsers(await readBody(req, 64 * 1024));
      if (action === 'POST /_emulator/concurrent-users' || action === 'GET /_emulator/concurrent-users')
        return reply(200, this.users.toJson());
      throw new ApiError(404, `No control endpoint ${action}.`);
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError(500, (err as Error).message);
      reply(e.status, errorBody('gateway', e));
    }
  }

  private moveClock(body: Buffer | undefined): void {
    const move = jsonOf(body);
    const { advanceMs, set } = isObject(move) ? move : {};
    const to = typeof set === 'string' ? parseClock(set) : undefined;
    try {
      if (typeof advanceMs === 'number' && set === undefined) return this.clock.advance(advanceMs);
      if (to !== undefined && advanceMs === undefined) return this.clock.set(to);
    } catch {
      throw new ApiError(400, 'The clock only moves forward.');
    }
    throw new ApiError(400, 'Give {"advanceMs": <milliseconds, at least 0>} or {"set": "<RFC 3339 time>"}.');
  }

  private setUsers(body: Buffer | undefined): void {
    const given = jsonOf(body);
    const { concurrentUsers: n, universe } = isObject(given) ? given : {};
    const whole = (v: unknown, from: number): v is number => Number.isSafeInteger(v) && (v as number) >= from;
    if (!whole(n, 0) || (universe !== undefined && !whole(universe, 1))) {
      throw new ApiError(400, 'Give {"concurrentUsers": <whole number from 0>} and optionally "universe": <id>.');
    }
    this.users.set(n, universe);
  }
}

/** The body as JSON; undefined when it is not JSON. */
function jsonOf(body: Buffer | undefined): unknown {
  try {
    return JSON.parse(body?.toString('utf8') ?? '');
  } catch {
    return undefined;
  }
}

function parseFault(body: Buffer | undefined): Fault {
  let f: unknown;
  try {
    f = JSON.parse(body?.toString('utf8') ?? '');
  } catch {
    throw new ApiError(400, 'The fault must be a JSON object.');
  }
  const bad = (what: string): never => {
    throw new ApiError(400, `Invalid fault: ${what}.`);
  };
  if (!isObject(f)) return bad('not a JSON object');
  const { method, path, query, status, headers, body: text, times = 1, delayMs = 0 } = f;
  if (method !== undefined && typeof method !== 'string') bad('method must be a string');
  if (path !== undefined && typeof path !== 'string') bad('path must be a string');
  if (query !== undefined && typeof query !== 'string') bad('query must be a string');
  if (status !== undefined && !(Number.isInteger(status) && (status as number) >= 200 && (status as number) <= 599))
    bad('status must be 200..599');
  if (headers !== undefined && !(isObject(headers) && Object.entries(headers).every(([k, v]) => isHeader(k, v)))) {
    bad('headers must map valid header names to string values');
  }
  if (text !== undefined && typeof text !== 'string') bad('body must be a string');
  if (!(Number.isInteger(times) && (times as number) >= 1)) bad('times must be a whole number from 1');
  if (!(typeof delayMs === 'number' && delayMs >= 0)) bad('delayMs must be a number of at least 0');
  if (status === undefined && delayMs === 0) bad('give a status, a delayMs, or both');
  return {
    method: method as string | undefined,
    path: path as string | undefined,
    query: query as string | undefined,
    status: status as number | undefined,
    headers: (headers as Record<string, string> | undefined) ?? {},
    body: (text as string | undefined) ?? '',
    times: times as number,
    delayMs: delayMs as number,
  };
}

function isHeader(name: string, value: unknown): boolean {
  try {
    validateHeaderName(name);
    if (typeof value !== 'string') return false;
    validateHeaderValue(name, value);
    return true;
  } catch {
    return false;
  }
}
