// Memory stores on the wire (open-api-ordered-memory.md §1, §3 to §6, decisions of §9): the paths, durations as "Ns",
// the checks made before a request is sent, and a 429 read as the universe's quota. The calls are in memoryMaps.ts,
// memoryQueues.ts and memoryStores.ts.
import { QuotaExceededError, RateLimitedError } from './errors';
import { seg } from './http';

/** Every memory store call counts against the universe's one budget of request units (§6, U18). */
export const MEMORY_BUDGET = 'memory-store';

/** The longest ttl or invisibility window: 45 days (§3.7, U4, U6). */
export const MAX_SECONDS = 3_888_000;

export interface MemoryStoreArgs {
  universeId: number | string;
}

export function memoryPath(universeId: number | string, rest: string): string {
  return `/cloud/v2/universes/${seg(universeId)}/${rest}`;
}

/** A name or key as one path segment; an empty one would address the collection instead. */
export function nameSegment(name: string, what: string): string {
  if (name === '') throw new TypeError(`The ${what} is empty`);
  return seg(name);
}

/** Whole seconds from 1 to 45 days as a protobuf duration, `"30s"` (U4, U6); ISO 8601 is refused by the service. */
export function duration(seconds: number, what: string): string {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_SECONDS) {
    throw new RangeError(`The ${what} must be whole seconds from 1 to ${MAX_SECONDS} (45 days), got ${seconds}`);
  }
  return `${seconds}s`;
}

/** A value to send: any JSON value but null (U25, §4.3). */
export function jsonText(value: unknown, what: string): string {
  const text = value === null ? undefined : JSON.stringify(value);
  if (text === undefined) throw new TypeError(`The ${what} must be a JSON value other than null`);
  return text;
}

export function finite(n: number, what: string): number {
  if (typeof n !== 'number' || !Number.isFinite(n))
    throw new TypeError(`The ${what} must be a finite number, got ${n}`);
  return n;
}

/** For `.catch`: a 429 of a memory store call is the universe's quota (U17); any other error is thrown as it is. */
export function asQuotaExceeded(error: unknown): never {
  if (!(error instanceof RateLimitedError) || error instanceof QuotaExceededError) throw error;
  const quota = new QuotaExceededError(
    `The universe's memory store quota is used up (memory, item count or requests a minute): free some memory or ` +
      `wait, then try again. ${error.message}`,
    { status: error.status, code: error.code, details: error.details, retryAfterMs: error.retryAfterMs },
  );
  quota.afterLostAnswer = error.afterLostAnswer;
  throw quota;
}
