// The Memory Stores group of a universe: its remembered sorted maps (each listing its items in map order, a page at a
// time) and queues. The service cannot list either, so the names are the ones added or opened here.
import vscode = require('vscode');
import type { SortedMapItem } from '../api';
import { t } from '../core/text';
import { localAndUtc } from '../core/time';
import { pagedChildren, type PagedNode } from '../core/tree/loadMoreNode';
import { MessageNode } from '../core/tree/messageNode';
import type { TreeNode } from '../core/tree/node';
import { Pager } from '../core/tree/pager';
import type { UniverseNode } from '../core/tree/connectionNodes';
import type { UniverseAddress } from '../core/universe';
import { itemUri } from './itemUris';
import type { MemoryKind, MemoryModel } from './model';
import { describeExpiry } from './values';

const unlisted = () =>
  t`The service cannot list these, so the names you add or open are remembered here (per universe).`;

export class MemoryGroupNode implements TreeNode {
  readonly id: string;
  private kinds: TreeNode[] | undefined;

  constructor(
    readonly model: MemoryModel,
    readonly parent: UniverseNode,
  ) {
    this.id = memoryGroupId(parent.id);
  }

  get ref(): UniverseAddress {
    return this.parent.address;
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem(t`Memory Stores`, vscode.TreeItemCollapsibleState.Collapsed);
    item.iconPath = new vscode.ThemeIcon('server-process');
    item.tooltip = t`Sorted maps and queues the game servers share; every item has a time to live.`;
    item.contextValue = this.parent.readOnly ? 'memoryStores.readOnly' : 'memoryStores';
    return item;
  }

  async children(): Promise<TreeNode[]> {
    this.kinds ??= [new MemoryKindNode(this, 'sortedMap'), new MemoryKindNode(this, 'queue')];
    return this.kinds;
  }
}

export const memoryGroupId = (universeNodeId: string): string => `${universeNodeId}/memory`;

/** "Sorted Maps" or "Queues": the remembered names of one kind. */
export class MemoryKindNode implements TreeNode {
  readonly id: string;

  constructor(
    readonly parent: MemoryGroupNode,
    readonly kind: MemoryKind,
  ) {
    this.id = `${parent.id}/${kind}`;
  }

  get ref(): UniverseAddress {
    return this.parent.ref;
  }

  get model(): MemoryModel {
    return this.parent.model;
  }

  item(): vscode.TreeItem {
    const maps = this.kind === 'sortedMap';
    const item = new vscode.TreeItem(maps ? t`Sorted Maps` : t`Queues`, vscode.TreeItemCollapsibleState.Collapsed);
    item.iconPath = new vscode.ThemeIcon(maps ? 'list-ordered' : 'list-unordered');
    item.tooltip = unlisted();
    item.contextValue = maps ? 'memory.sortedMaps' : 'memory.queues';
    return item;
  }

  async children(): Promise<TreeNode[]> {
    const names = this.model.names(this.ref, this.kind);
    const maps = this.kind === 'sortedMap';
    if (names.length === 0) {
      const command = maps ? 'universeExplorer.addSortedMap' : 'universeExplorer.addQueue';
      const add = { command, title: t`Add by Name…`, arguments: [this] };
      const words = maps ? t`No sorted maps yet: add one by name…` : t`No queues yet: add one by name…`;
      return [new MessageNode(this, words, add, 'add')];
    }
    return names.map((name) => (maps ? new SortedMapNode(this, name) : new QueueNode(this, name)));
  }
}

export class SortedMapNode implements PagedNode {
  readonly id: string;
  readonly pager: Pager<SortedMapItem>;

  constructor(
    readonly parent: MemoryKindNode,
    readonly name: string,
  ) {
    this.id = `${parent.id}/m:${name}`;
    this.pager = new Pager((cursor, signal) => parent.model.listItems(this.ref, name, cursor, signal));
  }

  get ref(): UniverseAddress {
    return this.parent.ref;
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.iconPath = new vscode.ThemeIcon('list-ordered');
    item.tooltip = [
      t`Sorted map ${this.name}`,
      t`Items in map order: numeric sort keys, then text ones, then none.`,
    ].join('\n');
    item.contextValue = this.parent.parent.parent.readOnly ? 'memory.sortedMap.readOnly' : 'memory.sortedMap';
    return item;
  }

  async children(): Promise<TreeNode[]> {
    const nodes = await pagedChildren(this, this.pager, (i) => new SortedMapItemNode(this, i));
    if (nodes.length) return nodes;
    return [new MessageNode(this, t`No items: the map is empty, or every item expired`)];
  }

  reset(): void {
    this.pager.reset();
  }
}

export class SortedMapItemNode implements TreeNode {
  readonly id: string;

  constructor(
    readonly parent: SortedMapNode,
    readonly mapItem: SortedMapItem,
  ) {
    this.id = `${parent.id}/i:${mapItem.key}`;
  }

  get ref(): UniverseAddress {
    return this.parent.ref;
  }

  get address() {
    return { ...this.ref, mapName: this.parent.name, key: this.mapItem.key };
  }

  item(): vscode.TreeItem {
    const i = this.mapItem;
    const item = new vscode.TreeItem(i.key, vscode.TreeItemCollapsibleState.None);
    const sortKey = i.sortKey === undefined ? '' : t`sort key ${JSON.stringify(i.sortKey)}`;
    item.description = [sortKey, describeExpiry(i.expireTime, Date.now())].filter(Boolean).join(' · ');
    item.tooltip = [
      t`${i.key} in sorted map ${this.parent.name}`,
      i.sortKey === undefined ? t`No sort key` : t`Sort key: ${JSON.stringify(i.sortKey)}`,
      i.expireTime ? t`Expires: ${localAndUtc(i.expireTime, { seconds: true })}` : '',
    ]
      .filter(Boolean)
      .join('\n');
    item.iconPath = new vscode.ThemeIcon('symbol-field');
    item.contextValue = this.parent.parent.parent.parent.readOnly ? 'memory.mapItem.readOnly' : 'memory.mapItem';
    item.command = { command: 'vscode.open', title: t`Open Item`, arguments: [itemUri(this.address)] };
    return item;
  }
}

/** A queue: nothing to list (a read hides what it reads), so a leaf with its commands. */
export class QueueNode implements TreeNode {
  readonly id: string;

  constructor(
    readonly parent: MemoryKindNode,
    readonly name: string,
  ) {
    this.id = `${parent.id}/q:${name}`;
  }

  get ref(): UniverseAddress {
    return this.parent.ref;
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.name, vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon('inbox');
    item.tooltip = [
      t`Queue ${this.name}`,
      t`There is no peek: Read and Hold… takes items and hides them from the game servers for a while.`,
    ].join('\n');
    item.contextValue = this.parent.parent.parent.readOnly ? 'memory.queue.readOnly' : 'memory.queue';
    return item;
  }
}
