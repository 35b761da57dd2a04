import { t } from '../text';
import vscode = require('vscode');
import type { TreeNode } from './node';
import type { Pager } from './pager';

export interface PagedNode extends TreeNode {
  readonly pager: Pager<unknown>;
}

/** The last child of a paged list while more pages remain. */
export class LoadMoreNode implements TreeNode {
  readonly id: string;

  constructor(readonly parent: PagedNode) {
    this.id = `${parent.id}/~more`;
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem(t`Load more…`, vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon('ellipsis');
    item.contextValue = 'loadMore';
    item.command = { command: 'universeExplorer.loadMore', title: t`Load more`, arguments: [this.parent] };
    return item;
  }
}

/** Children of a paged node: what is loaded, then "Load more…" while a cursor remains. */
export async function pagedChildren<T>(
  node: PagedNode,
  pager: Pager<T>,
  toNode: (item: T) => TreeNode,
): Promise<TreeNode[]> {
  const items = await pager.first();
  const nodes = items.map(toNode);
  return pager.hasMore ? [...nodes, new LoadMoreNode(node)] : nodes;
}
