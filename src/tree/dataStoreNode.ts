import vscode = require('vscode');
import type { DataStore } from '../api';
import { settings } from '../settings';
import type { DataStoresGroupNode } from './dataStoresGroupNode';
import { EntryNode } from './entryNode';
import { pagedChildren, type PagedNode } from './loadMoreNode';
import type { TreeContext, TreeNode } from './node';
import { Pager } from './pager';

export const allScopes = '*';

export interface EntryKey {
  scope: string;
  key: string;
}

export class DataStoreNode implements PagedNode {
  readonly id: string;
  readonly pager: Pager<EntryKey>;
  /** One scope, or allScopes. */
  scope = 'global';
  prefix = '';

  constructor(
    readonly ctx: TreeContext,
    readonly parent: DataStoresGroupNode,
    readonly store: DataStore,
  ) {
    this.id = `${parent.id}/${encodeURIComponent(store.name)}`;
    this.pager = new Pager(async (cursor, signal) => {
      const client = await ctx.connections.client(this.connectionId);
      const all = this.scope === allScopes;
      const page = await client.datastores.listEntries(
        {
          universeId: this.universeId,
          datastoreName: store.name,
          scope: all ? undefined : this.scope,
          allScopes: all || undefined,
          prefix: this.prefix || undefined,
          limit: settings().pageSize,
          cursor,
        },
        { signal },
      );
      return { items: page.keys.map((k) => ({ scope: k.scope ?? this.scope, key: k.key })), next: page.nextPageCursor };
    });
  }

  get connectionId(): string {
    return this.parent.parent.connectionId;
  }

  get universeId(): number {
    return this.parent.parent.universe.id;
  }

  get readOnly(): boolean {
    return this.parent.parent.readOnly;
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.store.name, vscode.TreeItemCollapsibleState.Collapsed);
    const scope = this.scope === allScopes ? 'all scopes' : `scope ${this.scope}`;
    item.description = this.prefix ? `${scope} · prefix "${this.prefix}"` : scope;
    item.iconPath = new vscode.ThemeIcon('archive');
    item.tooltip = [this.store.name, this.store.createdTime ? `Created ${this.store.createdTime}` : ''].filter(Boolean).join('\n');
    item.contextValue = this.readOnly ? 'dataStore.readOnly' : 'dataStore';
    return item;
  }

  children(): Promise<TreeNode[]> {
    return pagedChildren(this, this.pager, (k) => new EntryNode(this.ctx, this, k));
  }

  reset(): void {
    this.pager.reset();
  }
}
