import vscode = require('vscode');
import type { UserRestriction } from '../api';
import type { TreeContext, TreeNode } from './node';
import type { Pager } from './pager';
import { restrictionChildren, restrictionPager, type RestrictionListNode } from './restrictionNode';
import type { RestrictionsGroupNode } from './restrictionsGroupNode';

/** The restrictions at one place path: its own, and the universe's active bans shown as inherited. */
export class PlaceRestrictionsNode implements RestrictionListNode {
  readonly id: string;
  readonly pager: Pager<UserRestriction>;

  constructor(
    ctx: TreeContext,
    readonly parent: RestrictionsGroupNode,
    readonly placeId: number,
  ) {
    this.id = `${parent.id}/place:${placeId}`;
    this.pager = restrictionPager(ctx, this);
  }

  get connectionId(): string {
    return this.parent.connectionId;
  }

  get universeId(): number {
    return this.parent.universeId;
  }

  get readOnly(): boolean {
    return this.parent.readOnly;
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem(`Place ${this.placeId}`, vscode.TreeItemCollapsibleState.Expanded);
    item.description = 'restrictions at this place';
    item.tooltip = `Restrictions at place ${this.placeId}, with the universe's active bans shown as inherited`;
    item.iconPath = new vscode.ThemeIcon('location');
    item.contextValue = this.readOnly ? 'restrictionsPlace.readOnly' : 'restrictionsPlace';
    return item;
  }

  children(): Promise<TreeNode[]> {
    return restrictionChildren(this);
  }

  reset(): void {
    this.pager.reset();
  }
}
