import vscode = require('vscode');
import { PreconditionFailedError, type Entry } from '../api';
import type { CommandContext } from '../commands/context';
import { reason } from '../errors';
import { formatBytes } from '../format';
import { formatJson } from '../json';
import { settings } from '../settings';
import { entryPath, entryRequest, parseEntryPath, type EntryAddress } from './entryPath';

export const entryScheme = 'universe-entry';
export const versionScheme = 'universe-entry-version';
export const maxValueBytes = 4 * 1024 * 1024;

export function entryUri(a: EntryAddress): vscode.Uri {
  return vscode.Uri.from({ scheme: entryScheme, authority: a.connectionId, path: entryPath(a) });
}

export function versionUri(a: EntryAddress, versionId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: versionScheme, authority: a.connectionId, path: entryPath(a), query: versionId });
}

export function addressOf(uri: vscode.Uri): EntryAddress {
  return parseEntryPath(uri.authority, uri.path);
}

/** What was loaded for an open entry: the version a save is conditioned on, and what a save must resend. */
interface Loaded {
  version: string;
  attributes: Record<string, unknown>;
  userIds: number[];
  ctime: number;
  mtime: number;
  text: Uint8Array;
  compact: string;
}

const encoder = new TextEncoder();

function toLoaded(entry: Entry): Loaded {
  const compact = entry.raw.toString('utf8');
  let text: string;
  try {
    text = formatJson(compact) + '\n';
  } catch {
    text = compact; // The service holds something that is not JSON: show it as it is.
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
  };
}

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
export class EntryFileSystem extends EntryFileSystemBase implements vscode.FileSystemProvider {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly loaded = new Map<string, Loaded>();

  constructor(private readonly ctx: CommandContext) {
    super();
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    if (isFolder(uri)) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const l = this.loaded.get(uri.toString()) ?? (await this.load(uri));
    return {
      type: vscode.FileType.File,
      ctime: l.ctime,
      mtime: l.mtime,
      size: l.text.byteLength,
      permissions: this.readOnly(uri) ? vscode.FilePermission.Readonly : undefined,
    };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return (await this.load(uri)).text;
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    try {
      await this.write(uri, content);
    } catch (error) {
      this.ctx.log.error(`Not saved ${uri.path}: ${reason(error)}`);
      throw error;
    }
  }

  private async write(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const a = addressOf(uri);
    if (this.readOnly(uri)) {
      throw vscode.FileSystemError.NoPermissions(`Universe ${a.universeId} is read-only (setting universeExplorer.readOnlyUniverses).`);
    }
    const compact = formatJson(new TextDecoder().decode(content), 0);
    const bytes = Buffer.byteLength(compact);
    if (bytes > maxValueBytes) {
      throw new Error(`The value is ${formatBytes(bytes)} (${bytes} bytes); an entry holds at most 4 MiB (${maxValueBytes} bytes).`);
    }
    const known = this.loaded.get(uri.toString());
    if (known && known.compact === compact) return;
    try {
      await this.save(uri, a, content, compact, known?.version);
    } catch (error) {
      if (!(error instanceof PreconditionFailedError) || !known) throw error;
      await this.resolveConflict(uri, a, content, compact);
    }
  }

  /** Forgets what was loaded and tells VS Code the entry changed, e.g. after a write from the tree. */
  async reload(uri: vscode.Uri): Promise<void> {
    await this.load(uri);
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  private readOnly(uri: vscode.Uri): boolean {
    return settings().readOnlyUniverses.includes(addressOf(uri).universeId);
  }

  private async client(a: EntryAddress) {
    return this.ctx.connections.client(a.connectionId);
  }

  private async load(uri: vscode.Uri): Promise<Loaded> {
    const a = addressOf(uri);
    const client = await this.client(a);
    const entry = await client.datastores
      .getEntry(entryRequest(a))
      .catch(notFoundAsFileNotFound(uri));
    const l = toLoaded(entry);
    this.loaded.set(uri.toString(), l);
    return l;
  }

  private async save(uri: vscode.Uri, a: EntryAddress, content: Uint8Array, compact: string, matchVersion?: string) {
    const known = this.loaded.get(uri.toString());
    const client = await this.client(a);
    const written = await client.datastores.setEntry({
      ...entryRequest(a),
      raw: compact,
      matchVersion,
      exclusiveCreate: matchVersion ? undefined : true,
      attributes: known?.attributes,
      userIds: known?.userIds,
    });
    const mtime = Date.parse(written.createdTime) || Date.now();
    this.loaded.set(uri.toString(), {
      version: written.version,
      attributes: known?.attributes ?? {},
      userIds: known?.userIds ?? [],
      ctime: known?.ctime ?? mtime,
      mtime,
      text: content,
      compact,
    });
    this.ctx.log.info(`Saved ${a.datastoreName}/${a.scope}/${a.key} as version ${written.version}`);
  }

  private async resolveConflict(uri: vscode.Uri, a: EntryAddress, content: Uint8Array, compact: string): Promise<void> {
    const client = await this.client(a);
    const theirs = await client.datastores.getEntry(entryRequest(a));
    const choice = await this.ctx.ui.warn(
      `"${a.key}" was changed in the service since you opened it.`,
      { modal: true, detail: `The service now has version ${theirs.version}. Your edit is kept until you choose.` },
      'Compare',
      'Overwrite',
      'Discard and Reload',
    );
    if (choice === 'Overwrite') {
      // Keep their attributes and user ids: only the value is ours.
      this.loaded.set(uri.toString(), toLoaded(theirs));
      return this.save(uri, a, content, compact, theirs.version);
    }
    if (choice === 'Discard and Reload') {
      const fresh = toLoaded(theirs);
      this.loaded.set(uri.toString(), fresh);
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
  private readonly cache = new Map<string, Loaded>();

  constructor(private readonly ctx: CommandContext) {
    super();
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const l = await this.load(uri);
    return { type: vscode.FileType.File, ctime: l.ctime, mtime: l.mtime, size: l.text.byteLength, permissions: vscode.FilePermission.Readonly };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return (await this.load(uri)).text;
  }

  writeFile(): never {
    throw vscode.FileSystemError.NoPermissions('Old versions are read-only; use Restore This Version.');
  }

  private async load(uri: vscode.Uri): Promise<Loaded> {
    const cached = this.cache.get(uri.toString());
    if (cached) return cached;
    const a = addressOf(uri);
    const client = await this.ctx.connections.client(a.connectionId);
    const entry = await client.datastores
      .getEntryVersion({ ...entryRequest(a), versionId: uri.query })
      .catch(notFoundAsFileNotFound(uri));
    const l = toLoaded(entry);
    this.cache.set(uri.toString(), l);
    return l;
  }
}
