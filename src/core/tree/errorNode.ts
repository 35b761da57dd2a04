import vscode = require('vscode');
import { reason } from '../errors';
import { t } from '../text';
import type { TreeNode } from './node';

/** Shown instead of a silent empty list when loading children failed; clicking it retries. */
export class ErrorNode implements TreeNode {
  readonly id: string;

  constructor(
    readonly parent: TreeNode,
    readonly error: unknown,
  ) {
    this.id = `${parent.id}/~error`;
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem(t`Couldn't load: ${reason(this.error)}`, vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    item.tooltip = `${reason(this.error)}\n${t`Click to retry.`}`;
    item.contextValue = 'error';
    item.command = { command: 'universeExplorer.refresh', title: t`Retry`, arguments: [this.parent] };
    return item;
  }
}
