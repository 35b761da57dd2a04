// The memory-store quota (open-api-ordered-memory.md, 6 and 7.6): a universe holds at most 64 KB + 1.2 KB per
// concurrent user, counting the highest figure of the last 8 days of the emulator's clock (new users raise it at
// once; it drops 8 days after they leave). Memory is the bytes of every live item's id, JSON value and sort key, in
// sorted maps and queues alike (invisible queue items included). A write that would grow memory past the quota
// fails with 429 RESOURCE_EXHAUSTED; one that shrinks or keeps it goes through, even over the quota. Each map or
// queue also holds at most 1,000,000 items and 100 MB (U17: 429 as well).
import { ApiError } from './errors';
import type { Ctx } from './http';
import { memoryOf } from './memory-common';
import { mapItemBytes, queueItemBytes, type MapItem, type QueueItem } from './memory-records';

const BASE_BYTES = 64 * 1024;
const PER_USER_BYTES = 1.2 * 1024;
const LOOK_BACK_MS = 8 * 24 * 60 * 60 * 1000;
const MAX_ITEMS = 1_000_000;
const MAX_STRUCTURE_BYTES = 100 * 1024 * 1024;

/** The universe's quota in bytes. */
export const memoryLimit = (ctx: Ctx): number =>
  BASE_BYTES + Math.floor(PER_USER_BYTES * ctx.app.users.peak(ctx.universeId, LOOK_BACK_MS));

/** Bytes held by the universe's live items (settle() has dropped the expired ones). */
export function memoryUsed(ctx: Ctx): number {
  const memory = memoryOf(ctx);
  let used = 0;
  for (const map of memory.maps.values()) for (const item of map.items.values()) used += mapItemBytes(item);
  for (const queue of memory.queues.values()) for (const item of queue.items.values()) used += queueItemBytes(item);
  return used;
}

const exhausted = (message: string): ApiError => new ApiError(429, message);

/** Refuses writing `next` over `before` (undefined: a new item) into a structure holding `items`. */
function checkGrowth<T>(
  ctx: Ctx,
  items: Iterable<T>,
  bytes: (item: T) => number,
  before: T | undefined,
  next: T,
): void {
  const delta = bytes(next) - (before === undefined ? 0 : bytes(before));
  if (delta <= 0) return;
  const limit = memoryLimit(ctx);
  if (memoryUsed(ctx) + delta > limit) {
    throw exhausted(
      `The universe's memory-store quota (${limit} bytes) is used up. Remove items or let them expire, or raise the concurrent users.`,
    );
  }
  let count = 0;
  let held = 0;
  for (const item of items) {
    count++;
    held += bytes(item);
  }
  if (before === undefined && count + 1 > MAX_ITEMS)
    throw exhausted(`The data structure already holds ${MAX_ITEMS} items. Remove some first.`);
  if (held + delta > MAX_STRUCTURE_BYTES)
    throw exhausted(`The data structure would hold more than ${MAX_STRUCTURE_BYTES} bytes. Remove items first.`);
}

export const checkMapWrite = (ctx: Ctx, items: Iterable<MapItem>, before: MapItem | undefined, next: MapItem): void =>
  checkGrowth(ctx, items, mapItemBytes, before, next);

export const checkQueueAdd = (ctx: Ctx, items: Iterable<QueueItem>, next: QueueItem): void =>
  checkGrowth(ctx, items, queueItemBytes, undefined, next);
