// The Ordered Data Stores group of a universe (the stores remembered here), each store's entries by value, paged.
import vscode = require('vscode');
import type { OrderedEntry } from '../api';
import { t } from '../core/text';
import type { UniverseNode } from '../core/tree/connectionNodes';
import { pagedChildren, type PagedNode } from '../core/tree/loadMoreNode';
import { MessageNode } from '../core/tree/messageNode';
import type { TreeNode } from '../core/tree/node';
import { Pager } from '../core/tree/pager';
import { isReadOnly, type UniverseAddress } from '../core/universe';
import type { OrderedModel } from './model';
import { filterText, formatValue, rememberedName, type OrderedStoreRef } from './names';

/** The service cannot list ordered data stores: the group shows those added by name (or opened) here. */
export class OrderedGroupNode implements TreeNode {
  readonly id: string;
  private stores: OrderedStoreNode[] | undefined;

  constructor(
    readonly model: OrderedModel,
    readonly parent: UniverseNode,
  ) {
    this.id = `${parent.id}/ordered`;
  }

  get ref(): UniverseAddress {
    return this.parent.address;
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem(t`Ordered Data Stores`, vscode.TreeItemCollapsibleState.Collapsed);
    item.iconPath = new vscode.ThemeIcon('list-ordered');
    item.tooltip = t`The service cannot list ordered data stores, so the ones added by name or opened are remembered here.`;
    item.contextValue = 'orderedStores';
    return item;
  }

  async children(): Promise<TreeNode[]> {
    const stores = this.model.stores(this.ref);
    if (stores.length === 0) {
      const add = { command: 'universeExplorer.addOrderedStore', title: t`Add by Name`, arguments: [this] };
      return [new MessageNode(this, t`No ordered data stores here yet: Add by Name…`, add, 'add')];
    }
    this.stores ??= stores.map((s) => new OrderedStoreNode(this.model, this, s));
    return this.stores;
  }

  reset(): void {
    this.stores = undefined;
  }
}

/** A remembered store, expanding to its entries by value (highest first unless ascending), within its range. */
export class OrderedStoreNode implements PagedNode {
  readonly id: string;
  readonly pager: Pager<OrderedEntry>;

  constructor(
    readonly model: OrderedModel,
    readonly parent: OrderedGroupNode,
    readonly ref: OrderedStoreRef,
  ) {
    this.id = orderedStoreId(parent.id, ref);
    this.pager = new Pager((cursor, signal) => model.listPage(ref, cursor, signal));
  }

  item(): vscode.TreeItem {
    const { store, scope } = this.ref;
    const { order, range } = this.model.view(this.ref);
    const filter = range ? filterText(range) : '';
    const item = new vscode.TreeItem(store, vscode.TreeItemCollapsibleState.Collapsed);
    item.description =
      [scope === 'global' ? '' : scope, filter, order === 'asc' ? t`ascending` : ''].filter(Boolean).join(' · ') ||
      undefined;
    item.tooltip = [
      t`Ordered data store ${store}, scope ${scope}`,
      order === 'asc' ? t`Listed by value, lowest first` : t`Listed by value, highest first`,
      filter ? t`Only values where ${filter}` : '',
    ]
      .filter(Boolean)
      .join('\n');
    item.iconPath = new vscode.ThemeIcon('database');
    item.contextValue = [
      'orderedStore',
      order === 'asc' && 'asc',
      range && 'filtered',
      isReadOnly(this.ref) && 'readOnly',
    ]
      .filter(Boolean)
      .join('.');
    return item;
  }

  children(): Promise<TreeNode[]> {
    let rank = 0;
    return pagedChildren(this, this.pager, (entry) => new OrderedEntryNode(this, entry, ++rank));
  }

  reset(): void {
    this.pager.reset();
  }
}

export const orderedStoreId = (groupId: string, s: OrderedStoreRef): string =>
  `${groupId}/s:${encodeURIComponent(rememberedName(s))}`;

/** An entry: its id, its value (as a write here left it), and its place in the list as loaded. */
export class OrderedEntryNode implements TreeNode {
  readonly id: string;

  constructor(
    readonly parent: OrderedStoreNode,
    readonly entry: OrderedEntry,
    readonly rank: number,
  ) {
    this.id = `${parent.id}/e:${encodeURIComponent(entry.key)}`;
  }

  get store(): OrderedStoreRef {
    return this.parent.ref;
  }

  get key(): string {
    return this.entry.key;
  }

  /** The value listed, or the one a write here gave it since. */
  get value(): number {
    return this.parent.model.writtenValue(this.store, this.key) ?? this.entry.value;
  }

  item(): vscode.TreeItem {
    const changed = this.value !== this.entry.value;
    const order = this.parent.model.view(this.store).order;
    const item = new vscode.TreeItem(this.key, vscode.TreeItemCollapsibleState.None);
    item.description = formatValue(this.value);
    item.tooltip = [
      t`${this.key}: ${formatValue(this.value)}`,
      order === 'asc' ? t`Rank ${this.rank} from the lowest value` : t`Rank ${this.rank} from the highest value`,
      changed ? t`Changed here since the list loaded; Refresh places it again.` : '',
    ]
      .filter(Boolean)
      .join('\n');
    item.iconPath = new vscode.ThemeIcon('symbol-number');
    item.contextValue = isReadOnly(this.store) ? 'orderedEntry.readOnly' : 'orderedEntry';
    return item;
  }
}
