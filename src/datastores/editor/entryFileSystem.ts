import vscode = require('vscode');
import { NotFoundError } from '../../api';
import { isReadOnly } from '../../core/universe';
import { t } from '../../core/text';
import type { EntryAddress } from './entryPath';
import type { DataStoresModel } from '../model';
import type { EntryEditor } from './entryEditor';
import { toEntryState, type EntryState } from './openEntries';
import type { EntrySaver } from './save';
import { addressOf, versionIdOf } from './uris';

/** What neither file system supports: entries have no folders, and live in the Universes view. */
abstract class EntryFileSystemBase {
  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  readDirectory(): never {
    throw vscode.FileSystemError.NoPermissions(t`Browse entries in the Universes view.`);
  }
  createDirectory(): never {
    throw vscode.FileSystemError.NoPermissions(t`Data stores have no folders.`);
  }
  delete(): never {
    throw vscode.FileSystemError.NoPermissions(t`Delete entries from the Universes view.`);
  }
  rename(): never {
    throw vscode.FileSystemError.NoPermissions(t`Entries cannot be renamed.`);
  }
}

/** The folders above an entry (`/`, `/Data Stores`, …, `/Data Stores/<universe>/<store>/<scope>`). */
function isFolder(uri: vscode.Uri): boolean {
  return uri.path.split('/').length < 6 && !uri.path.endsWith('.json');
}

function notFoundAsFileNotFound(uri: vscode.Uri) {
  return (error: unknown): never => {
    if (error instanceof NotFoundError) throw vscode.FileSystemError.FileNotFound(uri);
    throw error;
  };
}

function stateStat(l: EntryState, readOnly: boolean): vscode.FileStat {
  return {
    type: vscode.FileType.File,
    ctime: l.ctime,
    mtime: l.mtime,
    size: l.text.byteLength,
    permissions: readOnly ? vscode.FilePermission.Readonly : undefined,
  };
}

/**
 * A dirty document's stat. Its save is checked against the version its edit is based on by the EntrySaver, which
 * asks what to keep; VS Code's own "the file is newer" check must not answer first. That check fires when stat's
 * mtime is after the one VS Code last read, which a reload makes likely (the restored edit keeps the old time while
 * the service moved on), so a dirty document reports time 0.
 */
function pinnedStat(a: EntryAddress, shown: EntryState | undefined): vscode.FileStat {
  return {
    type: vscode.FileType.File,
    ctime: 0,
    mtime: 0,
    size: shown?.text.byteLength ?? 0,
    permissions: isReadOnly(a) ? vscode.FilePermission.Readonly : undefined,
  };
}

/**
 * Entries as JSON documents. stat() reports the version shown (its time), so VS Code never sees a "newer file" of
 * its own. A deleted key shows its last value, and a value that is not JSON shows as it is: both read-only. Saves
 * go through the EntrySaver; a save it does not make fails here with its message.
 */
export class EntryFileSystem extends EntryFileSystemBase implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly following: vscode.Disposable;

  constructor(
    private readonly editor: EntryEditor,
    private readonly saver: EntrySaver,
  ) {
    super();
    this.following = editor.onDidAskReload((uri) => void this.refresh(uri));
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    if (isFolder(uri)) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const a = addressOf(uri);
    if (this.editor.entries.pinned(a)) return pinnedStat(a, this.editor.entries.shown(a));
    const l = this.editor.entries.shown(a) ?? (await this.load(a, uri));
    return stateStat(l, readOnly(a, l));
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return (await this.load(addressOf(uri), uri)).text;
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean }): Promise<void> {
    // "Create File" on a key that never held a value sends nothing: an entry holds a JSON value, so it starts as {}.
    const text =
      content.byteLength === 0 && options.create && !this.editor.entries.shown(addressOf(uri))
        ? new TextEncoder().encode('{}\n')
        : content;
    const outcome = await this.saver.save(uri, text, 'fs');
    // A discarded edit is replaced by the service's value right after: the document ends up clean either way.
    if (!outcome.saved && !outcome.discarded)
      throw vscode.FileSystemError.Unavailable(t`Not saved: ${outcome.message}`);
  }

  /** Reads the entry again and tells VS Code, which reloads a clean document (a dirty one keeps its edit). */
  async refresh(uri: vscode.Uri): Promise<void> {
    await this.load(addressOf(uri), uri).catch(() => undefined);
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  dispose(): void {
    this.following.dispose();
    this.changed.dispose();
  }

  private async load(a: EntryAddress, uri: vscode.Uri): Promise<EntryState> {
    return this.editor.load(a).catch(notFoundAsFileNotFound(uri));
  }
}

function readOnly(a: EntryAddress, l: EntryState): boolean {
  return isReadOnly(a) || !!l.deleted || l.compact === undefined;
}

/** Old versions, read-only: `universe-entry-version://<connection>/<entry path>?{"version": …}`. */
export class EntryVersionFileSystem extends EntryFileSystemBase implements vscode.FileSystemProvider {
  readonly onDidChangeFile = new vscode.EventEmitter<vscode.FileChangeEvent[]>().event;
  private readonly cache = new Map<string, EntryState>();

  constructor(private readonly model: DataStoresModel) {
    super();
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    return stateStat(await this.load(uri), true);
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return (await this.load(uri)).text;
  }

  writeFile(): never {
    throw vscode.FileSystemError.NoPermissions(t`Old versions are read-only; use Restore This Version.`);
  }

  private async load(uri: vscode.Uri): Promise<EntryState> {
    const cached = this.cache.get(uri.toString());
    if (cached) return cached;
    const a = addressOf(uri);
    const entry = await this.model.readVersion(a, versionIdOf(uri)).catch(notFoundAsFileNotFound(uri));
    const l = toEntryState(entry);
    this.cache.set(uri.toString(), l);
    return l;
  }
}
