import vscode = require('vscode');
import type { EntryVersion } from '../api';
import { entryUri } from '../fs/entryFileSystem';
import { entryRequest, type EntryAddress } from '../fs/entryPath';
import { formatBytes } from '../format';
import { settings } from '../settings';
import { allScopes, type DataStoreNode, type EntryKey } from './dataStoreNode';
import { pagedChildren, type PagedNode } from './loadMoreNode';
import type { TreeContext, TreeNode } from './node';
import { Pager } from './pager';
import { VersionNode } from './versionNode';

export class EntryNode implements PagedNode {
  readonly id: string;
  readonly pager: Pager<EntryVersion>;

  constructor(
    readonly ctx: TreeContext,
    readonly parent: DataStoreNode,
    readonly entry: EntryKey,
  ) {
    this.id = `${parent.id}/${encodeURIComponent(entry.scope)}/${encodeURIComponent(entry.key)}`;
    this.pager = new Pager(async (cursor, signal) => {
      const client = await ctx.connections.client(parent.connectionId);
      const page = await client.datastores.listEntryVersions(
        { ...this.request, sortOrder: 'Descending', limit: settings().pageSize, cursor },
        { signal },
      );
      return { items: page.versions, next: page.nextPageCursor };
    });
  }

  get address(): EntryAddress {
    return {
      connectionId: this.parent.connectionId,
      universeId: this.parent.universeId,
      datastoreName: this.parent.store.name,
      scope: this.entry.scope,
      key: this.entry.key,
    };
  }

  get request() {
    return entryRequest(this.address);
  }

  get uri(): vscode.Uri {
    return entryUri(this.address);
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.entry.key, vscode.TreeItemCollapsibleState.Collapsed);
    item.description = this.parent.scope === allScopes ? this.entry.scope : undefined;
    item.iconPath = new vscode.ThemeIcon('json');
    item.resourceUri = this.uri;
    item.contextValue = this.parent.readOnly ? 'entry.readOnly' : 'entry';
    item.command = { command: 'vscode.open', title: 'Open Entry', arguments: [this.uri] };
    return item;
  }

  /** The tooltip needs a read of the entry, so it is loaded on hover only. */
  async resolveTooltip(signal: AbortSignal): Promise<string> {
    const client = await this.ctx.connections.client(this.parent.connectionId);
    const entry = await client.datastores.getEntry(this.request, { signal });
    return [
      `${this.entry.key} (scope ${this.entry.scope})`,
      `Size: ${formatBytes(entry.raw.byteLength)}`,
      `Version: ${entry.version}`,
      entry.versionCreatedTime ? `Changed: ${entry.versionCreatedTime}` : '',
      entry.createdTime ? `Created: ${entry.createdTime}` : '',
      entry.userIds.length ? `User ids: ${entry.userIds.join(', ')}` : '',
      Object.keys(entry.attributes).length ? `Attributes: ${JSON.stringify(entry.attributes)}` : '',
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
