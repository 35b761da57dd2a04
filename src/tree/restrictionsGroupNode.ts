import vscode = require('vscode');
import type { UserRestriction } from '../api';
import type { TreeContext, TreeNode } from './node';
import type { Pager } from './pager';
import { PlaceRestrictionsNode } from './placeRestrictionsNode';
import { restrictionChildren, restrictionPager, type RestrictionListNode } from './restrictionNode';
import type { UniverseNode } from './universeNode';

/** The universe's restrictions, and under them the places the user asked to see ("Show Place…"). */
export class RestrictionsGroupNode implements RestrictionListNode {
  readonly id: string;
  readonly pager: Pager<UserRestriction>;
  readonly places: PlaceRestrictionsNode[] = [];

  constructor(
    readonly ctx: TreeContext,
    readonly parent: UniverseNode,
  ) {
    this.id = `${parent.id}/restrictions`;
    this.pager = restrictionPager(ctx, this);
  }

  get connectionId(): string {
    return this.parent.connectionId;
  }

  get universeId(): number {
    return this.parent.universe.id;
  }

  get readOnly(): boolean {
    return this.parent.readOnly;
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem('User Restrictions', vscode.TreeItemCollapsibleState.Collapsed);
    item.iconPath = new vscode.ThemeIcon('shield');
    item.tooltip = `Restrictions of universe ${this.universeId}; "Show Place…" lists those of one place`;
    item.contextValue = this.readOnly ? 'restrictions.readOnly' : 'restrictions';
    return item;
  }

  async children(): Promise<TreeNode[]> {
    return [...this.places, ...(await restrictionChildren(this))];
  }

  /** The node of a place, added the first time it is asked for. */
  showPlace(placeId: number): PlaceRestrictionsNode {
    let node = this.places.find((p) => p.placeId === placeId);
    if (!node) {
      node = new PlaceRestrictionsNode(this.ctx, this, placeId);
      this.places.push(node);
    }
    return node;
  }

  hidePlace(node: PlaceRestrictionsNode): void {
    const i = this.places.indexOf(node);
    if (i >= 0) this.places.splice(i, 1);
  }

  /** A universe ban shows at every place, so the places reload too. */
  reset(): void {
    this.pager.reset();
    for (const place of this.places) place.reset();
  }
}
