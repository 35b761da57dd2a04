// The tree's top two levels: a connection, and its universes with the areas' groups under each.
import vscode = require('vscode');
import type { Connection, ListedUniverse } from '../connections';
import { isReadOnly, readOnlyInSettings, roleName, roleOf, type UniverseAddress } from '../universe';
import { t } from '../text';
import { MessageNode } from './messageNode';
import type { TreeNode } from './node';

/** The theme colour (package.json contributes.colors) production universes are marked with. */
export const PRODUCTION_COLOR = 'universeExplorer.productionForeground';

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

  get address(): UniverseAddress {
    return { connectionId: this.connectionId, universeId: this.universe.id };
  }

  get readOnly(): boolean {
    return isReadOnly(this.address);
  }

  item(): vscode.TreeItem {
    const u = this.universe;
    const role = roleOf(this.address);
    const readOnly = this.readOnly;
    const item = new vscode.TreeItem(u.name ?? t`Universe ${u.id}`, vscode.TreeItemCollapsibleState.Collapsed);
    const marks = [role === 'development' ? '' : roleName(role), readOnly ? t`read-only` : ''].filter(Boolean);
    item.description = [u.name ? String(u.id) : '', ...marks].join(' · ');
    item.tooltip = [
      t`Universe ${u.id}`,
      t`Role: ${roleName(role)}${role === 'production' ? t` (writes ask first)` : ''}`,
      readOnly ? (readOnlyInSettings(u.id) ? t`Read-only in settings` : t`Read-only: Allow Writes lifts it`) : '',
    ]
      .filter(Boolean)
      .join('\n');
    const color = role === 'production' ? new vscode.ThemeColor(PRODUCTION_COLOR) : undefined;
    item.iconPath = new vscode.ThemeIcon(readOnly ? 'lock' : 'globe', color);
    const sandbox = this.parent.connection.sandbox;
    item.contextValue = ['universe', sandbox && 'sandbox', readOnly && 'readOnly'].filter(Boolean).join('.');
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
