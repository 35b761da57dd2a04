// The one owner of open-entry state: it reads an entry for its document and records what the document shows, writes
// a document through the model and records the version written, and asks for a clean document to be reloaded (the
// entry file system follows that event) when the product writes its entry elsewhere.
import vscode = require('vscode');
import type { EntryVersion } from '../../api';
import type { EntryChange } from '../changes';
import type { DataStoresModel } from '../model';
import type { EntryAddress } from './entryPath';
import { entryKey, OpenEntries, type Base, type EntryState } from './openEntries';
import { entryUri } from './uris';

export class EntryEditor implements vscode.Disposable {
  /** The entries open as documents: what each shows and the version its edits are based on. */
  readonly entries: OpenEntries;
  private readonly reloadAsked = new vscode.EventEmitter<vscode.Uri>();
  /** The entry's document should read it again (a clean one then shows the service's value). */
  readonly onDidAskReload = this.reloadAsked.event;
  private readonly shownChanged = new vscode.EventEmitter<EntryAddress>();
  /** What an entry's document shows was read or written anew (its notes and read-only state may change). */
  readonly onDidShow = this.shownChanged.event;
  /** Entries this editor is writing: the model's change event for them is this editor's own write. */
  private readonly writing = new Set<string>();
  private readonly following: vscode.Disposable;

  /** `workspaceState` keeps the bases of dirty documents across a window reload. */
  constructor(
    readonly model: DataStoresModel,
    workspaceState: vscode.Memento,
  ) {
    this.entries = new OpenEntries(workspaceState);
    this.following = model.onDidChangeEntry((change) => this.follow(change));
  }

  /** Reads the entry for its document, which now shows it (its base moves too, unless the document is dirty). */
  async load(a: EntryAddress, signal?: AbortSignal): Promise<EntryState> {
    const state = await this.model.current(a, signal);
    this.entries.show(a, state);
    this.shownChanged.fire(a);
    return state;
  }

  /**
   * Writes a document's value, conditioned on its base (see DataStoresModel.writeDocument); the document then shows
   * the version written and its base follows it.
   */
  async write(
    a: EntryAddress,
    text: Uint8Array,
    compact: string,
    base: Base | undefined,
    signal?: AbortSignal,
  ): Promise<EntryVersion> {
    const key = entryKey(a);
    this.writing.add(key);
    let written: EntryVersion;
    try {
      written = await this.model.writeDocument(a, compact, base, signal);
    } finally {
      this.writing.delete(key);
    }
    const mtime = Date.parse(written.createdTime) || Date.now();
    const live = base && !base.deleted;
    const ctime = live ? (this.entries.shown(a)?.ctime ?? mtime) : mtime;
    this.entries.show(a, {
      version: written.version,
      attributes: base?.attributes ?? {},
      userIds: base?.userIds ?? [],
      ctime,
      mtime,
      text,
      compact,
    });
    this.entries.unpin(a);
    this.shownChanged.fire(a);
    return written;
  }

  /** Asks for the entry's document to read it again. */
  reload(uri: vscode.Uri): void {
    this.reloadAsked.fire(uri);
  }

  dispose(): void {
    this.following.dispose();
    this.reloadAsked.dispose();
    this.shownChanged.dispose();
  }

  /**
   * A write from the tree: an open document that is clean shows it (its base moves with it); a dirty one keeps the
   * base its edit started from, so its save goes to the conflict choice instead of overwriting.
   */
  private follow(change: EntryChange): void {
    const a = change.address;
    const shown = this.entries.shown(a);
    if (!shown || shown.version === change.version || this.entries.pinned(a) || this.writing.has(entryKey(a))) return;
    this.reload(entryUri(a));
  }
}
