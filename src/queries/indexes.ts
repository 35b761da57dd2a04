// The query index of each universe (src/query), kept under the extension's global storage, and what each one covers,
// so the tree can say it without opening DuckDB at every redraw.
import fs = require('node:fs');
import path = require('node:path');
import vscode = require('vscode');
import type { Connections } from '../core/connections';
import { t } from '../core/text';
import { localTime, timeOfDay } from '../core/time';
import { universeKey, type UniverseAddress } from '../core/universe';
import { UniverseIndex, type IndexedPart, type JsonFields } from '../query';

/** globalState: per universe key, the stores written in bulk (restore, import) and when (ms), shared by windows. */
const bulkKey = 'universeExplorer.queryIndexWrittenInBulk';
type BulkWrites = Record<string, Record<string, number>>;

export class QueryIndexes implements vscode.Disposable {
  private readonly indexes = new Map<string, UniverseIndex>();
  private readonly parts = new Map<string, IndexedPart[]>();
  /** The JSON fields of each index's values, read on first use and again after a build. */
  private readonly fieldsRead = new Map<string, Promise<JsonFields>>();
  private readonly changed = new vscode.EventEmitter<UniverseAddress>();
  /** A universe's index was built, refreshed or read for the first time. */
  readonly onDidChange = this.changed.event;

  constructor(
    readonly connections: Connections,
    /** `<global storage>/query`: one folder per universe. */
    readonly dir: string,
    /** globalState (written one update at a time: core/state.ts). */
    private readonly state: vscode.Memento,
  ) {}

  static under(connections: Connections, storageDir: string, state: vscode.Memento): QueryIndexes {
    return new QueryIndexes(connections, path.join(storageDir, 'query'), state);
  }

  index(u: UniverseAddress): UniverseIndex {
    const key = universeKey(u);
    let index = this.indexes.get(key);
    if (!index) {
      index = new UniverseIndex({ dir: this.dir, universeKey: key, universeId: u.universeId });
      this.indexes.set(key, index);
    }
    return index;
  }

  /** What the index covers, as last read (undefined: not read yet). */
  known(u: UniverseAddress): IndexedPart[] | undefined {
    return this.parts.get(universeKey(u));
  }

  /** Reads what the index covers again, and tells the tree. The JSON fields are read again when next asked. */
  async reload(u: UniverseAddress): Promise<IndexedPart[]> {
    this.fieldsRead.delete(universeKey(u));
    const parts = await this.index(u).info();
    this.parts.set(universeKey(u), parts);
    const marks = this.state.get<BulkWrites>(bulkKey, {})[universeKey(u)] ?? {};
    const kept = writtenSince(parts, marks);
    if (Object.keys(marks).length !== kept.length) await this.setMarks(u, Object.fromEntries(kept));
    this.changed.fire(u);
    return parts;
  }

  /** A bulk run wrote the store: when the index holds it, its rows are marked as read before that. */
  async writtenInBulk(u: UniverseAddress, store: string): Promise<void> {
    if (!(await this.covered(u)).some((p) => p.store === store)) return;
    const marks = this.state.get<BulkWrites>(bulkKey, {})[universeKey(u)] ?? {};
    await this.setMarks(u, { ...marks, [store]: Date.now() });
    this.changed.fire(u);
  }

  /** The indexed stores written in bulk after the index read them, and when (ms). */
  writtenSince(u: UniverseAddress): [string, number][] {
    const parts = this.known(u) ?? [];
    return writtenSince(parts, this.state.get<BulkWrites>(bulkKey, {})[universeKey(u)] ?? {});
  }

  private async setMarks(u: UniverseAddress, marks: Record<string, number>): Promise<void> {
    const all = { ...this.state.get<BulkWrites>(bulkKey, {}) };
    if (Object.keys(marks).length) all[universeKey(u)] = marks;
    else delete all[universeKey(u)];
    await this.state.update(bulkKey, all);
  }

  /** What the index covers, read once. */
  async covered(u: UniverseAddress): Promise<IndexedPart[]> {
    return this.known(u) ?? this.reload(u);
  }

  /**
   * The keys the index ties to a user (their user ids hold the id, or their key names it), with what the index covers;
   * undefined when the universe has no index. Opens DuckDB only when the index file is there.
   */
  async playerKeys(
    u: UniverseAddress,
    userId: number,
    signal?: AbortSignal,
  ): Promise<{ parts: IndexedPart[]; keys: { store: string; scope: string; key: string }[] } | undefined> {
    if (!fs.existsSync(this.index(u).file)) return undefined;
    const parts = await this.covered(u);
    if (!parts.length) return undefined;
    const { rows } = await this.index(u).playerEntries(userId, { signal, limit: Number.MAX_SAFE_INTEGER });
    return {
      parts,
      keys: rows.map(([store, scope, key]) => ({ store: `${store}`, scope: `${scope}`, key: `${key}` })),
    };
  }

  /**
   * The JSON fields seen in the index's values (for completions), read once per build; undefined when the universe
   * has no index file (nothing is opened then). A failed read is tried again on the next call.
   */
  async fields(u: UniverseAddress): Promise<JsonFields | undefined> {
    const key = universeKey(u);
    let read = this.fieldsRead.get(key);
    if (!read) {
      const index = this.index(u);
      if (!fs.existsSync(index.file)) return undefined;
      read = index.jsonFields();
      this.fieldsRead.set(key, read);
      read.catch(() => {
        if (this.fieldsRead.get(key) === read) this.fieldsRead.delete(key);
      });
    }
    return read;
  }

  dispose(): void {
    this.changed.dispose();
    for (const index of this.indexes.values()) void index.close();
    this.indexes.clear();
  }
}

/** "PlayerData, Inventory · 40,312 entries · as of 10:32, 2 hours ago", or undefined when nothing is indexed. */
export function describeCoverage(parts: readonly IndexedPart[], now = Date.now()): string | undefined {
  if (!parts.length) return undefined;
  const stores = [...new Set(parts.map((p) => (p.scope === undefined ? p.store : `${p.store} (${p.scope})`)))];
  const entries = parts.reduce((n, p) => n + p.entries, 0);
  const oldest = parts.map((p) => utcMs(p.asOf)).reduce((a, b) => Math.min(a, b));
  return t`${stores.join(', ')} · ${entries.toLocaleString()} entries · as of ${timeOfDay(oldest)}, ${ago(oldest, now)}`;
}

/** One line per store: its entries, when it was read and from where. */
export function coverageTooltip(parts: readonly IndexedPart[]): string {
  return parts
    .map((p) => {
      const name = p.scope === undefined ? p.store : `${p.store} (${p.scope})`;
      const failed = p.failed ? t`, ${p.failed} could not be read` : '';
      return t`${name}: ${p.entries.toLocaleString()} entries as of ${localTime(utcMs(p.asOf))}${failed}`;
    })
    .join('\n');
}

/** The marked stores whose rows (any of them) were read before their mark. */
function writtenSince(parts: readonly IndexedPart[], marks: Record<string, number>): [string, number][] {
  return Object.entries(marks).filter(([store, at]) => parts.some((p) => p.store === store && utcMs(p.asOf) < at));
}

/** index_info's times are UTC without a zone. */
function utcMs(time: string): number {
  return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(time) ? time : `${time.replace(' ', 'T')}Z`);
}

export function ago(ms: number, now = Date.now()): string {
  const minutes = Math.max(0, Math.round((now - ms) / 60_000));
  if (minutes < 1) return t`just now`;
  if (minutes < 60) return minutes === 1 ? t`1 minute ago` : t`${minutes} minutes ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return hours === 1 ? t`1 hour ago` : t`${hours} hours ago`;
  return t`${Math.round(hours / 24)} days ago`;
}
