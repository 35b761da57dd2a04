import * as vscode from 'vscode';
import type { UserRestriction } from '../api';
import type { TreeNode } from './node';

export class RestrictionNode implements TreeNode {
  readonly id: string;

  constructor(
    readonly parent: TreeNode,
    readonly restriction: UserRestriction,
  ) {
    this.id = `${parent.id}/${encodeURIComponent(restriction.user)}`;
  }

  item(): vscode.TreeItem {
    const r = this.restriction.gameJoinRestriction;
    const item = new vscode.TreeItem(this.restriction.user, vscode.TreeItemCollapsibleState.None);
    item.description = [r.active ? 'active' : 'inactive', r.inherited ? 'inherited' : ''].filter(Boolean).join(' · ');
    item.iconPath = new vscode.ThemeIcon(r.active ? 'circle-slash' : 'circle-outline');
    item.contextValue = r.active ? 'restriction.active' : 'restriction';
    return item;
  }
}
