import vscode = require('vscode');
import type { Connection } from '../connections';
import { MessageNode } from './messageNode';
import type { TreeContext, TreeNode } from './node';
import { UniverseNode } from './universeNode';

export class ConnectionNode implements TreeNode {
  readonly id: string;
  private universes: UniverseNode[] | undefined;

  constructor(
    readonly ctx: TreeContext,
    readonly connection: Connection,
  ) {
    this.id = `conn:${connection.id}`;
  }

  item(): vscode.TreeItem {
    const c = this.connection;
    const item = new vscode.TreeItem(c.name, vscode.TreeItemCollapsibleState.Expanded);
    item.description = c.baseUrl;
    item.tooltip = `${c.name}\n${c.baseUrl}\nUniverses: ${c.universes.map((u) => u.id).join(', ') || 'none'}`;
    item.iconPath = new vscode.ThemeIcon(c.sandbox ? 'beaker' : 'plug');
    item.contextValue = c.sandbox ? 'connection.sandbox' : 'connection';
    return item;
  }

  async children(): Promise<TreeNode[]> {
    if (this.connection.universes.length === 0) {
      return [
        new MessageNode(this, 'No universes yet: add one…', {
          command: 'universeExplorer.addUniverse',
          title: 'Add Universe',
          arguments: [this],
        }, 'add'),
      ];
    }
    this.universes ??= this.connection.universes.map((u) => new UniverseNode(this.ctx, this, u));
    return this.universes;
  }

  reset(): void {
    this.universes = undefined;
  }
}
