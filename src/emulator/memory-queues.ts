// Memory-store queues (open-api-ordered-memory.md, section 4, decisions of section 9):
// - Add: `data` required and not null; `priority` default 0; `ttl` "Ns", 45 days when left out (U6). `items:add` is
//   an alias of `items`, and body fields are read in any case (U5). The answer has no `id`: its path ends in it.
// - Read: the visible items (no lease, or one whose window has ended) by priority, highest first, then arrival;
//   `count` default 1, at most 200; `invisibilityWindow` "Ns" (default 30s, more than 0, at most 45 days), or the
//   2024 `invisibilityTimeoutSeconds` when the spec's name is absent (U4). The items are hidden until the window ends
//   and answered as {id, queueItems} (U1). Nothing visible, or fewer than `count` with allOrNothing: 404 NOT_FOUND
//   "Queue items not found.", as for a queue never written (U2). An item read again gets the new read's lease.
//   The setting memoryWire answers as the spec does ({readId, items}; nothing visible: 200 {items: []}) or as the
//   2024 wire did ({data: [values], id}; nothing visible: 204), so a client can be tried on each (U1, U2).
// - Discard: `readId` in the body (or the query, U3) removes the items still leased to that read; after their
//   window has ended, or for an unknown read, it does nothing and answers 200 {} all the same.
// - An expired item is gone whether leased or not; leased items still count for the quota.
import { randomBytes } from 'node:crypto';
import { iso } from './clock';
import { ApiError, invalid } from './errors';
import { send, sendJson, type Ctx, type Route } from './http';
import {
  itemPath,
  jsonText,
  MAX_SECONDS,
  memoryOf,
  memoryRoute,
  parseDuration,
  readFields,
  SCOPES,
  structureName,
} from './memory-common';
import { checkQueueAdd } from './memory-quota';
import type { QueueItem } from './memory-records';
import { flag, pageSize, text } from './params';

const DEFAULT_WINDOW_MS = 30_000;

const queueName = (ctx: Ctx): string => structureName(ctx, 'queue', 'queue name');

async function add(ctx: Ctx): Promise<void> {
  const name = queueName(ctx);
  const field = await readFields(ctx);
  const data = field('data');
  if (data === undefined || data === null) throw invalid('data is required and must not be null.');
  const priority = field('priority') ?? 0;
  if (!(typeof priority === 'number' && Number.isFinite(priority))) throw invalid('priority must be a number.');
  const ttl = field('ttl');
  const queue = memoryOf(ctx).queues.get(name);
  const item: QueueItem = {
    id: randomBytes(16).toString('hex'),
    seq: (queue?.seq ?? 0) + 1,
    data: jsonText(data, 'data'),
    priority,
    expireAt: ctx.app.clock.now() + (ttl === undefined ? MAX_SECONDS * 1000 : parseDuration(ttl, 'ttl')),
  };
  checkQueueAdd(ctx, queue?.items.values() ?? [], item);
  ctx.app.store.commit([{ t: 'qa', u: ctx.universeId, queue: name, item }]);
  sendJson(ctx, 200, {
    path: itemPath(ctx.universeId, 'queues', name, item.id),
    data: JSON.parse(item.data),
    priority: item.priority,
    expireTime: iso(item.expireAt),
  });
}

/** The invisibility window in milliseconds (U4). */
function invisibilityWindow(ctx: Ctx): number {
  const spec = text(ctx, 'invisibilityWindow', { aliases: ['invisibility_window'] });
  if (spec !== undefined) return parseDuration(spec, 'invisibilityWindow');
  const legacy = text(ctx, 'invisibilityTimeoutSeconds', {});
  if (legacy === undefined) return DEFAULT_WINDOW_MS;
  const seconds = /^\d{1,7}$/.test(legacy) ? Number(legacy) : NaN;
  if (!(seconds > 0 && seconds <= MAX_SECONDS))
    throw invalid(`invisibilityTimeoutSeconds must be a whole number from 1 to ${MAX_SECONDS}.`);
  return seconds * 1000;
}

function read(ctx: Ctx): void {
  const name = queueName(ctx);
  const count = pageSize(ctx, 'count', { fallback: 1, max: 200, zeroIsDefault: true });
  const allOrNothing = flag(ctx, 'allOrNothing', { aliases: ['all_or_nothing'] });
  const windowMs = invisibilityWindow(ctx);
  const now = ctx.app.clock.now();
  const visible = [...(memoryOf(ctx).queues.get(name)?.items.values() ?? [])]
    .filter((item) => !item.lease || item.lease.until <= now)
    .sort((a, b) => b.priority - a.priority || a.seq - b.seq);
  const taken = visible.slice(0, count);
  const wire = ctx.app.memoryWire;
  if ((taken.length === 0 && wire === 'live') || (allOrNothing && taken.length < count))
    throw new ApiError(404, 'Queue items not found.');
  if (taken.length === 0) return wire === '2024' ? send(ctx, 204, {}) : sendJson(ctx, 200, { items: [] });
  const lease = { readId: randomBytes(16).toString('hex'), until: now + windowMs };
  ctx.app.store.commit([{ t: 'qr', u: ctx.universeId, queue: name, ids: taken.map((i) => i.id), lease }]);
  if (wire === '2024') return sendJson(ctx, 200, { data: taken.map((i) => JSON.parse(i.data)), id: lease.readId });
  const items = taken.map((item) => ({
    data: JSON.parse(item.data),
    expireTime: iso(item.expireAt),
    path: itemPath(ctx.universeId, 'queues', name, item.id),
    priority: item.priority,
  }));
  sendJson(ctx, 200, wire === 'spec' ? { readId: lease.readId, items } : { id: lease.readId, queueItems: items });
}

async function discard(ctx: Ctx): Promise<void> {
  const name = queueName(ctx);
  const field = await readFields(ctx, true);
  const readId = field('readId') ?? text(ctx, 'readId', { aliases: ['read_id'] });
  if (typeof readId !== 'string' || readId === '') throw invalid('readId is required: the id a read answered.');
  const now = ctx.app.clock.now();
  const ids: string[] = [];
  for (const item of memoryOf(ctx).queues.get(name)?.items.values() ?? [])
    if (item.lease?.readId === readId && item.lease.until > now) ids.push(item.id);
  if (ids.length) ctx.app.store.commit([{ t: 'qd', u: ctx.universeId, queue: name, ids }]);
  sendJson(ctx, 200, {});
}

const ITEMS = 'memory-store/queues/{queue+}/items';

export const queueRoutes: Route[] = [
  memoryRoute('GET', `${ITEMS}:read`, read, SCOPES.queueRead),
  memoryRoute('POST', `${ITEMS}:discard`, discard, SCOPES.queueDiscard),
  memoryRoute('POST', `${ITEMS}:add`, add, SCOPES.queueAdd),
  memoryRoute('POST', ITEMS, add, SCOPES.queueAdd),
];
