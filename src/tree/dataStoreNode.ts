import * as vscode from 'vscode';
import type { DataStore } from '../api';
import type { DataStoresGroupNode } from './dataStoresGroupNode';
import type { TreeContext, TreeNode } from './node';

export class DataStoreNode implements TreeNode {
  readonly id: string;

  constructor(
    readonly ctx: TreeContext,
    readonly parent: DataStoresGroupNode,
    readonly store: DataStore,
  ) {
    this.id = `${parent.id}/${encodeURIComponent(store.name)}`;
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.store.name, vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon('archive');
    item.tooltip = this.store.createdTime ? `Created ${this.store.createdTime}` : undefined;
    item.contextValue = 'dataStore';
    return item;
  }
}
