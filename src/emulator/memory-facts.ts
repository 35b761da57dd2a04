// The journal's facts for ordered data stores and memory stores, how they apply, and what compaction writes of them.
// Each fact sets a state (a value, an item, a lease) rather than a change to one, so that replaying a record twice
// (a compacted journal may hold one twice, journal.ts) ends where the emulator was. Expiry is not journaled: an item
// past its expireAt is never served and compaction leaves it out. A flush is two facts: the operation when asked for,
// and its completion, which empties the universe's LIVE maps and queues (a map keeps its etag counter).
import type { FlushOp, Lease, MapItem, QueueItem } from './memory-records';
import type { Universe } from './records';

export type MemoryFact =
  /** An ordered entry's value (a decimal integer), or its removal when `v` is absent. */
  | { t: 'od'; u: number; store: string; scope: string; key: string; v?: string }
  /** A sorted-map item written, or removed when `item` is absent. */
  | { t: 'mi'; u: number; map: string; id: string; item?: MapItem }
  /** A map's etag counter (compaction): etags are never given twice, even after the items that had them are gone. */
  | { t: 'metag'; u: number; map: string; etag: number }
  | { t: 'qa'; u: number; queue: string; item: QueueItem }
  /** A read: these items are invisible until `until`, owned by `readId`. */
  | { t: 'qr'; u: number; queue: string; ids: string[]; lease: Lease }
  | { t: 'qd'; u: number; queue: string; ids: string[] }
  | { t: 'mop'; u: number; op: FlushOp }
  | { t: 'mflush'; u: number; id: string };

export function applyMemoryFact(u: Universe, f: MemoryFact): void {
  const memory = u.memory;
  switch (f.t) {
    case 'od': {
      let store = u.ordered.get(f.store);
      if (!store) u.ordered.set(f.store, (store = new Map()));
      let scope = store.get(f.scope);
      if (!scope) store.set(f.scope, (scope = new Map()));
      if (f.v !== undefined) return void scope.set(f.key, BigInt(f.v));
      scope.delete(f.key);
      if (!scope.size) store.delete(f.scope);
      if (!store.size) u.ordered.delete(f.store);
      return;
    }
    case 'mi': {
      let map = memory.maps.get(f.map);
      if (!map) memory.maps.set(f.map, (map = { items: new Map(), etag: 0 }));
      if (!f.item) return void map.items.delete(f.id);
      map.items.set(f.id, { ...f.item });
      map.etag = Math.max(map.etag, f.item.etag);
      return;
    }
    case 'metag': {
      const map = memory.maps.get(f.map);
      if (map) map.etag = Math.max(map.etag, f.etag);
      else memory.maps.set(f.map, { items: new Map(), etag: f.etag });
      return;
    }
    case 'qa': {
      let queue = memory.queues.get(f.queue);
      if (!queue) memory.queues.set(f.queue, (queue = { items: new Map(), seq: 0 }));
      queue.items.set(f.item.id, { ...f.item });
      queue.seq = Math.max(queue.seq, f.item.seq);
      return;
    }
    case 'qr': {
      const items = memory.queues.get(f.queue)?.items;
      for (const id of f.ids) {
        const item = items?.get(id);
        if (item) item.lease = { ...f.lease };
      }
      return;
    }
    case 'qd': {
      const items = memory.queues.get(f.queue)?.items;
      for (const id of f.ids) items?.delete(id);
      return;
    }
    case 'mop':
      memory.flushes.set(f.op.id, { ...f.op });
      return;
    case 'mflush': {
      const op = memory.flushes.get(f.id);
      if (!op) return;
      op.done = true;
      if (op.scope !== 'LIVE') return;
      for (const map of memory.maps.values()) map.items.clear(); // the etag counters stay
      memory.queues.clear();
      return;
    }
  }
}

/** A universe's ordered entries, live memory-store items and flush operations, as facts (compaction). */
export function* memoryFacts(u: Universe, now: number): Generator<MemoryFact> {
  for (const [store, scopes] of u.ordered)
    for (const [scope, entries] of scopes)
      for (const [key, v] of entries) yield { t: 'od', u: u.id, store, scope, key, v: v.toString() };
  for (const [map, m] of u.memory.maps) {
    yield { t: 'metag', u: u.id, map, etag: m.etag };
    for (const item of m.items.values()) if (item.expireAt > now) yield { t: 'mi', u: u.id, map, id: item.id, item };
  }
  for (const [queue, q] of u.memory.queues)
    for (const item of q.items.values()) if (item.expireAt > now) yield { t: 'qa', u: u.id, queue, item };
  for (const op of u.memory.flushes.values()) yield { t: 'mop', u: u.id, op };
}
