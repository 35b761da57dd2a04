import vscode = require('vscode');
import type { UserRestriction } from '../api';
import { describeDuration, formatTimeLeft } from '../duration';
import { settings } from '../settings';
import { pagedChildren, type PagedNode } from './loadMoreNode';
import type { TreeContext, TreeNode } from './node';
import { Pager } from './pager';

/** Where restrictions are listed and written: a whole universe, or one place of it. */
export interface RestrictionScope {
  readonly connectionId: string;
  readonly universeId: number;
  /** Absent: the universe level. */
  readonly placeId?: number;
  readonly readOnly: boolean;
}

/** A tree node listing the restrictions of a scope (the User Restrictions group, or a place under it). */
export interface RestrictionListNode extends PagedNode, RestrictionScope {
  readonly pager: Pager<UserRestriction>;
}

export function restrictionPager(ctx: TreeContext, scope: RestrictionScope): Pager<UserRestriction> {
  return new Pager(async (pageToken, signal) => {
    const client = await ctx.connections.client(scope.connectionId);
    const page = await client.restrictions.list(
      { universeId: scope.universeId, placeId: scope.placeId, maxPageSize: Math.min(settings().pageSize, 100), pageToken },
      { signal },
    );
    return { items: page.userRestrictions, next: page.nextPageToken };
  });
}

/** The loaded restrictions, active ones first (the service sorts by user id), then "Load more…". */
export async function restrictionChildren(node: RestrictionListNode): Promise<TreeNode[]> {
  const nodes = await pagedChildren(node, node.pager, (r) => new RestrictionNode(node, r));
  const rank = (n: TreeNode) => (n instanceof RestrictionNode ? (n.restriction.gameJoinRestriction.active ? 0 : 1) : 2);
  return nodes.sort((a, b) => rank(a) - rank(b));
}

/** What excludeAltAccounts means, in words. */
export function altAccounts(exclude: boolean): string {
  return exclude ? 'excluded (this account only)' : 'also restricted';
}

export function userIdOf(restriction: UserRestriction): string {
  return restriction.user.replace(/^users\//, '');
}

export class RestrictionNode implements TreeNode {
  readonly id: string;

  constructor(
    readonly parent: RestrictionListNode,
    readonly restriction: UserRestriction,
  ) {
    this.id = `${parent.id}/${encodeURIComponent(restriction.user)}`;
  }

  get userId(): string {
    return userIdOf(this.restriction);
  }

  item(): vscode.TreeItem {
    const r = this.restriction.gameJoinRestriction;
    const item = new vscode.TreeItem(this.userId, vscode.TreeItemCollapsibleState.None);
    item.description = [
      r.active ? 'active' : 'inactive',
      r.active ? formatTimeLeft(r.startTime, r.duration, Date.now()) : '',
      r.inherited ? 'inherited from the universe' : '',
    ]
      .filter(Boolean)
      .join(' · ');
    // A plain string, not Markdown: reasons are shown exactly as the service returned them.
    item.tooltip = this.tooltip();
    item.iconPath = new vscode.ThemeIcon(r.inherited ? 'arrow-down' : r.active ? 'circle-slash' : 'circle-outline');
    item.contextValue = ['restriction', r.active ? 'active' : 'inactive', r.inherited && 'inherited', this.parent.readOnly && 'readOnly']
      .filter(Boolean)
      .join('.');
    return item;
  }

  private tooltip(): string {
    const r = this.restriction.gameJoinRestriction;
    const where = this.parent.placeId === undefined ? `universe ${this.parent.universeId}` : `place ${this.parent.placeId}`;
    return [
      `User ${this.userId} at ${where}: ${r.active ? 'restricted' : 'not restricted'}`,
      r.inherited ? 'Inherited from a universe-wide ban' : '',
      r.active ? `Duration: ${describeDuration(r.duration)}${r.duration ? ` (${r.duration})` : ''}` : '',
      r.startTime ? `Started: ${r.startTime}` : '',
      `Display reason: ${r.displayReason || '(none)'}`,
      `Private reason: ${r.privateReason || '(none)'}`,
      `Alt accounts: ${altAccounts(r.excludeAltAccounts)}`,
      this.restriction.updateTime ? `Updated: ${this.restriction.updateTime}` : '',
    ]
      .filter(Boolean)
      .join('\n');
  }
}
