import vscode = require('vscode');
import type { TreeNode } from './node';

/** A plain line of text in the tree, optionally running a command when clicked. */
export class MessageNode implements TreeNode {
  readonly id: string;

  constructor(
    readonly parent: TreeNode,
    private readonly label: string,
    private readonly command?: vscode.Command,
    private readonly icon = 'info',
  ) {
    this.id = `${parent.id}/~message`;
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon(this.icon);
    item.contextValue = 'message';
    item.command = this.command;
    return item;
  }
}
