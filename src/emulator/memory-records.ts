// What a universe holds of ordered data stores and memory stores (open-api-ordered-memory.md), kept apart from the
// standard data stores: ordered entries are integers without versions; memory-store items carry their expiry time
// (the emulator's clock), and queue items the lease of the read that hides them.

/** Ordered data stores: store -> scope -> entry id -> value (int64 and beyond: an increment may pass 2^63). */
export type OrderedStores = Map<string, Map<string, Map<string, bigint>>>;

export interface MapItem {
  id: string;
  /** The value as compact JSON text. */
  value: string;
  /** A numeric or a string sort key; absent when the item has none. */
  sortKey?: number | string;
  /** Epoch milliseconds: the item is live while the clock is before it. */
  expireAt: number;
  etag: number;
}

export interface SortedMap {
  items: Map<string, MapItem>;
  /** The last etag given in this map (a per-map counter). */
  etag: number;
}

export interface Lease {
  readId: string;
  /** The item is invisible while the clock is before this. */
  until: number;
}

export interface QueueItem {
  id: string;
  /** Arrival order within the queue. */
  seq: number;
  /** The data as compact JSON text. */
  data: string;
  priority: number;
  expireAt: number;
  lease?: Lease;
}

export interface Queue {
  items: Map<string, QueueItem>;
  /** The last arrival number given. */
  seq: number;
}

export interface FlushOp {
  id: string;
  scope: 'LIVE' | 'TEST';
  /** When the flush takes effect. */
  doneAt: number;
  done: boolean;
}

export interface MemoryStore {
  maps: Map<string, SortedMap>;
  queues: Map<string, Queue>;
  flushes: Map<string, FlushOp>;
}

export const newMemoryStore = (): MemoryStore => ({ maps: new Map(), queues: new Map(), flushes: new Map() });

/** Bytes an item takes from the memory quota: its id, its JSON value and its sort key. */
/** Each item's size, counted once: items are never changed in place (a write puts a new one), and every write counts
 * the universe's memory. */
const sizes = new WeakMap<MapItem | QueueItem, number>();

function sized<T extends MapItem | QueueItem>(item: T, count: (item: T) => number): number {
  let bytes = sizes.get(item);
  if (bytes === undefined) sizes.set(item, (bytes = count(item)));
  return bytes;
}

export const mapItemBytes = (item: MapItem): number =>
  sized(
    item,
    (i) =>
      Buffer.byteLength(i.id) +
      Buffer.byteLength(i.value) +
      (i.sortKey === undefined ? 0 : Buffer.byteLength(String(i.sortKey))),
  );

export const queueItemBytes = (item: QueueItem): number =>
  sized(item, (i) => Buffer.byteLength(i.id) + Buffer.byteLength(i.data));
