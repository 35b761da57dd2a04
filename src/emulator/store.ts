// The emulator's state. Handlers never mutate it directly: they describe a change as facts (facts.ts) and call
// commit(), which writes the facts to the journal (when there is a data dir) and then applies them; a write the
// journal refuses is not applied (answered 507 or 503, see errors.ts). Replaying the journal on start goes through
// the same apply(), so a restarted emulator holds exactly what the running one acknowledged. Decisions:
// - Large entry values live in value files (values.ts), written before the journal line that names them. The latest
//   version's value is kept in memory (Get Entry reads no file); older versions' values are read when asked for.
// - Version retention (retention.ts) runs on a key when it is written and over every key in sweep() (periodically and
//   when the clock moves). What it removes is journaled as a `drop` fact, so a restart replays the same history
//   whatever its clock says; a value file is deleted once no version refers to it.
// - apply() is idempotent (a version, log entry or asset version already there is skipped; versions are inserted in
//   sequence order), as a compacted journal may hold a record twice (journal.ts).
// - Old journals (every value inline) are read as they are; their large values move to files as they are loaded.
// - A data store deleted through cloud v2 keeps its entries, marked with the time of the delete (a `dstate` fact;
//   undelete clears it), until it is purged 30 days later (a `purge` fact, written by sweep() or when the store is
//   next looked up). Snapshots are `snapshot` facts, kept while they may still hold versions (retention.ts).
import path = require('node:path');
import { iso, type Clock } from './clock';
import { ApiError, refusedWrite } from './errors';
import { compactedLines, decodeFact, encodeFact, type DsFact, type Fact } from './facts';
import { Journal, type JournalFault } from './journal';
import { applyMemoryFact } from './memory-facts';
import {
  bySeq,
  insertSorted,
  lowerBound,
  newUniverse,
  versionId,
  type AssetRec,
  type EntryRec,
  type OperationRec,
  type StoreRec,
  type Universe,
  type VersionRec,
} from './records';
import { expiredVersions, mayExpire, purgeDue } from './retention';
import { INLINE_MAX_BYTES, ValueFiles } from './values';

/** The journal is compacted once it is twice its compacted size and at least this large. */
const COMPACT_MIN_BYTES = 1024 * 1024;
const DROPS_PER_LINE = 500;

export interface StoreFiles {
  dataDir: string;
  /** Whether the journal may still be replaced (this emulator holds the data folder's lock). */
  mayReplace: () => boolean;
  fault?: JournalFault;
}

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
  private values: ValueFiles | undefined;
  private mayReplace: () => boolean = () => true;
  /** While the journal is replayed: no value files read (nor removed, see ValueFiles.keepUnreferenced). */
  private loading = false;

  constructor(
    private readonly clock: Clock,
    private readonly log: (line: string) => void,
  ) {}

  /** Loads the journal in `files.dataDir`; from then on every commit is appended to it. Compacts it in the background. */
  async open(files: StoreFiles): Promise<void> {
    const values = (this.values = ValueFiles.open(files.dataDir));
    this.mayReplace = files.mayReplace;
    this.loading = values.keepUnreferenced = true;
    try {
      this.journal = await Journal.open(
        path.join(files.dataDir, 'journal.jsonl'),
        this.log,
        (line, n) => {
          try {
            for (const raw of line as unknown[]) {
              const fact = decodeFact(raw as Record<string, unknown>);
              this.moveToFile(fact);
              this.apply(fact);
            }
          } catch (err) {
            this.log(`journal: skipped record ${n}: ${(err as Error).message}`);
          }
        },
        files.fault,
      );
    } finally {
      this.loading = values.keepUnreferenced = false;
    }
    this.loadLatestValues();
    values.removeUnreferenced();
    this.sweep();
    void this.compact();
  }

  /** Journals the facts, then applies them; throws an ApiError (507, 503) when the journal refuses them. */
  commit(facts: Fact[]): void {
    if (this.journal) {
      const put: string[] = [];
      try {
        for (const f of facts)
          if (f.t === 'ds' && f.value && f.value.length > INLINE_MAX_BYTES)
            put.push((f.hash = this.values!.put(f.value)));
        this.journal.append(JSON.stringify(facts.map(encodeFact)));
      } catch (err) {
        // Nothing of a refused write stays: the value files it wrote go, unless a version refers to them.
        for (const hash of put) this.values!.discard(hash);
        throw refusedWrite(err, this.journal.isBroken);
      }
    }
    for (const f of facts) this.apply(f);
    const written = facts.filter((f): f is DsFact => f.t === 'ds');
    if (written.length) this.expire(written);
  }

  /** Applies retention to every key and purges deleted data stores due (periodically, and when the clock moves). */
  sweep(): void {
    const now = this.clock.now();
    const drops: Fact[] = [];
    for (const u of this.universes.values())
      for (const store of u.stores.values())
        if (purgeDue(store, now)) this.commitQuietly([{ t: 'purge', u: u.id, store: store.name }]);
    for (const [u, store, scope, entry] of this.entries()) {
      if (!mayExpire(entry.versions)) continue;
      const seqs = expiredVersions(entry.versions, now, snapshotSeqs(u));
      if (seqs.length) drops.push({ t: 'drop', u: u.id, store: store.name, scope, key: entry.key, seqs });
    }
    for (let i = 0; i < drops.length; i += DROPS_PER_LINE) this.commitQuietly(drops.slice(i, i + DROPS_PER_LINE));
  }

  /** A data store, deleted or not; one whose deletion has run its course is purged here, if sweep() has not yet. */
  dataStore(u: number, name: string): StoreRec | undefined {
    const store = this.universes.get(u)?.stores.get(name);
    if (store && purgeDue(store, this.clock.now())) this.commitQuietly([{ t: 'purge', u, store: name }]);
    return this.universes.get(u)?.stores.get(name);
  }

  /** Compacts the journal when it has grown to twice its compacted size. */
  compactIfGrown(): void {
    const j = this.journal;
    if (j && j.size > Math.max(COMPACT_MIN_BYTES, 2 * j.compactedSize)) void this.compact();
  }

  /** Rewrites the journal from the state (in slices, see journal.ts), then removes value files nothing refers to. */
  async compact(): Promise<void> {
    const j = this.journal;
    if (!j || j.compacting || j.isBroken) return;
    try {
      if (
        await j.compact(
          compactedLines(this, () => this.clock.now()),
          this.mayReplace,
        )
      )
        this.values?.removeUnreferenced();
      else if (j === this.journal && !this.mayReplace())
        this.log('journal: not compacted, the data folder lock is gone');
    } catch (err) {
      this.log(`journal: compaction failed, the journal is kept as it was: ${(err as Error).message}`);
    }
  }

  /** Forgets everything, the journal and the value files too. */
  reset(): void {
    this.universes.clear();
    this.assets.clear();
    this.operations.clear();
    this.seeded.clear();
    this.seq = 0;
    this.lastAssetId = 0;
    this.journal?.clear();
    this.values?.clear();
  }

  close(): void {
    this.journal?.close();
    this.journal = undefined;
  }

  universe(id: number): Universe {
    let u = this.universes.get(id);
    if (!u) this.universes.set(id, (u = newUniverse(id)));
    return u;
  }

  entry(u: number, store: string, scope: string, key: string): EntryRec | undefined {
    return this.universes.get(u)?.stores.get(store)?.scopes.get(scope)?.entries.get(key);
  }

  /** A version's value; an older version's is read from its file. */
  readValue(v: VersionRec): Buffer {
    if (v.value) return v.value;
    try {
      return this.values!.read(v.hash!);
    } catch {
      throw new ApiError(500, `The value file of version ${v.id} is missing from the data folder.`);
    }
  }

  private *entries(): Generator<[Universe, StoreRec, string, EntryRec]> {
    for (const u of this.universes.values())
      for (const store of u.stores.values())
        for (const [scopeName, scope] of store.scopes)
          for (const entry of scope.entries.values()) yield [u, store, scopeName, entry];
  }

  private commitQuietly(facts: Fact[]): void {
    try {
      this.commit(facts);
    } catch (err) {
      this.log(`could not record expired versions (tried again later): ${(err as Error).message}`);
    }
  }

  /** Retention for the keys just written. */
  private expire(written: DsFact[]): void {
    const now = this.clock.now();
    const drops: Fact[] = [];
    const seen = new Set<EntryRec>();
    for (const f of written) {
      const entry = this.entry(f.u, f.store, f.scope, f.key);
      if (!entry || seen.has(entry) || !mayExpire(entry.versions)) continue;
      seen.add(entry);
      const seqs = expiredVersions(entry.versions, now, snapshotSeqs(this.universes.get(f.u)!));
      if (seqs.length) drops.push({ t: 'drop', u: f.u, store: f.store, scope: f.scope, key: f.key, seqs });
    }
    if (drops.length) this.commitQuietly(drops);
  }

  private apply(f: Fact): void {
    switch (f.t) {
      case 'ds':
        return this.applyVersion(f);
      case 'drop':
        return this.applyDrop(f);
      case 'dstate': {
        const store = this.universes.get(f.u)?.stores.get(f.store);
        if (store) store.deletedAt = f.deletedAt;
        return;
      }
      case 'purge':
        return this.applyPurge(f.u, f.store);
      case 'snapshot': {
        const snapshots = this.universe(f.u).snapshots;
        const i = bySeq(snapshots, f.snap.seq, (s) => s.seq);
        if (snapshots[i]?.seq !== f.snap.seq) snapshots.splice(i, 0, f.snap);
        this.seq = Math.max(this.seq, f.snap.seq);
        return;
      }
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
      case 'log': {
        const logs = this.universe(f.u).logs;
        const i = bySeq(logs, f.log.seq, (l) => l.seq);
        if (logs[i]?.seq !== f.log.seq) logs.splice(i, 0, f.log);
        this.seq = Math.max(this.seq, f.log.seq);
        return;
      }
      case 'idem':
        this.universe(f.u).idem.set(f.key, f.rec);
        return;
      case 'asset': {
        const current = this.assets.get(f.a.id);
        this.assets.set(f.a.id, { ...f.a, versions: current?.versions ?? [] });
        this.lastAssetId = Math.max(this.lastAssetId, Number(f.a.id));
        return;
      }
      case 'aver': {
        const versions = this.assets.get(f.id)?.versions;
        if (versions && versions.length < f.v.n) versions.push(f.v);
        return;
      }
      case 'op':
        this.operations.set(f.op.id, f.op);
        return;
      case 'seeded':
        this.seeded.add(f.name);
        return;
      default:
        return applyMemoryFact(this.universe(f.u), f);
    }
  }

  private applyVersion(f: DsFact): void {
    const u = this.universe(f.u);
    let store = u.stores.get(f.store);
    if (!store) {
      store = { name: f.store, createdAt: f.sc ?? f.at, scopeNames: [], scopes: new Map() };
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
      entry = { key: f.key, createdAt: f.c ?? f.at, versions: [] };
      scope.entries.set(f.key, entry);
      insertSorted(scope.keys, f.key);
    }
    this.seq = Math.max(this.seq, f.seq);
    const versions = entry.versions;
    const i = bySeq(versions, f.seq, (v) => v.seq);
    if (versions[i]?.seq === f.seq) return;
    const v = this.makeVersion(entry, f);
    versions.splice(i, 0, v);
    if (v.hash) this.values?.ref(v.hash);
    const next = versions[i + 1];
    if (next) {
      v.until ??= next.at;
      this.forgetValue(v);
    } else if (i > 0) {
      versions[i - 1].until ??= f.at;
      this.forgetValue(versions[i - 1]);
    }
  }

  /** An older version's value is read from its file when asked for, not kept. */
  private forgetValue(v: VersionRec): void {
    if (v.hash) v.value = undefined;
  }

  private applyDrop(f: Extract<Fact, { t: 'drop' }>): void {
    const store = this.universes.get(f.u)?.stores.get(f.store);
    const scope = store?.scopes.get(f.scope);
    const entry = scope?.entries.get(f.key);
    if (!store || !scope || !entry) return;
    const seqs = new Set(f.seqs);
    const kept: VersionRec[] = [];
    for (const v of entry.versions) {
      if (!seqs.has(v.seq)) kept.push(v);
      else if (v.hash) this.values?.unref(v.hash);
    }
    if (kept.length === entry.versions.length) return;
    entry.versions = kept;
    if (kept.length) return this.loadValue(entry);
    // Purged for good: the key goes, and its scope and data store when they hold nothing else.
    scope.entries.delete(f.key);
    scope.keys.splice(lowerBound(scope.keys, f.key), 1);
    if (scope.entries.size) return;
    store.scopes.delete(f.scope);
    store.scopeNames.splice(lowerBound(store.scopeNames, f.scope), 1);
    if (store.scopes.size) return;
    const u = this.universes.get(f.u)!;
    u.stores.delete(f.store);
    u.storeNames.splice(lowerBound(u.storeNames, f.store), 1);
  }

  private applyPurge(id: number, name: string): void {
    const u = this.universes.get(id);
    const store = u?.stores.get(name);
    if (!u || !store) return;
    for (const scope of store.scopes.values())
      for (const entry of scope.entries.values())
        for (const v of entry.versions) if (v.hash) this.values?.unref(v.hash);
    u.stores.delete(name);
    u.storeNames.splice(lowerBound(u.storeNames, name), 1);
  }

  /** Reads the latest version's value into memory (not while replaying: only the final latest ones are read). */
  private loadValue(entry: EntryRec): void {
    const v = entry.versions[entry.versions.length - 1];
    if (this.loading || v.value) return;
    v.value = this.values!.read(v.hash!);
  }

  /** After the replay: every latest value in memory. A version whose file is missing is left out (with a warning). */
  private loadLatestValues(): void {
    for (const [u, store, scope, entry] of this.entries()) {
      for (;;) {
        const v = entry.versions[entry.versions.length - 1];
        try {
          this.loadValue(entry);
          break;
        } catch {
          this.log(
            `journal: the value file of ${u.id}/${store.name}/${scope}/${entry.key} version ${v.id} is missing; that version is left out`,
          );
          this.applyDrop({ t: 'drop', u: u.id, store: store.name, scope, key: entry.key, seqs: [v.seq] });
          if (!entry.versions.length) break;
        }
      }
    }
  }

  private makeVersion(entry: EntryRec, f: DsFact): VersionRec {
    const id = versionId(entry.createdAt, f.seq, f.at);
    const size = f.value?.length ?? f.size ?? 0;
    const v: VersionRec = {
      id,
      seq: f.seq,
      at: f.at,
      until: f.until,
      deleted: f.deleted,
      size,
      hash: f.hash,
      value: f.value,
      attrs: f.attrs,
      uids: f.uids,
      item: {
        version: id,
        deleted: f.deleted,
        contentLength: size,
        createdTime: iso(f.at),
        objectCreatedTime: iso(entry.createdAt),
      },
    };
    return v;
  }

  /** Old journals hold large values inline: they move to files as they are loaded. */
  private moveToFile(f: Fact): void {
    if (f.t !== 'ds' || !f.value || f.value.length <= INLINE_MAX_BYTES || !this.values) return;
    try {
      f.hash = this.values.put(f.value);
      f.value = undefined;
    } catch (err) {
      this.log(`journal: a large value stays in memory, its file could not be written: ${(err as Error).message}`);
    }
  }
}

const snapshotSeqs = (u: Universe): number[] => u.snapshots.map((s) => s.seq);
