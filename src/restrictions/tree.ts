// The User Restrictions group of a universe: its restrictions, the places shown under it and theirs.
import vscode = require('vscode');
import type { UserRestriction } from '../api';
import { t } from '../core/text';
import { localAndUtc } from '../core/time';
import { pagedChildren, type PagedNode } from '../core/tree/loadMoreNode';
import type { TreeNode } from '../core/tree/node';
import type { Pager } from '../core/tree/pager';
import type { UniverseNode } from '../core/tree/connectionNodes';
import { describeDuration, formatTimeLeft, fromServiceDuration } from '../core/duration';
import type { RestrictionScope, RestrictionsModel } from './model';

/** The universe's restrictions, and under them the places the user asked to see ("Show Place…"). */
export class RestrictionsGroupNode implements RestrictionListNode {
  readonly id: string;
  readonly scope: RestrictionScope;
  /** Kept while the place is shown, so the tree and a reveal see one node per place. */
  private readonly placeNodes = new Map<number, PlaceRestrictionsNode>();

  constructor(
    readonly model: RestrictionsModel,
    readonly parent: UniverseNode,
  ) {
    this.id = restrictionsGroupId(parent.id);
    this.scope = { connectionId: parent.connectionId, universeId: parent.universe.id };
  }

  get pager(): Pager<UserRestriction> {
    return this.model.list(this.scope);
  }

  get readOnly(): boolean {
    return this.parent.readOnly;
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem(t`User Restrictions`, vscode.TreeItemCollapsibleState.Collapsed);
    item.iconPath = new vscode.ThemeIcon('shield');
    item.tooltip = t`Restrictions of universe ${this.scope.universeId}; "Show Place…" lists those of one place`;
    item.contextValue = this.readOnly ? 'restrictions.readOnly' : 'restrictions';
    return item;
  }

  async children(): Promise<TreeNode[]> {
    const shown = this.model.places(this.scope);
    for (const placeId of this.placeNodes.keys()) if (!shown.includes(placeId)) this.placeNodes.delete(placeId);
    const places = shown.map((placeId) => {
      let node = this.placeNodes.get(placeId);
      if (!node) this.placeNodes.set(placeId, (node = new PlaceRestrictionsNode(this.model, this, placeId)));
      return node;
    });
    return [...places, ...(await restrictionChildren(this))];
  }

  /** A universe ban shows at every place, so the places reload too. */
  reset(): void {
    this.model.forget(this.scope);
  }
}

export const restrictionsGroupId = (universeNodeId: string): string => `${universeNodeId}/restrictions`;

/** The restrictions at one place path: its own, and the universe's active bans shown as inherited. */
export class PlaceRestrictionsNode implements RestrictionListNode {
  readonly id: string;
  readonly scope: RestrictionScope;

  constructor(
    readonly model: RestrictionsModel,
    readonly parent: RestrictionsGroupNode,
    readonly placeId: number,
  ) {
    this.id = placeNodeId(parent.id, placeId);
    this.scope = { ...parent.scope, placeId };
  }

  get pager(): Pager<UserRestriction> {
    return this.model.list(this.scope);
  }

  get readOnly(): boolean {
    return this.parent.readOnly;
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem(t`Place ${this.placeId}`, vscode.TreeItemCollapsibleState.Expanded);
    item.description = t`restrictions at this place`;
    item.tooltip = t`Restrictions at place ${this.placeId}, with the universe's active bans shown as inherited`;
    item.iconPath = new vscode.ThemeIcon('location');
    item.contextValue = this.readOnly ? 'restrictionsPlace.readOnly' : 'restrictionsPlace';
    return item;
  }

  children(): Promise<TreeNode[]> {
    return restrictionChildren(this);
  }

  reset(): void {
    this.model.forget(this.scope);
  }
}

export const placeNodeId = (groupId: string, placeId: number): string => `${groupId}/place:${placeId}`;

/** A tree node listing the restrictions of a scope (the User Restrictions group, or a place under it). */
export interface RestrictionListNode extends PagedNode {
  readonly model: RestrictionsModel;
  readonly scope: RestrictionScope;
  readonly readOnly: boolean;
  readonly pager: Pager<UserRestriction>;
}

/** The loaded restrictions, active ones first (the service sorts by user id), then "Load more…". */
export async function restrictionChildren(node: RestrictionListNode): Promise<TreeNode[]> {
  const nodes = await pagedChildren(node, node.pager, (r) => new RestrictionNode(node, r));
  const rank = (n: TreeNode) => (n instanceof RestrictionNode ? (n.restriction.gameJoinRestriction.active ? 0 : 1) : 2);
  return nodes.sort((a, b) => rank(a) - rank(b));
}

/** What excludeAltAccounts means, in words. */
export function altAccounts(exclude: boolean): string {
  return exclude ? t`excluded (this account only)` : t`also restricted`;
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

  /** The user as another area's command takes them: Show Player… on this row. */
  get player(): { connectionId: string; universeId: number; userId: string } {
    const { connectionId, universeId } = this.parent.scope;
    return { connectionId, universeId, userId: this.userId };
  }

  item(): vscode.TreeItem {
    const r = this.restriction.gameJoinRestriction;
    const item = new vscode.TreeItem(this.userId, vscode.TreeItemCollapsibleState.None);
    item.description = [
      r.active ? t`active` : t`inactive`,
      r.active ? formatTimeLeft(r.startTime, r.duration, Date.now()) : '',
      r.inherited ? t`inherited from the universe` : '',
    ]
      .filter(Boolean)
      .join(' · ');
    // A plain string, not Markdown: reasons are shown exactly as the service returned them.
    item.tooltip = this.tooltip();
    item.iconPath = new vscode.ThemeIcon(r.inherited ? 'arrow-down' : r.active ? 'circle-slash' : 'circle-outline');
    item.contextValue = [
      'restriction',
      r.active ? 'active' : 'inactive',
      r.inherited && 'inherited',
      this.parent.readOnly && 'readOnly',
    ]
      .filter(Boolean)
      .join('.');
    return item;
  }

  private tooltip(): string {
    const r = this.restriction.gameJoinRestriction;
    const scope = this.parent.scope;
    const where = scope.placeId === undefined ? t`universe ${scope.universeId}` : t`place ${scope.placeId}`;
    // The row shows the time left; the tooltip says when that is.
    const seconds = fromServiceDuration(r.duration);
    const start = Date.parse(r.startTime ?? '');
    const ends = seconds === undefined || Number.isNaN(start) ? undefined : start + seconds * 1000;
    return [
      r.active ? t`User ${this.userId} at ${where}: restricted` : t`User ${this.userId} at ${where}: not restricted`,
      r.inherited ? t`Inherited from a universe-wide ban` : '',
      r.active ? this.durationLine(r.duration) : '',
      r.startTime ? t`Started: ${localAndUtc(r.startTime)}` : '',
      r.active && ends !== undefined ? t`Ends: ${localAndUtc(ends)}` : '',
      t`Display reason: ${r.displayReason || t`(none)`}`,
      t`Private reason: ${r.privateReason || t`(none)`}`,
      t`Alt accounts: ${altAccounts(r.excludeAltAccounts)}`,
      this.restriction.updateTime ? t`Updated: ${localAndUtc(this.restriction.updateTime)}` : '',
    ]
      .filter(Boolean)
      .join('\n');
  }

  /** `Duration: 7d (604800s)`: how it reads, then the service's own form. */
  private durationLine(duration: string | undefined): string {
    return duration
      ? t`Duration: ${describeDuration(duration)} (${duration})`
      : t`Duration: ${describeDuration(duration)}`;
  }
}
