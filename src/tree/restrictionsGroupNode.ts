import * as vscode from 'vscode';
import type { UserRestriction } from '../api';
import { settings } from '../settings';
import { pagedChildren, type PagedNode } from './loadMoreNode';
import type { TreeContext, TreeNode } from './node';
import { Pager } from './pager';
import { RestrictionNode } from './restrictionNode';
import type { UniverseNode } from './universeNode';

export class RestrictionsGroupNode implements PagedNode {
  readonly id: string;
  readonly pager: Pager<UserRestriction>;

  constructor(
    readonly ctx: TreeContext,
    readonly parent: UniverseNode,
  ) {
    this.id = `${parent.id}/restrictions`;
    this.pager = new Pager(async (pageToken, signal) => {
      const client = await ctx.connections.client(parent.connectionId);
      const page = await client.restrictions.list(
        { universeId: parent.universe.id, maxPageSize: Math.min(settings().pageSize, 100), pageToken },
        { signal },
      );
      return { items: page.userRestrictions, next: page.nextPageToken };
    });
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem('User Restrictions', vscode.TreeItemCollapsibleState.Collapsed);
    item.iconPath = new vscode.ThemeIcon('shield');
    item.contextValue = 'restrictions';
    return item;
  }

  children(): Promise<TreeNode[]> {
    return pagedChildren(this, this.pager, (r) => new RestrictionNode(this, r));
  }

  reset(): void {
    this.pager.reset();
  }
}
