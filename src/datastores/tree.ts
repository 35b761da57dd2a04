// The Data Stores group of a universe and what it expands to: stores, entries (keys) and their versions.
import vscode = require('vscode');
import {
  notFoundAs,
  type CompareStatus,
  type DataStoreSummary,
  type EntryKey,
  type EntryVersion,
  type KeyComparison,
} from '../api';
import { formatBytes } from '../core/format';
import { t } from '../core/text';
import { localAndUtc, localTime } from '../core/time';
import { pagedChildren, type PagedNode } from '../core/tree/loadMoreNode';
import type { TreeNode } from '../core/tree/node';
import { Pager } from '../core/tree/pager';
import type { UniverseNode } from '../core/tree/connectionNodes';
import type { EntryAddress } from './editor/entryPath';
import type { UniverseAddress } from '../core/universe';
import { allScopes, type StoreRef } from './listState';
import type { DataStoresModel } from './model';
import type { TimeMachine } from './timeMachine';
import { entryUri, versionTime, versionUri } from './editor/uris';

export class DataStoresGroupNode implements PagedNode {
  readonly id: string;
  readonly pager: Pager<DataStoreSummary>;

  constructor(
    readonly model: DataStoresModel,
    readonly timeMachine: TimeMachine,
    readonly parent: UniverseNode,
  ) {
    this.id = `${parent.id}/datastores`;
    this.pager = new Pager((cursor, signal) => model.listStores(this.ref, cursor, signal));
  }

  get ref(): UniverseAddress {
    return { connectionId: this.parent.connectionId, universeId: this.parent.universe.id };
  }

  get readOnly(): boolean {
    return this.parent.readOnly;
  }

  item(): vscode.TreeItem {
    const prefix = this.model.lists.storesPrefix(this.ref);
    const deleted = this.model.lists.deletedShown(this.ref);
    const snapshot = this.model.lastSnapshot(this.ref);
    const item = new vscode.TreeItem(t`Data Stores`, vscode.TreeItemCollapsibleState.Collapsed);
    item.description =
      [prefix ? t`prefix "${prefix}"` : '', deleted ? t`deleted shown` : ''].filter(Boolean).join(' · ') || undefined;
    item.tooltip = [
      this.model.apiVersion(this.ref) === 'v2' ? t`Data stores through cloud v2` : t`Data stores through v1 (legacy)`,
      snapshot ? t`Last snapshot: ${localAndUtc(snapshot)}` : t`No snapshot taken from this machine`,
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon('database');
    item.contextValue = deleted ? 'dataStores.deletedShown' : 'dataStores';
    return item;
  }

  children(): Promise<TreeNode[]> {
    return pagedChildren(this, this.pager, (store) => new DataStoreNode(this.model, this.timeMachine, this, store));
  }

  reset(): void {
    this.pager.reset();
  }
}

export class DataStoreNode implements PagedNode {
  readonly id: string;
  readonly pager: Pager<EntryKey>;

  constructor(
    readonly model: DataStoresModel,
    readonly timeMachine: TimeMachine,
    readonly parent: DataStoresGroupNode,
    readonly store: DataStoreSummary,
  ) {
    this.id = `${parent.id}/${encodeURIComponent(store.name)}`;
    this.pager = new Pager((cursor, signal) => model.listKeys(this.ref, cursor, signal));
  }

  get ref(): StoreRef {
    return { ...this.parent.ref, datastoreName: this.store.name };
  }

  get readOnly(): boolean {
    return this.parent.readOnly;
  }

  /** One scope, or allScopes. */
  get scope(): string {
    return this.model.lists.filter(this.ref).scope;
  }

  /** Deleted through cloud v2 and not purged yet: its entries cannot be reached until it is undeleted. */
  get deleted(): boolean {
    return this.store.state === 'deleted';
  }

  item(): vscode.TreeItem {
    if (this.deleted) return this.deletedItem();
    const { scope, prefix } = this.model.lists.filter(this.ref);
    const v2 = this.model.apiVersion(this.ref) === 'v2';
    const deletedShown = v2 && this.model.lists.deletedEntriesShown(this.ref);
    const item = new vscode.TreeItem(this.store.name, vscode.TreeItemCollapsibleState.Collapsed);
    // Short, so the default side bar's width shows it whole; the tooltip says it in words.
    const shown = scope === allScopes ? t`all scopes` : scope;
    item.description = [shown, prefix ? `${prefix}*` : '', deletedShown ? t`deleted shown` : '']
      .filter(Boolean)
      .join(' · ');
    item.iconPath = new vscode.ThemeIcon('archive');
    item.tooltip = [
      this.store.name,
      scope === allScopes ? t`All scopes` : t`Scope: ${scope}`,
      prefix ? t`Keys starting with "${prefix}"` : '',
      deletedShown ? t`Deleted entries are listed, marked deleted, until they are purged` : '',
      this.store.createdTime ? t`Created ${localAndUtc(this.store.createdTime)}` : '',
    ]
      .filter(Boolean)
      .join('\n');
    // Cloud v2 hides deleted entries unless asked (v1 lists them always), so only its rows offer the toggle.
    item.contextValue = this.readOnly
      ? 'dataStore.readOnly'
      : ['dataStore', v2 && 'v2', deletedShown && 'deletedShown'].filter(Boolean).join('.');
    return item;
  }

  /** The store as it was at the moment chosen with Open at Time, shown as its first child; undefined without one. */
  get atTime(): StoreAtTimeNode | undefined {
    const time = this.timeMachine.moment(this.ref);
    if (time?.getTime() !== this.shownAt?.time.getTime()) this.shownAt = time && new StoreAtTimeNode(this, time);
    return this.shownAt;
  }

  private shownAt: StoreAtTimeNode | undefined;

  private deletedItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.store.name, vscode.TreeItemCollapsibleState.None);
    const purged = this.store.expireTime;
    item.description = purged ? t`deleted · purged ${localTime(purged)}` : t`deleted`;
    item.tooltip = [
      t`${this.store.name} is deleted: its entries cannot be read or written.`,
      purged
        ? t`Undelete it before ${localAndUtc(purged)}; then it is purged for good.`
        : t`Undelete it within 30 days of its deletion.`,
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon('trash', new vscode.ThemeColor('disabledForeground'));
    item.contextValue = this.readOnly ? 'dataStore.deleted.readOnly' : 'dataStore.deleted';
    return item;
  }

  async children(): Promise<TreeNode[]> {
    const keys = await pagedChildren(this, this.pager, (k) => new EntryNode(this.model, this, k));
    const atTime = this.atTime;
    return atTime ? [atTime, ...keys] : keys;
  }

  reset(): void {
    this.pager.reset();
    this.shownAt?.reset();
  }
}

/** What became of an entry since the moment of a time view. */
function sinceText(status: CompareStatus): string {
  if (status === 'changed') return t`changed since`;
  if (status === 'deleted') return t`deleted since`;
  return t`unchanged`;
}

/** The same in a tooltip, with when it happened when known. */
function sinceDetail(c: KeyComparison): string {
  const when = c.now && c.status !== 'unchanged' ? localTime(c.now.createdTime, { seconds: true }) : undefined;
  if (c.status === 'changed') return when ? t`Changed since: ${when}` : t`Changed since`;
  if (c.status === 'deleted') return when ? t`Deleted since: ${when}` : t`Deleted since`;
  return t`Unchanged since`;
}

/** Open at Time: the store's keys (under its filter) as they were at a moment, each opening read-only. */
export class StoreAtTimeNode implements PagedNode {
  readonly id: string;
  readonly pager: Pager<KeyComparison>;

  constructor(
    readonly parent: DataStoreNode,
    readonly time: Date,
  ) {
    this.id = `${parent.id}/@at:${time.getTime()}`;
    this.pager = new Pager((cursor, signal) => parent.timeMachine.listKeysAt(parent.ref, time, cursor, signal));
  }

  get readOnly(): boolean {
    return this.parent.readOnly;
  }

  item(): vscode.TreeItem {
    const when = localTime(this.time.getTime());
    const item = new vscode.TreeItem(t`As of ${when}`, vscode.TreeItemCollapsibleState.Expanded);
    item.iconPath = new vscode.ThemeIcon('history');
    item.tooltip = [
      t`${this.parent.store.name} as it was at ${localAndUtc(this.time.getTime())}, read-only: the keys that held an entry then, each with the version it held. Keys created since are not listed.`,
      t`Close it with the × on this row.`,
    ].join('\n');
    item.contextValue = this.readOnly ? 'storeAtTime.readOnly' : 'storeAtTime';
    return item;
  }

  children(): Promise<TreeNode[]> {
    return pagedChildren(this, this.pager, (c) => new EntryAtTimeNode(this, c));
  }

  reset(): void {
    this.pager.reset();
  }
}

/** A row that shows one version of an entry: in its history, or in a store's time view (the version then). */
export interface VersionRow extends TreeNode {
  readonly address: EntryAddress;
  readonly version: EntryVersion;
  /** The version, read-only. */
  readonly uri: vscode.Uri;
  /** The entry as it is now. */
  readonly entryUri: vscode.Uri;
  readonly readOnly: boolean;
}

/** An entry of a time view: the version it held at the moment, and what became of it since. */
export class EntryAtTimeNode implements VersionRow {
  readonly id: string;
  readonly version: EntryVersion;
  readonly address: EntryAddress;

  constructor(
    readonly parent: StoreAtTimeNode,
    private comparison: KeyComparison,
  ) {
    this.id = `${parent.id}/${encodeURIComponent(comparison.scope)}/${encodeURIComponent(comparison.key)}`;
    this.version = comparison.then!; // a time view lists only keys that held an entry then
    this.address = { ...parent.parent.ref, scope: comparison.scope, key: comparison.key };
  }

  get readOnly(): boolean {
    return this.parent.readOnly;
  }

  /** The entry was written (a version id) or deleted since the view was listed. */
  changed(version: string | undefined): void {
    const status = version === undefined ? 'deleted' : version === this.version.version ? 'unchanged' : 'changed';
    this.comparison = { ...this.comparison, status, now: undefined };
  }

  get uri(): vscode.Uri {
    return versionUri(this.address, this.version, this.parent.time);
  }

  get entryUri(): vscode.Uri {
    return entryUri(this.address);
  }

  item(): vscode.TreeItem {
    const c = this.comparison;
    const item = new vscode.TreeItem(c.key, vscode.TreeItemCollapsibleState.None);
    const scope = this.parent.parent.scope === allScopes ? c.scope : '';
    item.description = [scope, sinceText(c.status)].filter(Boolean).join(' · ');
    item.tooltip = [
      t`${c.key} (scope ${c.scope}) at ${localTime(this.parent.time.getTime())}`,
      t`The version written ${localAndUtc(this.version.createdTime, { seconds: true })}, ${formatBytes(this.version.contentLength)}`,
      sinceDetail(c),
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon(c.status === 'unchanged' ? 'json' : c.status === 'deleted' ? 'trash' : 'diff');
    item.contextValue = this.readOnly ? 'version.readOnly' : 'version';
    item.command = { command: 'vscode.open', title: t`Open Version`, arguments: [this.uri] };
    return item;
  }
}

export class EntryNode implements PagedNode {
  readonly id: string;
  readonly pager: Pager<EntryVersion>;

  constructor(
    readonly model: DataStoresModel,
    readonly parent: DataStoreNode,
    readonly entry: EntryKey,
  ) {
    this.id = `${parent.id}/${encodeURIComponent(entry.scope)}/${encodeURIComponent(entry.key)}`;
    this.pager = new Pager((cursor, signal) => model.listVersions(this.address, cursor, signal));
  }

  get address(): EntryAddress {
    return { ...this.parent.ref, scope: this.entry.scope, key: this.entry.key };
  }

  get readOnly(): boolean {
    return this.parent.readOnly;
  }

  get uri(): vscode.Uri {
    return entryUri(this.address);
  }

  /** The service still lists a deleted key (until it is purged); what is known of it. */
  get deleted(): boolean {
    return this.model.keyState(this.address) === 'deleted';
  }

  item(): vscode.TreeItem {
    const deleted = this.deleted;
    const item = new vscode.TreeItem(this.entry.key, vscode.TreeItemCollapsibleState.Collapsed);
    const scope = this.parent.scope === allScopes ? this.entry.scope : '';
    item.description = [scope, deleted ? t`deleted` : ''].filter(Boolean).join(' · ') || undefined;
    item.iconPath = deleted
      ? new vscode.ThemeIcon('trash', new vscode.ThemeColor('disabledForeground'))
      : new vscode.ThemeIcon('json');
    item.resourceUri = this.uri;
    // A live, writable key known to hold something other than a number is `entry.notNumber`, so Increment hides.
    const notNumber = !deleted && !this.readOnly && this.model.valueKind(this.address) === 'other';
    item.contextValue = ['entry', deleted && 'deleted', notNumber && 'notNumber', this.readOnly && 'readOnly']
      .filter(Boolean)
      .join('.');
    item.command = { command: 'vscode.open', title: t`Open Entry`, arguments: [this.uri] };
    return item;
  }

  /** The tooltip needs a read of the entry, so it is loaded on hover only. */
  async resolveTooltip(signal: AbortSignal): Promise<string> {
    const entry = await this.model.read(this.address, signal).catch(notFoundAs(undefined));
    if (!entry) {
      return [
        t`${this.entry.key} (scope ${this.entry.scope})`,
        t`Deleted in the service. Its versions are kept for 30 days: Undelete Entry writes back its last value, or expand it and restore one.`,
      ].join('\n');
    }
    return [
      t`${this.entry.key} (scope ${this.entry.scope})`,
      t`Size: ${formatBytes(entry.raw.byteLength)}`,
      entry.versionCreatedTime ? t`Changed: ${localAndUtc(entry.versionCreatedTime)}` : '',
      entry.createdTime ? t`Created: ${localAndUtc(entry.createdTime)}` : '',
      entry.userIds.length ? t`User ids: ${entry.userIds.join(', ')}` : '',
      Object.keys(entry.attributes).length ? t`Attributes: ${JSON.stringify(entry.attributes)}` : '',
    ]
      .filter(Boolean)
      .join('\n');
  }

  children(): Promise<TreeNode[]> {
    return pagedChildren(this, this.pager, (v) => new VersionNode(this, v));
  }

  reset(): void {
    this.pager.reset();
  }
}

export class VersionNode implements VersionRow {
  readonly id: string;

  constructor(
    readonly parent: EntryNode,
    readonly version: EntryVersion,
  ) {
    this.id = `${parent.id}/v:${version.version}`;
  }

  get address(): EntryAddress {
    return this.parent.address;
  }

  get readOnly(): boolean {
    return this.parent.readOnly;
  }

  get uri(): vscode.Uri {
    return versionUri(this.parent.address, this.version);
  }

  get entryUri(): vscode.Uri {
    return this.parent.uri;
  }

  item(): vscode.TreeItem {
    const v = this.version;
    const item = new vscode.TreeItem(versionTime(v.createdTime), vscode.TreeItemCollapsibleState.None);
    item.description = v.deleted ? t`deleted` : formatBytes(v.contentLength);
    item.tooltip = [
      t`Written ${localAndUtc(v.createdTime, { seconds: true })}`,
      v.deleted ? t`Deleted (tombstone)` : t`${v.contentLength} bytes`,
      t`Version ${v.version}`,
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon(v.deleted ? 'trash' : 'history');
    item.contextValue = v.deleted ? 'version.deleted' : this.parent.readOnly ? 'version.readOnly' : 'version';
    if (!v.deleted) item.command = { command: 'vscode.open', title: t`Open Version`, arguments: [this.uri] };
    return item;
  }
}
