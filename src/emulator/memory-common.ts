// What the memory-store routes share (open-api-ordered-memory.md, sections 3 to 7): their permissions (every name
// each has had, U16), durations ("30s": decimal seconds, more than 0, at most 45 days; ISO 8601 is 400), bodies (field
// names in any case, as 2024 clients sent PascalCase, U5), the paths answers carry (U13), and what runs before every
// request: flushes whose time has come take effect, and items past their expiry leave memory.
import { invalid } from './errors';
import { isObject, readBody, type Ctx, type Route } from './http';
import type { MemoryStore } from './memory-records';
import { RATES } from './ratelimit';

export const UNIVERSE_BASE = '/cloud/v2/universes/{universeId}/';

/** The longest ttl and invisibility window, in seconds (45 days): also the ttl when none is given (U6). */
export const MAX_SECONDS = 3_888_000;
/** Sorted-map values and queue data: bytes of their JSON. */
export const MAX_VALUE_BYTES = 32 * 1024;
/** Sorted-map ids and string sort keys: characters. */
export const MAX_KEY_CHARS = 128;
const BODY_LIMIT = MAX_VALUE_BYTES + 64 * 1024;

export const SCOPES = {
  mapRead: ['memory-store.sorted-map:read', 'universe.memory-store.sorted-map:read'],
  mapWrite: ['memory-store.sorted-map:write', 'universe.memory-store.sorted-map:write'],
  queueAdd: ['memory-store.queue:add', 'memory-store.queue:write', 'universe.memory-store.queue:write'],
  queueRead: ['memory-store.queue:dequeue', 'universe.memory-store.queue:dequeue'],
  queueDiscard: ['memory-store.queue:discard', 'universe.memory-store.queue:discard'],
  flush: ['memory-store:flush', 'universe.memory-store:flush'],
} satisfies Record<string, string[]>;

/** A memory-store route: any name of its permission, the universe's request units, then settle() before `handle`. */
export const memoryRoute = (
  method: string,
  path: string,
  handle: (ctx: Ctx) => void | Promise<void>,
  scopes: string[],
): Route => ({
  method,
  path: UNIVERSE_BASE + path,
  family: 'v2',
  anyScope: scopes,
  rate: [RATES.memoryUnits],
  handle: (ctx) => {
    settle(ctx);
    return handle(ctx);
  },
});

export const memoryOf = (ctx: Ctx): MemoryStore => ctx.app.store.universe(ctx.universeId).memory;

/** Flushes due take effect (journaled); items past their expiry are dropped (not journaled: replay drops them too). */
export function settle(ctx: Ctx): void {
  const memory = ctx.app.store.universes.get(ctx.universeId)?.memory;
  if (!memory) return;
  const now = ctx.app.clock.now();
  for (const op of memory.flushes.values())
    if (!op.done && op.doneAt <= now) ctx.app.store.commit([{ t: 'mflush', u: ctx.universeId, id: op.id }]);
  for (const map of memory.maps.values())
    for (const [id, item] of map.items) if (item.expireAt <= now) map.items.delete(id);
  for (const queue of memory.queues.values())
    for (const [id, item] of queue.items) if (item.expireAt <= now) queue.items.delete(id);
}

/** A duration "Ns" (decimal seconds) in milliseconds; 400 unless more than 0 and at most 45 days. */
export function parseDuration(v: unknown, what: string): number {
  const m = typeof v === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(v) : null;
  const seconds = m ? Number(m[1]) : NaN;
  if (!(seconds > 0 && seconds <= MAX_SECONDS))
    throw invalid(`${what} must be a number of seconds followed by "s" ("30s"), above 0s and at most ${MAX_SECONDS}s.`);
  return Math.ceil(seconds * 1000);
}

/** A JSON object body whose fields are looked up in any case (`value`, `Value`); `optional`: none is `{}`. */
export async function readFields(ctx: Ctx, optional = false): Promise<(name: string) => unknown> {
  const raw = await readBody(ctx.req, BODY_LIMIT);
  if (!raw) throw invalid(`The request body is larger than ${BODY_LIMIT} bytes.`);
  let body: unknown = {};
  if (raw.length > 0 || !optional) {
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw invalid('The request body is not valid JSON.');
    }
  }
  if (!isObject(body)) throw invalid('The request body must be a JSON object.');
  const fields = body;
  return (name) => {
    if (Object.hasOwn(fields, name)) return fields[name];
    const key = Object.keys(fields).find((k) => k.toLowerCase() === name.toLowerCase());
    return key === undefined ? undefined : fields[key];
  };
}

/** A value or data as compact JSON text; 400 above 32 KB. */
export function jsonText(v: unknown, what: string): string {
  const text = JSON.stringify(v);
  if (Buffer.byteLength(text) > MAX_VALUE_BYTES)
    throw invalid(`The ${what} is larger than ${MAX_VALUE_BYTES} bytes (32 KB); make it smaller.`);
  return text;
}

/** A map or queue name from the path, percent-decoded once. */
export function structureName(ctx: Ctx, param: string, what: string): string {
  let name: string;
  try {
    name = decodeURIComponent(ctx.rawParams[param]);
  } catch {
    throw invalid(`The ${what} in the path is not correctly percent-encoded.`);
  }
  if (name === '') throw invalid(`The ${what} is empty.`);
  return name;
}

/** An item's `path` as answers give it: with `cloud/v2/`, the id percent-encoded (Get says `memory-stores`, U13). */
export const itemPath = (u: number, kind: 'sorted-maps' | 'queues', name: string, id: string, plural = false): string =>
  `cloud/v2/universes/${u}/memory-store${plural ? 's' : ''}/${kind}/${encodeURIComponent(name)}/items/${encodeURIComponent(id)}`;
