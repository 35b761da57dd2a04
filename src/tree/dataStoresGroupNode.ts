import vscode = require('vscode');
import type { DataStore } from '../api';
import { settings } from '../settings';
import { DataStoreNode } from './dataStoreNode';
import { pagedChildren, type PagedNode } from './loadMoreNode';
import type { TreeContext, TreeNode } from './node';
import { Pager } from './pager';
import type { UniverseNode } from './universeNode';

export class DataStoresGroupNode implements PagedNode {
  readonly id: string;
  readonly pager: Pager<DataStore>;
  prefix = '';

  constructor(
    readonly ctx: TreeContext,
    readonly parent: UniverseNode,
  ) {
    this.id = `${parent.id}/datastores`;
    this.pager = new Pager(async (cursor, signal) => {
      const client = await ctx.connections.client(parent.connectionId);
      const page = await client.datastores.listDataStores(
        { universeId: parent.universe.id, prefix: this.prefix || undefined, limit: settings().pageSize, cursor },
        { signal },
      );
      return { items: page.datastores, next: page.nextPageCursor };
    });
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem('Data Stores', vscode.TreeItemCollapsibleState.Collapsed);
    item.description = this.prefix ? `prefix "${this.prefix}"` : undefined;
    item.iconPath = new vscode.ThemeIcon('database');
    item.contextValue = 'dataStores';
    return item;
  }

  children(): Promise<TreeNode[]> {
    return pagedChildren(this, this.pager, (store) => new DataStoreNode(this.ctx, this, store));
  }

  reset(): void {
    this.pager.reset();
  }
}
