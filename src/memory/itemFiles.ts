// Sorted map items as JSON documents (the `universe-memory-item:` file system). A save writes the value conditioned
// on the etag the document was read with, keeping the item's sort key and what was left of its life; a change made
// meanwhile, or the item gone (expired or deleted), goes to the user's choice and nothing typed is lost. While a
// document is dirty its base is pinned and kept in workspace storage, so a document restored dirty after a window
// reload is still saved against the item it was edited from. VS Code's
// auto-save never writes an item (package.json sets files.autoSave off for the item language), so every save is one
// the user asked for and may be asked about.
import vscode = require('vscode');
import { EtagMismatchError, NotFoundError, type SortedMapItem } from '../api';
import { confirmProductionWrite } from '../core/confirmWrite';
import { formatDuration } from '../core/duration';
import { isCancel, reason } from '../core/errors';
import type { Log } from '../core/log';
import { t } from '../core/text';
import { timeOfDay } from '../core/time';
import { isReadOnly, readOnlyReason } from '../core/universe';
import type { Ui } from '../core/ui';
import { describeItem, itemAddressOf, itemScheme, itemUri, theirsScheme, type ItemAddress } from './itemUris';
import { MemoryModel } from './model';
import { clampTtl, parseValue, secondsLeft } from './values';

/** What a document's edit is based on: the etag read, the sort key, and the life left when it was read. */
interface Base {
  etag?: string;
  sortKey?: number | string;
  ttlSeconds: number;
  readAt: number;
  mtime: number;
}

interface Shown {
  item: SortedMapItem;
  text: Uint8Array;
  mtime: number;
}

const DEFAULT_TTL = 3600;
const pinsKey = 'universeExplorer.memoryItemBases';
const encoder = new TextEncoder();
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The value as the document shows it: formatted JSON and a final newline. */
export const itemText = (value: unknown): Uint8Array => encoder.encode(`${JSON.stringify(value, null, 2)}\n`);

function baseOf(item: SortedMapItem, mtime: number): Base {
  const now = Date.now();
  return {
    etag: item.etag,
    sortKey: item.sortKey,
    ttlSeconds: clampTtl(secondsLeft(item.expireTime, now) ?? DEFAULT_TTL),
    readAt: now,
    mtime,
  };
}

/** What is left of the base's life now. */
const ttlNow = (base: Base): number => clampTtl(base.ttlSeconds - (Date.now() - base.readAt) / 1000);

const notSaved = (message: string) => vscode.FileSystemError.Unavailable(t`Not saved: ${message}`);

export class ItemFiles implements vscode.FileSystemProvider, vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly theirsChanged = new vscode.EventEmitter<vscode.Uri>();
  /** The comparison side is read again when a later conflict compares anew. */
  readonly onDidChange = this.theirsChanged.event;
  private readonly shown = new Map<string, Shown>();
  private readonly bases = new Map<string, Base>();
  /** Bases of dirty documents, by URI: kept in workspace storage (their mtimes were of another window: 0). */
  private readonly pins: Map<string, Base>;
  /** The service's side of each comparison a conflict opened. */
  private readonly theirs = new Map<string, string>();
  private clock = 0;
  private readonly following: vscode.Disposable[];

  constructor(
    private readonly model: MemoryModel,
    private readonly ui: Ui,
    private readonly log: Log,
    private readonly storage: vscode.Memento,
  ) {
    const kept = storage.get<Record<string, Base>>(pinsKey, {});
    this.pins = new Map(Object.entries(kept).map(([uri, base]) => [uri, { ...base, mtime: 0 }]));
    const ours = (doc: vscode.TextDocument) => doc.uri.scheme === itemScheme;
    this.following = [
      model.onDidChange((change) => {
        for (const doc of vscode.workspace.textDocuments) {
          if (!ours(doc) || doc.isDirty) continue;
          const a = itemAddressOf(doc.uri);
          if (MemoryModel.touches(change, a, a.mapName)) void this.refresh(doc.uri, a);
        }
      }),
      vscode.workspace.onDidChangeTextDocument(({ document: doc }) => {
        if (!ours(doc)) return;
        if (doc.isDirty) this.pin(doc.uri.toString());
        else this.unpin(doc.uri.toString());
      }),
      vscode.workspace.onDidSaveTextDocument((doc) => ours(doc) && this.unpin(doc.uri.toString())),
      vscode.workspace.onDidCloseTextDocument((doc) => ours(doc) && this.unpin(doc.uri.toString())),
    ];
  }

  /** What the document's edit is based on: pinned while dirty, else what was read or written last. */
  private base(key: string): Base | undefined {
    return this.pins.get(key) ?? this.bases.get(key);
  }

  private rebase(key: string, base: Base): void {
    this.bases.set(key, base);
    if (this.pins.has(key)) this.setPin(key, base);
  }

  private pin(key: string): void {
    const base = this.bases.get(key);
    if (base && !this.pins.has(key)) this.setPin(key, base);
  }

  private unpin(key: string): void {
    if (this.pins.delete(key)) void this.storage.update(pinsKey, Object.fromEntries(this.pins));
  }

  private setPin(key: string, base: Base): void {
    this.pins.set(key, base);
    void this.storage.update(pinsKey, Object.fromEntries(this.pins));
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const a = itemAddressOf(uri);
    const key = uri.toString();
    const dirty = vscode.workspace.textDocuments.some((d) => d.uri.toString() === key && d.isDirty);
    const shown = this.shown.get(key) ?? (await this.load(uri, a));
    // A dirty document's save is decided by the etag: VS Code's own "the file is newer" must not answer first.
    const mtime = dirty ? (this.base(key)?.mtime ?? 0) : shown.mtime;
    return {
      type: vscode.FileType.File,
      ctime: 0,
      mtime,
      size: shown.text.byteLength,
      permissions: isReadOnly(a) ? vscode.FilePermission.Readonly : undefined,
    };
  }

  /** VS Code reads the document's text: the edit that follows is based on what this read. */
  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const shown = await this.load(uri, itemAddressOf(uri));
    this.bases.set(uri.toString(), baseOf(shown.item, shown.mtime));
    return shown.text;
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const a = itemAddressOf(uri);
    const refused = readOnlyReason(a);
    if (refused) throw vscode.FileSystemError.NoPermissions(t`${refused}; ${describeItem(a)} was not saved.`);
    let value: unknown;
    try {
      value = parseValue(utf8.decode(content));
    } catch (error) {
      throw notSaved(t`${describeItem(a)}: ${reason(error)} Fix it and save again.`);
    }
    try {
      await confirmProductionWrite(this.ui, a, t`Save ${describeItem(a)}?`, t`Save`);
      const item = await this.write(uri, a, value);
      const mtime = ++this.clock;
      this.shown.set(uri.toString(), { item, text: content, mtime });
      this.bases.set(uri.toString(), baseOf(item, mtime));
      this.unpin(uri.toString());
      this.log.info(`Saved item ${a.key} of sorted map ${a.mapName}`);
      vscode.window.setStatusBarMessage(`$(check) ${t`Saved ${a.key} at ${timeOfDay(Date.now())}`}`, 8000);
    } catch (error) {
      if (error instanceof vscode.FileSystemError) throw error;
      if (isCancel(error)) throw notSaved(t`${describeItem(a)} was not saved; your edit is kept.`);
      this.log.error(`Not saved: ${describeItem(a)}`, error);
      throw notSaved(
        t`${describeItem(a)} could not be written: ${reason(error)}. Your edit is kept; save again to retry.`,
      );
    }
  }

  /** The conditioned write, and the user's choice when the item changed or went meanwhile. */
  private async write(uri: vscode.Uri, a: ItemAddress, value: unknown): Promise<SortedMapItem> {
    for (;;) {
      const base = this.base(uri.toString());
      if (!base) return this.recreate(uri, a, value, undefined);
      const write = { value, sortKey: base.sortKey, ttlSeconds: ttlNow(base) };
      try {
        return await this.model.updateItem(a, a.mapName, a.key, write, base.etag);
      } catch (error) {
        if (error instanceof NotFoundError || (error instanceof EtagMismatchError && !error.current)) {
          return this.recreate(uri, a, value, base);
        }
        if (!(error instanceof EtagMismatchError) || !error.current) throw error;
        await this.resolveChanged(uri, a, error.current);
      }
    }
  }

  /** Overwrite: the next write goes on the service's item (its etag, sort key and life). Anything else throws. */
  private async resolveChanged(uri: vscode.Uri, a: ItemAddress, theirs: SortedMapItem): Promise<void> {
    const [compare, overwrite] = [t`Compare`, t`Overwrite`];
    const choice = await this.ui.warn(
      t`${describeItem(a)} changed since you opened it.`,
      {
        modal: true,
        detail: t`Another writer (a game server, or you elsewhere) wrote it. Overwrite writes your edit over theirs, keeping its sort key and expiry. Your edit is kept until you choose.`,
      },
      compare,
      overwrite,
    );
    if (choice === overwrite) {
      this.rebase(uri.toString(), baseOf(theirs, this.base(uri.toString())?.mtime ?? 0));
      return;
    }
    if (choice === compare) {
      const theirsUri = itemUri(a, theirsScheme);
      this.theirs.set(theirsUri.toString(), new TextDecoder().decode(itemText(theirs.value)));
      this.theirsChanged.fire(theirsUri);
      const title = t`${a.key}.json (the service's) ↔ ${a.key}.json (yours, not saved)`;
      await vscode.commands.executeCommand('vscode.diff', theirsUri, uri, title);
      throw notSaved(t`${describeItem(a)} changed since you opened it: compare, then save again to overwrite.`);
    }
    throw notSaved(t`${describeItem(a)} changed since you opened it; your edit is kept.`);
  }

  /** The item expired or was deleted meanwhile: Create Again makes it anew, with its sort key and the life it had. */
  private async recreate(
    uri: vscode.Uri,
    a: ItemAddress,
    value: unknown,
    base: Base | undefined,
  ): Promise<SortedMapItem> {
    const ttlSeconds = base?.ttlSeconds ?? DEFAULT_TTL;
    const again = t`Create Again`;
    const choice = await this.ui.warn(
      t`${describeItem(a)} expired or was deleted since you opened it.`,
      {
        modal: true,
        detail: t`Create Again writes your edit as a new item with the sort key it had, expiring in ${formatDuration(ttlSeconds, 2)}. Your edit is kept until you choose.`,
      },
      again,
    );
    if (choice !== again) throw notSaved(t`${describeItem(a)} is gone from the service; your edit is kept.`);
    const item = await this.model.createItem(a, a.mapName, a.key, { value, sortKey: base?.sortKey, ttlSeconds });
    this.rebase(uri.toString(), baseOf(item, 0));
    return item;
  }

  /** The read-only comparison side. */
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.theirs.get(uri.toString()) ?? '';
  }

  /** Reads the item again and tells VS Code, which reloads a clean document. */
  private async refresh(uri: vscode.Uri, a: ItemAddress): Promise<void> {
    const before = this.shown.get(uri.toString())?.item.etag;
    const after = await this.load(uri, a).catch(() => undefined);
    if (after && after.item.etag !== before) this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  private async load(uri: vscode.Uri, a: ItemAddress): Promise<Shown> {
    let item: SortedMapItem;
    try {
      item = await this.model.getItem(a, a.mapName, a.key);
    } catch (error) {
      if (error instanceof NotFoundError) throw vscode.FileSystemError.FileNotFound(uri);
      throw error;
    }
    const shown = { item, text: itemText(item.value), mtime: ++this.clock };
    this.shown.set(uri.toString(), shown);
    return shown;
  }

  readDirectory(): never {
    throw vscode.FileSystemError.NoPermissions(t`Browse sorted maps in the Universes view.`);
  }
  createDirectory(): never {
    throw vscode.FileSystemError.NoPermissions(t`Sorted maps have no folders.`);
  }
  delete(): never {
    throw vscode.FileSystemError.NoPermissions(t`Delete items from the Universes view.`);
  }
  rename(): never {
    throw vscode.FileSystemError.NoPermissions(t`Items cannot be renamed.`);
  }

  dispose(): void {
    for (const d of this.following) d.dispose();
    this.changed.dispose();
    this.theirsChanged.dispose();
  }
}
