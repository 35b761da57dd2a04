import * as vscode from 'vscode';
import { MessageNode } from './messageNode';
import type { TreeContext, TreeNode } from './node';
import type { UniverseNode } from './universeNode';

/** There is no call that lists a creator's assets; this group shows the assets this connection knows. */
export class AssetsGroupNode implements TreeNode {
  readonly id: string;

  constructor(
    readonly ctx: TreeContext,
    readonly parent: UniverseNode,
  ) {
    this.id = `${parent.id}/assets`;
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem('Assets', vscode.TreeItemCollapsibleState.Collapsed);
    item.iconPath = new vscode.ThemeIcon('file-media');
    item.contextValue = 'assets';
    return item;
  }

  async children(): Promise<TreeNode[]> {
    return [new MessageNode(this, 'No assets yet: upload a file from the Explorer')];
  }
}
