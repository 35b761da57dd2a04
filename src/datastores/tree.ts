// The Data Stores group of a universe and what it expands to: stores, entries (keys) and their versions.
import vscode = require('vscode');
import { notFoundAs, type DataStore, type EntryKey, type EntryVersion } from '../api';
import { formatBytes } from '../core/format';
import { t } from '../core/text';
import { localAndUtc } from '../core/time';
import { pagedChildren, type PagedNode } from '../core/tree/loadMoreNode';
import type { TreeNode } from '../core/tree/node';
import { Pager } from '../core/tree/pager';
import type { UniverseNode } from '../core/tree/connectionNodes';
import type { EntryAddress } from './entryPath';
import { allScopes, type DataStoresModel, type StoreRef, type UniverseRef } from './model';
import { entryUri, versionTime, versionUri } from './uris';

export class DataStoresGroupNode implements PagedNode {
  readonly id: string;
  readonly pager: Pager<DataStore>;

  constructor(
    readonly model: DataStoresModel,
    readonly parent: UniverseNode,
  ) {
    this.id = `${parent.id}/datastores`;
    this.pager = new Pager((cursor, signal) => model.listStores(this.ref, cursor, signal));
  }

  get ref(): UniverseRef {
    return { connectionId: this.parent.connectionId, universeId: this.parent.universe.id };
  }

  get readOnly(): boolean {
    return this.parent.readOnly;
  }

  item(): vscode.TreeItem {
    const prefix = this.model.storesPrefix(this.ref);
    const item = new vscode.TreeItem(t`Data Stores`, vscode.TreeItemCollapsibleState.Collapsed);
    item.description = prefix ? t`prefix "${prefix}"` : undefined;
    item.iconPath = new vscode.ThemeIcon('database');
    item.contextValue = 'dataStores';
    return item;
  }

  children(): Promise<TreeNode[]> {
    return pagedChildren(this, this.pager, (store) => new DataStoreNode(this.model, this, store));
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
    readonly parent: DataStoresGroupNode,
    readonly store: DataStore,
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
    return this.model.filter(this.ref).scope;
  }

  item(): vscode.TreeItem {
    const { scope, prefix } = this.model.filter(this.ref);
    const item = new vscode.TreeItem(this.store.name, vscode.TreeItemCollapsibleState.Collapsed);
    // Short, so the default side bar's width shows it whole; the tooltip says it in words.
    const shown = scope === allScopes ? t`all scopes` : scope;
    item.description = prefix ? `${shown} · ${prefix}*` : shown;
    item.iconPath = new vscode.ThemeIcon('archive');
    item.tooltip = [
      this.store.name,
      scope === allScopes ? t`All scopes` : t`Scope: ${scope}`,
      prefix ? t`Keys starting with "${prefix}"` : '',
      this.store.createdTime ? t`Created ${localAndUtc(this.store.createdTime)}` : '',
    ]
      .filter(Boolean)
      .join('\n');
    item.contextValue = this.readOnly ? 'dataStore.readOnly' : 'dataStore';
    return item;
  }

  children(): Promise<TreeNode[]> {
    return pagedChildren(this, this.pager, (k) => new EntryNode(this.model, this, k));
  }

  reset(): void {
    this.pager.reset();
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
    item.contextValue = ['entry', deleted && 'deleted', this.readOnly && 'readOnly'].filter(Boolean).join('.');
    item.command = { command: 'vscode.open', title: t`Open Entry`, arguments: [this.uri] };
    return item;
  }

  /** The tooltip needs a read of the entry, so it is loaded on hover only. */
  async resolveTooltip(signal: AbortSignal): Promise<string> {
    const entry = await this.model.read(this.address, signal).catch(notFoundAs(undefined));
    if (!entry) {
      return [
        t`${this.entry.key} (scope ${this.entry.scope})`,
        t`Deleted in the service. Its versions are kept for 30 days: expand it and restore one.`,
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

export class VersionNode implements TreeNode {
  readonly id: string;

  constructor(
    readonly parent: EntryNode,
    readonly version: EntryVersion,
  ) {
    this.id = `${parent.id}/v:${version.version}`;
  }

  get uri(): vscode.Uri {
    return versionUri(this.parent.address, this.version);
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
