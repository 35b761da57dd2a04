import vscode = require('vscode');
import { PreconditionFailedError } from '../api';
import { reason } from '../core/errors';
import { formatBytes } from '../core/format';
import type { Log } from '../core/log';
import { settings } from '../core/settings';
import type { Ui } from '../core/ui';
import type { EntryAddress } from './entryPath';
import { formatJson } from './json';
import { toOpenEntry, type DataStoresModel, type EntryChange, type OpenEntry } from './model';
import { addressOf, entryUri, versionUri } from './uris';

export const maxValueBytes = 4 * 1024 * 1024;

/** What neither file system supports: entries have no folders, and live in the Universes view. */
abstract class EntryFileSystemBase {
  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  readDirectory(): never {
    throw vscode.FileSystemError.NoPermissions('Browse entries in the Universes view.');
  }
  createDirectory(): never {
    throw vscode.FileSystemError.NoPermissions('Data stores have no folders.');
  }
  delete(): never {
    throw vscode.FileSystemError.NoPermissions('Delete entries from the Universes view.');
  }
  rename(): never {
    throw vscode.FileSystemError.NoPermissions('Entries cannot be renamed.');
  }
}

/**
 * Entries as JSON documents. stat() reports the loaded version's time, so VS Code never sees a "newer file"
 * of its own; a save is conditioned on that version, and a 412 goes to the conflict flow.
 */
export class EntryFileSystem extends EntryFileSystemBase implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly following: vscode.Disposable;

  constructor(
    private readonly model: DataStoresModel,
    private readonly ui: Ui,
    private readonly log: Log,
  ) {
    super();
    this.following = model.onDidChangeEntry((change) => void this.follow(change));
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    if (isFolder(uri)) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const a = addressOf(uri);
    const l = this.model.document(a) ?? (await this.load(a, uri));
    return {
      type: vscode.FileType.File,
      ctime: l.ctime,
      mtime: l.mtime,
      size: l.text.byteLength,
      permissions: readOnly(a) ? vscode.FilePermission.Readonly : undefined,
    };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return (await this.load(addressOf(uri), uri)).text;
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    try {
      await this.write(uri, content);
    } catch (error) {
      this.log.error(`Not saved ${uri.path}: ${reason(error)}`);
      throw error;
    }
  }

  dispose(): void {
    this.following.dispose();
    this.changed.dispose();
  }

  private async write(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const a = addressOf(uri);
    if (readOnly(a)) {
      throw vscode.FileSystemError.NoPermissions(
        `Universe ${a.universeId} is read-only (setting universeExplorer.readOnlyUniverses).`,
      );
    }
    const compact = formatJson(new TextDecoder().decode(content), 0);
    const bytes = Buffer.byteLength(compact);
    if (bytes > maxValueBytes) {
      throw new Error(
        `The value is ${formatBytes(bytes)} (${bytes} bytes); an entry holds at most 4 MiB (${maxValueBytes} bytes).`,
      );
    }
    const known = this.model.document(a);
    if (known && known.compact === compact) return;
    try {
      await this.save(a, content, compact, known);
    } catch (error) {
      if (!(error instanceof PreconditionFailedError) || !known) throw error;
      await this.resolveConflict(uri, a, content, compact);
    }
  }

  private async save(
    a: EntryAddress,
    content: Uint8Array,
    compact: string,
    base: OpenEntry | undefined,
  ): Promise<void> {
    const written = await this.model.saveDocument(a, content, compact, base);
    this.log.info(`Saved ${a.datastoreName}/${a.scope}/${a.key} as version ${written.version}`);
  }

  /** A write from the tree: the open entry is read again and VS Code told it changed. */
  private async follow(change: EntryChange): Promise<void> {
    const known = this.model.document(change.address);
    if (!known || known.version === change.version) return;
    const uri = entryUri(change.address);
    try {
      await this.model.load(change.address);
    } catch {
      // Read again when VS Code next asks.
    }
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  private async load(a: EntryAddress, uri: vscode.Uri): Promise<OpenEntry> {
    return this.model.load(a).catch(notFoundAsFileNotFound(uri));
  }

  private async resolveConflict(uri: vscode.Uri, a: EntryAddress, content: Uint8Array, compact: string): Promise<void> {
    const theirs = await this.model.read(a);
    const choice = await this.ui.warn(
      `"${a.key}" was changed in the service since you opened it.`,
      { modal: true, detail: `The service now has version ${theirs.version}. Your edit is kept until you choose.` },
      'Compare',
      'Overwrite',
      'Discard and Reload',
    );
    if (choice === 'Overwrite') {
      // Keep their attributes and user ids: only the value is ours.
      return this.save(a, content, compact, this.model.based(a, toOpenEntry(theirs)));
    }
    if (choice === 'Discard and Reload') {
      const fresh = this.model.based(a, toOpenEntry(theirs));
      setTimeout(() => void replaceDocument(uri, fresh.text), 0);
      return;
    }
    if (choice === 'Compare') {
      await vscode.commands.executeCommand(
        'vscode.diff',
        versionUri(a, theirs.version),
        uri,
        `${a.key}: service (version ${theirs.version}) ↔ yours`,
      );
      throw new Error('Not saved: compare the two versions, then save again to choose Overwrite or Discard.');
    }
    throw new Error('Not saved: the entry changed in the service since you opened it.');
  }
}

function readOnly(a: EntryAddress): boolean {
  return settings().readOnlyUniverses.includes(a.universeId);
}

/** Puts the service's value into the open document and marks it saved (the save is a no-op: same text). */
async function replaceDocument(uri: vscode.Uri, text: Uint8Array): Promise<void> {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (!doc) return;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, new vscode.Range(0, 0, doc.lineCount, 0), new TextDecoder().decode(text));
  await vscode.workspace.applyEdit(edit);
  await doc.save();
}

/** The folders above an entry (`/`, `/<universe>`, `/<universe>/<store>`, `/<universe>/<store>/<scope>`). */
function isFolder(uri: vscode.Uri): boolean {
  return uri.path.split('/').length < 5 && !uri.path.endsWith('.json');
}

function notFoundAsFileNotFound(uri: vscode.Uri) {
  return (error: unknown): never => {
    if (error instanceof Error && error.name === 'NotFoundError') throw vscode.FileSystemError.FileNotFound(uri);
    throw error;
  };
}

/** Old versions, read-only: `universe-entry-version://<connection>/<entry path>?<versionId>`. */
export class EntryVersionFileSystem extends EntryFileSystemBase implements vscode.FileSystemProvider {
  readonly onDidChangeFile = new vscode.EventEmitter<vscode.FileChangeEvent[]>().event;
  private readonly cache = new Map<string, OpenEntry>();

  constructor(private readonly model: DataStoresModel) {
    super();
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const l = await this.load(uri);
    return {
      type: vscode.FileType.File,
      ctime: l.ctime,
      mtime: l.mtime,
      size: l.text.byteLength,
      permissions: vscode.FilePermission.Readonly,
    };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return (await this.load(uri)).text;
  }

  writeFile(): never {
    throw vscode.FileSystemError.NoPermissions('Old versions are read-only; use Restore This Version.');
  }

  private async load(uri: vscode.Uri): Promise<OpenEntry> {
    const cached = this.cache.get(uri.toString());
    if (cached) return cached;
    const a = addressOf(uri);
    const entry = await this.model.readVersion(a, uri.query).catch(notFoundAsFileNotFound(uri));
    const l = toOpenEntry(entry);
    this.cache.set(uri.toString(), l);
    return l;
  }
}
