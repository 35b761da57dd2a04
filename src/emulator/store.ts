// The emulator's state. Handlers never mutate it directly: they describe a change as facts and call commit(), which
// writes the facts to the journal (when there is a data dir) and then applies them. Replaying the journal on start
// goes through the same apply(), so a restarted emulator holds exactly what the running one answered.
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { Journal } from './journal';

// ---- data stores ----

interface EntryVersionJson {
  version: string;
  deleted: boolean;
  contentLength: number;
  createdTime: string;
  objectCreatedTime: string;
}

export interface VersionRec {
  id: string;
  seq: number;
  at: number;
  deleted: boolean;
  value: Buffer; // empty for a tombstone
  attrs?: string; // JSON object text, ASCII only
  uids: string; // JSON array text
  /** Response headers for Get Entry / Get Version / 412, computed once. */
  headers: Record<string, string>;
  item: EntryVersionJson;
}

export interface EntryRec {
  key: string;
  createdAt: number;
  /** Every write, oldest first; the last one is current. All versions are kept (no hourly merge, no expiry). */
  versions: VersionRec[];
}

interface ScopeRec {
  keys: string[]; // sorted (UTF-16 code unit order)
  entries: Map<string, EntryRec>;
}

export interface StoreRec {
  name: string;
  createdAt: number;
  scopeNames: string[]; // sorted
  scopes: Map<string, ScopeRec>;
}

// ---- user restrictions ----

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

interface IdemRec {
  fp: string;
  at: number;
  body: unknown;
}

export interface Universe {
  id: number;
  storeNames: string[]; // sorted
  stores: Map<string, StoreRec>;
  bans: Map<number, Restriction>; // universe level, by user id
  placeBans: Map<number, Map<number, Restriction>>; // place id -> user id -> restriction
  logs: LogRec[]; // oldest first
  idem: Map<string, IdemRec>;
}

// ---- assets ----

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

export type Fact =
  | {
      t: 'ds';
      u: number;
      store: string;
      scope: string;
      key: string;
      seq: number;
      at: number;
      deleted: boolean;
      value: Buffer;
      attrs?: string;
      uids: string;
    }
  | { t: 'ban'; u: number; place?: number; user: number; r: Restriction }
  | { t: 'log'; u: number; log: LogRec }
  | { t: 'idem'; u: number; key: string; rec: IdemRec }
  | { t: 'asset'; a: AssetMeta }
  | { t: 'aver'; id: string; v: AssetVersionRec }
  | { t: 'op'; op: OperationRec }
  | { t: 'seeded'; name: string };

/** How long an idempotency key is remembered (and how old `firstSent` may be). */
export const IDEMPOTENCY_MS = 24 * 60 * 60 * 1000;

export class Store {
  universes = new Map<number, Universe>();
  assets = new Map<string, AssetRec>();
  operations = new Map<string, OperationRec>();
  seeded = new Set<string>();
  /** Highest sequence number used by any data store version or log entry. */
  seq = 0;
  /** Highest numeric asset id. */
  lastAssetId = 0;
  private journal: Journal | undefined;

  constructor(private readonly entryHeaderPrefix: string) {}

  /** Loads and compacts the journal in `dataDir`; from then on every commit is appended to it. */
  open(dataDir: string, warn: (line: string) => void): void {
    const file = path.join(dataDir, 'journal.jsonl');
    Journal.read(file, warn).forEach((line, i) => {
      try {
        for (const fact of line as Fact[]) this.apply(decode(fact));
      } catch (err) {
        warn(`journal: skipped record ${i + 1}: ${(err as Error).message}`);
      }
    });
    this.journal = new Journal(file);
    this.journal.rewrite(this.dump());
  }

  commit(facts: Fact[]): void {
    this.journal?.append(JSON.stringify(facts.map(encode)));
    for (const f of facts) this.apply(f);
  }

  /** Forgets everything, the journal too. */
  reset(): void {
    this.universes.clear();
    this.assets.clear();
    this.operations.clear();
    this.seeded.clear();
    this.seq = 0;
    this.lastAssetId = 0;
    this.journal?.rewrite([]);
  }

  close(): void {
    this.journal?.close();
    this.journal = undefined;
  }

  universe(id: number): Universe {
    let u = this.universes.get(id);
    if (!u) {
      u = { id, storeNames: [], stores: new Map(), bans: new Map(), placeBans: new Map(), logs: [], idem: new Map() };
      this.universes.set(id, u);
    }
    return u;
  }

  entry(u: number, store: string, scope: string, key: string): EntryRec | undefined {
    return this.universes.get(u)?.stores.get(store)?.scopes.get(scope)?.entries.get(key);
  }

  private apply(f: Fact): void {
    switch (f.t) {
      case 'ds':
        return this.applyVersion(f);
      case 'ban': {
        const u = this.universe(f.u);
        if (f.place === undefined) u.bans.set(f.user, f.r);
        else {
          let place = u.placeBans.get(f.place);
          if (!place) u.placeBans.set(f.place, (place = new Map()));
          place.set(f.user, f.r);
        }
        return;
      }
      case 'log':
        this.universe(f.u).logs.push(f.log);
        this.seq = Math.max(this.seq, f.log.seq);
        return;
      case 'idem':
        this.universe(f.u).idem.set(f.key, f.rec);
        return;
      case 'asset': {
        const current = this.assets.get(f.a.id);
        this.assets.set(f.a.id, { ...f.a, versions: current?.versions ?? [] });
        this.lastAssetId = Math.max(this.lastAssetId, Number(f.a.id));
        return;
      }
      case 'aver':
        this.assets.get(f.id)?.versions.push(f.v);
        return;
      case 'op':
        this.operations.set(f.op.id, f.op);
        return;
      case 'seeded':
        this.seeded.add(f.name);
        return;
    }
  }

  private applyVersion(f: Extract<Fact, { t: 'ds' }>): void {
    const u = this.universe(f.u);
    let store = u.stores.get(f.store);
    if (!store) {
      store = { name: f.store, createdAt: f.at, scopeNames: [], scopes: new Map() };
      u.stores.set(f.store, store);
      insertSorted(u.storeNames, f.store);
    }
    let scope = store.scopes.get(f.scope);
    if (!scope) {
      scope = { keys: [], entries: new Map() };
      store.scopes.set(f.scope, scope);
      insertSorted(store.scopeNames, f.scope);
    }
    let entry = scope.entries.get(f.key);
    if (!entry) {
      entry = { key: f.key, createdAt: f.at, versions: [] };
      scope.entries.set(f.key, entry);
      insertSorted(scope.keys, f.key);
    }
    entry.versions.push(this.makeVersion(entry, f));
    this.seq = Math.max(this.seq, f.seq);
  }

  private makeVersion(entry: EntryRec, f: Extract<Fact, { t: 'ds' }>): VersionRec {
    const id = versionId(entry.createdAt, f.seq, f.at);
    const p = this.entryHeaderPrefix;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(f.value.length),
      'content-md5': createHash('md5').update(f.value).digest('base64'),
      [`${p}-entry-version`]: id,
      [`${p}-entry-created-time`]: dotnetTime(entry.createdAt),
      [`${p}-entry-version-created-time`]: dotnetTime(f.at),
      [`${p}-entry-userids`]: f.uids,
    };
    // Attributes are sent only when the version has some; user ids always (an empty list is "[]").
    if (f.attrs !== undefined) headers[`${p}-entry-attributes`] = f.attrs;
    return {
      id,
      seq: f.seq,
      at: f.at,
      deleted: f.deleted,
      value: f.value,
      attrs: f.attrs,
      uids: f.uids,
      headers,
      item: {
        version: id,
        deleted: f.deleted,
        contentLength: f.value.length,
        createdTime: new Date(f.at).toISOString(),
        objectCreatedTime: new Date(entry.createdAt).toISOString(),
      },
    };
  }

  /** The whole state as facts, one per line: what compaction writes. */
  private *dump(): Generator<string> {
    const line = (f: Fact): string => JSON.stringify([encode(f)]);
    for (const name of this.seeded) yield line({ t: 'seeded', name });
    for (const u of this.universes.values()) {
      for (const store of u.stores.values()) {
        for (const [scopeName, scope] of store.scopes) {
          for (const entry of scope.entries.values()) {
            for (const v of entry.versions) {
              yield line({
                t: 'ds',
                u: u.id,
                store: store.name,
                scope: scopeName,
                key: entry.key,
                seq: v.seq,
                at: v.at,
                deleted: v.deleted,
                value: v.value,
                attrs: v.attrs,
                uids: v.uids,
              });
            }
          }
        }
      }
      for (const [user, r] of u.bans) yield line({ t: 'ban', u: u.id, user, r });
      for (const [place, bans] of u.placeBans) {
        for (const [user, r] of bans) yield line({ t: 'ban', u: u.id, place, user, r });
      }
      for (const log of u.logs) yield line({ t: 'log', u: u.id, log });
      const now = Date.now();
      for (const [key, rec] of u.idem) if (now - rec.at < IDEMPOTENCY_MS) yield line({ t: 'idem', u: u.id, key, rec });
    }
    for (const { versions, ...meta } of this.assets.values()) {
      yield line({ t: 'asset', a: meta });
      for (const v of versions) yield line({ t: 'aver', id: meta.id, v });
    }
    for (const op of this.operations.values()) yield line({ t: 'op', op });
  }
}

// Values are bytes; in the journal they are base64.
function encode(f: Fact): unknown {
  return f.t === 'ds' ? { ...f, value: f.value.toString('base64') } : f;
}

function decode(f: Fact): Fact {
  return f.t === 'ds' ? { ...f, value: Buffer.from(f.value as unknown as string, 'base64') } : f;
}

function insertSorted(list: string[], item: string): void {
  list.splice(lowerBound(list, item), 0, item);
}

/** Index of the first element >= item. */
export function lowerBound(list: string[], item: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < item) lo = mid + 1;
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

function versionId(createdAt: number, seq: number, at: number): string {
  return `${hexTicks(createdAt)}.${seq.toString(16).toUpperCase().padStart(10, '0')}.${hexTicks(at)}.01`;
}

/** .NET style time as in the entry headers: 2022-02-02T23:30:06.5388000+00:00. */
function dotnetTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}0000+00:00`;
}
