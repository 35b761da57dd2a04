// The emulator's in-memory model: a universe's data stores (one stored model that v1 and cloud v2 both read), its
// user restrictions, restriction logs, idempotency keys and snapshots, and the assets with their operations. Also
// the order data stores list in and their version ids. Store names, scopes and keys are kept sorted in UTF-8 byte
// order (code point order), the order both APIs list them in. Ordered data stores and memory stores: memory-records.ts.
import { newMemoryStore, type MemoryStore, type OrderedStores } from './memory-records';

interface EntryVersionJson {
  version: string;
  deleted: boolean;
  contentLength: number;
  createdTime: string;
  objectCreatedTime: string;
}

export interface VersionRec {
  /** The v1 version id, which is also the v2 revisionId and etag. */
  id: string;
  seq: number;
  at: number;
  /** When the next version was written (retention counts from it); undefined for the latest. */
  until?: number;
  deleted: boolean;
  size: number;
  /** The value's file under values/ (data folder, large values). */
  hash?: string;
  /** The bytes (empty for a tombstone): always there for the latest version and inline values; else see readValue(). */
  value?: Buffer;
  attrs?: string; // JSON object text, ASCII only
  uids: string; // JSON array text
  item: EntryVersionJson;
}

export interface EntryRec {
  key: string;
  createdAt: number;
  /** The versions retention keeps, oldest first; the last one is current. */
  versions: VersionRec[];
}

export interface ScopeRec {
  keys: string[]; // sorted
  entries: Map<string, EntryRec>;
}

export interface StoreRec {
  name: string;
  createdAt: number;
  /** Set while the data store is deleted (cloud v2); it is purged KEEP_MS later. */
  deletedAt?: number;
  scopeNames: string[]; // sorted
  scopes: Map<string, ScopeRec>;
}

export interface Snapshot {
  at: number;
  /** The highest sequence number written before it. */
  seq: number;
}

export interface Restriction {
  updateTime: string;
  active: boolean;
  startTime?: string;
  duration?: string;
  privateReason: string;
  displayReason: string;
  excludeAltAccounts: boolean;
}

export interface LogRec {
  seq: number;
  json: { user: string; place: string } & Record<string, unknown>;
}

export interface IdemRec {
  fp: string;
  at: number;
  body: unknown;
}

/** How long an idempotency key is remembered (and how old `firstSent` may be). */
export const IDEMPOTENCY_MS = 24 * 60 * 60 * 1000;

export interface Universe {
  id: number;
  storeNames: string[]; // sorted
  stores: Map<string, StoreRec>;
  bans: Map<number, Restriction>; // universe level, by user id
  placeBans: Map<number, Map<number, Restriction>>; // place id -> user id -> restriction
  logs: LogRec[]; // oldest first
  idem: Map<string, IdemRec>;
  snapshots: Snapshot[]; // oldest first
  ordered: OrderedStores;
  memory: MemoryStore;
}

export const newUniverse = (id: number): Universe => ({
  id,
  storeNames: [],
  stores: new Map(),
  bans: new Map(),
  placeBans: new Map(),
  logs: [],
  idem: new Map(),
  snapshots: [],
  ordered: new Map(),
  memory: newMemoryStore(),
});

export interface Creator {
  userId?: string;
  groupId?: string;
}

export interface AssetMeta {
  id: string;
  assetType: string;
  displayName: string;
  description: string;
  creator: Creator;
  state: 'Active' | 'Archived';
  icon?: string;
  previews: { asset: string; altText: string }[];
  links: Record<string, { title?: string; uri: string }>;
}

export interface AssetVersionRec {
  n: number;
  createTime: string;
  blob: string; // content hash, the file name under blobs/
  size: number;
  contentType: string;
  moderationState: 'Approved' | 'Reviewing' | 'Rejected';
  creator: Creator;
}

export interface AssetRec extends AssetMeta {
  versions: AssetVersionRec[]; // oldest first; the last is the current revision
}

export interface OperationRec {
  id: string;
  doneAt: number;
  response?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** The entry's current version, unless it is a tombstone. */
export const current = (entry: EntryRec | undefined): VersionRec | undefined => {
  const v = entry?.versions[entry.versions.length - 1];
  return v && !v.deleted ? v : undefined;
};

/** Index of the first item whose sequence number is >= seq. */
export function bySeq<T>(list: readonly T[], seq: number, of: (item: T) => number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (of(list[mid]) < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * UTF-8 byte order, negative when a sorts first. It is code point order: UTF-16 code units agree with it except
 * that surrogates (code points from U+10000) must sort after U+E000..U+FFFF.
 */
export function compareKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

const codePointRank = (unit: number): number => (unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit);

export function insertSorted(list: string[], item: string): void {
  list.splice(lowerBound(list, item), 0, item);
}

/** Index of the first element >= item. */
export function lowerBound(list: readonly string[], item: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(list[mid], item) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Version ids look like the service's: <key created ticks>.<sequence>.<version ticks>.01, hex, where ticks are
// .NET ticks (100 ns since year 1). The sequence is global and increasing, so ids are unique and, within a key,
// sort in write order.
const TICKS_AT_EPOCH = 621355968000000000n;
const hexTicks = (ms: number): string =>
  (BigInt(ms) * 10000n + TICKS_AT_EPOCH).toString(16).toUpperCase().padStart(16, '0');
export const VERSION_ID = /^[0-9A-F]{16}\.([0-9A-F]{10})\.[0-9A-F]{16}\.[0-9A-F]{2}$/;

export function versionId(createdAt: number, seq: number, at: number): string {
  return `${hexTicks(createdAt)}.${seq.toString(16).toUpperCase().padStart(10, '0')}.${hexTicks(at)}.01`;
}

/** The version of `entry` with this id, if retention kept it (ids are not case-sensitive). */
export function versionById(entry: EntryRec, id: string): VersionRec | undefined {
  const upper = id.toUpperCase();
  const m = VERSION_ID.exec(upper);
  const v = m ? entry.versions[bySeq(entry.versions, parseInt(m[1], 16), (x) => x.seq)] : undefined;
  return v?.id === upper ? v : undefined;
}
