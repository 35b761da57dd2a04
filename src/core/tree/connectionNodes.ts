// The tree's top two levels: a connection, and its universes with the areas' groups under each.
import vscode = require('vscode');
import type { Connection, ListedUniverse } from '../connections';
import { isReadOnly } from '../universe';
import { t } from '../text';
import { MessageNode } from './messageNode';
import type { TreeNode } from './node';

export class ConnectionNode implements TreeNode {
  readonly id: string;
  private universes: UniverseNode[] | undefined;

  constructor(
    readonly connection: Connection,
    private readonly groups: readonly GroupFactory[],
  ) {
    this.id = connectionNodeId(connection.id);
  }

  item(): vscode.TreeItem {
    const c = this.connection;
    const item = new vscode.TreeItem(c.name, vscode.TreeItemCollapsibleState.Expanded);
    item.description = c.baseUrl;
    item.tooltip = [
      c.name,
      c.details ?? c.baseUrl,
      t`Universes: ${c.universes.map((u) => u.id).join(', ') || t`none`}`,
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon(c.sandbox ? 'beaker' : 'plug');
    item.contextValue = c.sandbox ? 'connection.sandbox' : 'connection';
    return item;
  }

  async children(): Promise<TreeNode[]> {
    if (this.connection.universes.length === 0) {
      return [
        new MessageNode(
          this,
          t`No universes yet: add one…`,
          { command: 'universeExplorer.addUniverse', title: t`Add Universe`, arguments: [this] },
          'add',
        ),
      ];
    }
    this.universes ??= this.connection.universes.map((u) => new UniverseNode(this, u, this.groups));
    return this.universes;
  }

  reset(): void {
    this.universes = undefined;
  }
}

export const connectionNodeId = (connectionId: string): string => `conn:${connectionId}`;

/** Makes an area's group node under a universe; the wiring hands these to the tree, so core names no area. */
export type GroupFactory = (universe: UniverseNode) => TreeNode;

export class UniverseNode implements TreeNode {
  readonly id: string;
  private groupNodes: TreeNode[] | undefined;

  constructor(
    readonly parent: ConnectionNode,
    readonly universe: ListedUniverse,
    private readonly groups: readonly GroupFactory[],
  ) {
    this.id = universeNodeId(parent.connection.id, universe.id);
  }

  get connectionId(): string {
    return this.parent.connection.id;
  }

  get readOnly(): boolean {
    return isReadOnly(this.universe.id);
  }

  item(): vscode.TreeItem {
    const u = this.universe;
    const item = new vscode.TreeItem(u.name ?? t`Universe ${u.id}`, vscode.TreeItemCollapsibleState.Collapsed);
    item.description = [u.name ? String(u.id) : '', this.readOnly ? t`read-only` : ''].filter(Boolean).join(' · ');
    item.tooltip = this.readOnly ? t`Universe ${u.id} (read-only in settings)` : t`Universe ${u.id}`;
    item.iconPath = new vscode.ThemeIcon('globe');
    item.contextValue = this.readOnly ? 'universe.readOnly' : 'universe';
    return item;
  }

  async children(): Promise<TreeNode[]> {
    this.groupNodes ??= this.groups.map((group) => group(this));
    return this.groupNodes;
  }

  reset(): void {
    this.groupNodes = undefined;
  }
}

export const universeNodeId = (connectionId: string, universeId: number): string =>
  `${connectionNodeId(connectionId)}/u:${universeId}`;
