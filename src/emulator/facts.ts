// Facts: how each change to the emulator's state is written to the journal and read back. A journal line is a JSON
// array of facts, one commit. A version's value is inline as base64, or, when it lives in a value file, named by its
// hash and size. Compaction writes the whole state as facts, one per line (compactedLines).
import {
  IDEMPOTENCY_MS,
  type AssetMeta,
  type AssetRec,
  type AssetVersionRec,
  type IdemRec,
  type LogRec,
  type OperationRec,
  type Restriction,
  type Snapshot,
  type Universe,
} from './records';
import { memoryFacts, type MemoryFact } from './memory-facts';
import { HOUR_MS, KEEP_MS } from './retention';

export type DsFact = {
  t: 'ds';
  u: number;
  store: string;
  scope: string;
  key: string;
  seq: number;
  at: number;
  deleted: boolean;
  /** Always given by a handler; absent when replayed from a file-backed line (`hash`, `size`). */
  value?: Buffer;
  hash?: string;
  size?: number;
  attrs?: string;
  uids: string;
  /** Written by compaction only, where replay would not derive them: the entry's and the data store's created
   * times (on their first line), the time the version was superseded. */
  c?: number;
  sc?: number;
  until?: number;
};

export type Fact =
  | DsFact
  | { t: 'drop'; u: number; store: string; scope: string; key: string; seqs: number[] }
  | { t: 'dstate'; u: number; store: string; deletedAt?: number }
  | { t: 'purge'; u: number; store: string }
  | { t: 'snapshot'; u: number; snap: Snapshot }
  | { t: 'ban'; u: number; place?: number; user: number; r: Restriction }
  | { t: 'log'; u: number; log: LogRec }
  | { t: 'idem'; u: number; key: string; rec: IdemRec }
  | { t: 'asset'; a: AssetMeta }
  | { t: 'aver'; id: string; v: AssetVersionRec }
  | { t: 'op'; op: OperationRec }
  | { t: 'seeded'; name: string }
  | MemoryFact;

/** A fact as its journal record: a value in a file is named by its hash and size; an inline one is base64. */
export function encodeFact(f: Fact): unknown {
  if (f.t !== 'ds') return f;
  const { value, ...rest } = f;
  return f.hash
    ? { ...rest, size: f.size ?? value?.length }
    : { ...rest, size: undefined, value: value!.toString('base64') };
}

/** A journal record as a fact; throws when a version's value is neither inline nor a well-formed hash. */
export function decodeFact(raw: Record<string, unknown>): Fact {
  if (raw.t !== 'ds') return raw as Fact;
  const f = { ...raw, value: typeof raw.value === 'string' ? Buffer.from(raw.value, 'base64') : undefined } as DsFact;
  if (f.hash !== undefined && !/^[0-9a-f]{64}$/.test(f.hash)) throw new Error(`bad value hash ${f.hash}`);
  if (!f.value && f.hash === undefined) throw new Error('a version without a value');
  return f;
}

/** What compaction writes out. */
export interface State {
  seeded: ReadonlySet<string>;
  universes: ReadonlyMap<number, Universe>;
  assets: ReadonlyMap<string, AssetRec>;
  operations: ReadonlyMap<string, OperationRec>;
}

/**
 * The whole state as journal lines, one fact each: what compaction writes. Each entry's versions are copied as it is
 * reached; `now` is read once per universe.
 */
export function* compactedLines(state: State, now: () => number): Generator<string> {
  const line = (f: Fact): string => JSON.stringify([encodeFact(f)]);
  for (const name of state.seeded) yield line({ t: 'seeded', name });
  for (const u of state.universes.values()) {
    for (const store of u.stores.values()) {
      let storeCreated: number | undefined = store.createdAt;
      for (const [scopeName, scope] of store.scopes) {
        for (const entry of scope.entries.values()) {
          const versions = [...entry.versions];
          for (let i = 0; i < versions.length; i++) {
            const v = versions[i];
            yield line({
              t: 'ds',
              u: u.id,
              store: store.name,
              scope: scopeName,
              key: entry.key,
              seq: v.seq,
              at: v.at,
              deleted: v.deleted,
              value: v.hash ? undefined : v.value,
              hash: v.hash,
              size: v.size,
              attrs: v.attrs,
              uids: v.uids,
              c: i === 0 ? unlessDerived(entry.createdAt, v.at) : undefined,
              sc: unlessDerived(storeCreated, v.at),
              until: unlessDerived(v.until, versions[i + 1]?.at),
            });
            storeCreated = undefined;
          }
        }
      }
      const deletedAt = store.deletedAt;
      if (deletedAt !== undefined) yield line({ t: 'dstate', u: u.id, store: store.name, deletedAt });
    }
    const at = now();
    // The latest snapshot (its time is reported), and those that may still hold versions.
    const last = u.snapshots[u.snapshots.length - 1];
    for (const snap of u.snapshots)
      if (snap === last || at - snap.at < KEEP_MS + 2 * HOUR_MS) yield line({ t: 'snapshot', u: u.id, snap });
    for (const [user, r] of u.bans) yield line({ t: 'ban', u: u.id, user, r });
    for (const [place, bans] of u.placeBans) {
      for (const [user, r] of bans) yield line({ t: 'ban', u: u.id, place, user, r });
    }
    for (const log of u.logs) yield line({ t: 'log', u: u.id, log });
    for (const [key, rec] of u.idem) if (at - rec.at < IDEMPOTENCY_MS) yield line({ t: 'idem', u: u.id, key, rec });
    for (const f of memoryFacts(u, at)) yield line(f);
  }
  for (const { versions, ...meta } of state.assets.values()) {
    yield line({ t: 'asset', a: meta });
    for (const v of versions) yield line({ t: 'aver', id: meta.id, v });
  }
  for (const op of state.operations.values()) yield line({ t: 'op', op });
}

/** A time replay cannot derive from the lines themselves (what it came from may have been thinned), else undefined. */
const unlessDerived = (t: number | undefined, derived: number | undefined): number | undefined =>
  t !== derived ? t : undefined;
