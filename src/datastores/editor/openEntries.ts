// The entries open as documents: for each, what its editor last read or wrote (`shown`) and the version the user's
// edits are based on (`base`). While a document is dirty its base is pinned: it stays put whatever the service does
// meanwhile, and it is kept in workspace storage so that a document restored dirty after a window reload is still
// saved against the version it was edited from.
import type vscode = require('vscode');
import type { Entry } from '../../api';
import type { EntryAddress } from './entryPath';
import { formatJson } from './json';

/** An entry as the service holds it (or, `deleted`, held it last), as its document shows it. */
export interface EntryState {
  version: string;
  attributes: Record<string, unknown>;
  userIds: number[];
  /** Creation time and version time, ms (stat()'s ctime and mtime). */
  ctime: number;
  mtime: number;
  /** The document's text: the value pretty-printed, or as it is when it is not JSON. */
  text: Uint8Array;
  /** The value's compact JSON; undefined when the service holds text that is not JSON. */
  compact?: string;
  /** The key is deleted in the service; this is its last value, shown read-only. */
  deleted?: boolean;
}

/** What a save is conditioned on and resends: enough of a state to survive a reload. */
export type Base = Pick<EntryState, 'version' | 'attributes' | 'userIds'> &
  Partial<Pick<EntryState, 'compact' | 'deleted'>>;

const encoder = new TextEncoder();

/** How an entry read from the service shows as a document. */
export function toEntryState(entry: Entry, deleted = false): EntryState {
  const raw = entry.raw.toString('utf8');
  let compact: string | undefined;
  let text = raw;
  try {
    if (entry.json) [compact, text] = [formatJson(raw, 0), formatJson(raw) + '\n'];
  } catch {
    // Shown as it is, like any value that is not JSON.
  }
  const mtime = Date.parse(entry.versionCreatedTime ?? '') || 0;
  return {
    version: entry.version,
    attributes: entry.attributes,
    userIds: entry.userIds,
    ctime: Date.parse(entry.createdTime ?? '') || mtime,
    mtime,
    text: encoder.encode(text),
    compact,
    deleted: deleted || undefined,
  };
}

export const entryKey = (a: EntryAddress): string =>
  [a.connectionId, a.universeId, a.datastoreName, a.scope, a.key].map((p) => encodeURIComponent(p)).join('/');

export function sameEntry(a: EntryAddress, b: EntryAddress): boolean {
  return entryKey(a) === entryKey(b);
}

const pinsKey = 'universeExplorer.entryBases';

export class OpenEntries {
  private readonly shownStates = new Map<string, EntryState>();
  private readonly bases = new Map<string, Base>();
  /** Bases of dirty documents, by entry key: kept in workspace storage. */
  private readonly pins: Map<string, Base>;

  constructor(private readonly storage: vscode.Memento) {
    this.pins = new Map(Object.entries(storage.get<Record<string, Base>>(pinsKey, {})));
  }

  /** What the document's editor holds as saved: the last state read or written. */
  shown(a: EntryAddress): EntryState | undefined {
    return this.shownStates.get(entryKey(a));
  }

  /** The version the document's edits are based on: pinned while dirty, else what is shown. */
  base(a: EntryAddress): Base | undefined {
    const key = entryKey(a);
    return this.pins.get(key) ?? this.bases.get(key);
  }

  pinned(a: EntryAddress): boolean {
    return this.pins.has(entryKey(a));
  }

  /** The document shows this state now (it was read, written, or reloaded); a pinned base stays. */
  show(a: EntryAddress, state: EntryState): void {
    const key = entryKey(a);
    this.shownStates.set(key, state);
    this.bases.set(key, state);
  }

  /** The document's edits are now based on `base` (Overwrite after a conflict): pinned when the document is dirty. */
  rebase(a: EntryAddress, base: Base): void {
    const key = entryKey(a);
    this.bases.set(key, base);
    if (this.pins.has(key)) this.setPin(key, base);
  }

  /** The document became dirty: its base stays where it is until it is clean again. */
  pin(a: EntryAddress): void {
    const key = entryKey(a);
    const base = this.pins.get(key) ?? this.bases.get(key);
    if (base && !this.pins.has(key)) this.setPin(key, base);
  }

  /** The document is clean again (saved, reverted) or closed: its base is what it shows. */
  unpin(a: EntryAddress): void {
    const key = entryKey(a);
    const shown = this.shownStates.get(key);
    if (shown) this.bases.set(key, shown);
    if (this.pins.delete(key)) void this.persist();
  }

  /** Forgets a closed document. */
  forget(a: EntryAddress): void {
    const key = entryKey(a);
    this.shownStates.delete(key);
    this.bases.delete(key);
    if (this.pins.delete(key)) void this.persist();
  }

  private setPin(key: string, base: Base): void {
    // The value itself is not kept (up to 4 MiB): only what conditions the save.
    this.pins.set(key, {
      version: base.version,
      attributes: base.attributes,
      userIds: base.userIds,
      deleted: base.deleted,
    });
    void this.persist();
  }

  private persist(): Thenable<void> {
    return this.storage.update(pinsKey, Object.fromEntries(this.pins));
  }
}
