import vscode = require('vscode');
import type { UniverseRef } from '../connections';
import { settings } from '../settings';
import { AssetsGroupNode } from './assetsGroupNode';
import type { ConnectionNode } from './connectionNode';
import { DataStoresGroupNode } from './dataStoresGroupNode';
import type { TreeContext, TreeNode } from './node';
import { RestrictionsGroupNode } from './restrictionsGroupNode';

export class UniverseNode implements TreeNode {
  readonly id: string;
  private groups: TreeNode[] | undefined;

  constructor(
    readonly ctx: TreeContext,
    readonly parent: ConnectionNode,
    readonly universe: UniverseRef,
  ) {
    this.id = `${parent.id}/u:${universe.id}`;
  }

  get connectionId(): string {
    return this.parent.connection.id;
  }

  get readOnly(): boolean {
    return settings().readOnlyUniverses.includes(this.universe.id);
  }

  item(): vscode.TreeItem {
    const u = this.universe;
    const item = new vscode.TreeItem(u.name ?? `Universe ${u.id}`, vscode.TreeItemCollapsibleState.Collapsed);
    item.description = [u.name ? String(u.id) : '', this.readOnly ? 'read-only' : ''].filter(Boolean).join(' · ');
    item.tooltip = `Universe ${u.id}${this.readOnly ? ' (read-only in settings)' : ''}`;
    item.iconPath = new vscode.ThemeIcon('globe');
    item.contextValue = this.readOnly ? 'universe.readOnly' : 'universe';
    return item;
  }

  async children(): Promise<TreeNode[]> {
    this.groups ??= [
      new DataStoresGroupNode(this.ctx, this),
      new RestrictionsGroupNode(this.ctx, this),
      new AssetsGroupNode(this.ctx, this),
    ];
    return this.groups;
  }

  reset(): void {
    this.groups = undefined;
  }
}
