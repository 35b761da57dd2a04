import vscode = require('vscode');
import type { Connection, Connections } from '../connections';
import { isCancel, reason } from '../errors';
import { t } from '../text';
import { ConnectionNode, type GroupFactory } from './connectionNodes';
import { ErrorNode } from './errorNode';
import type { TreeNode } from './node';

/** The Universes tree: connections at the root, each node loading its own children. */
export class UniverseTree implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private roots = new Map<string, ConnectionNode>();
  /** The children each node last returned: what the tree shows, for views that follow their model. */
  private readonly shown = new WeakMap<TreeNode, TreeNode[]>();
  private readonly groups: GroupFactory[] = [];

  constructor(private readonly connections: Connections) {
    connections.onDidChange(() => this.refresh());
  }

  /** An area's group under every universe (Data Stores, User Restrictions, Assets), in the order added. */
  addGroup(group: GroupFactory): void {
    this.groups.push(group);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const item = node.item();
    item.id = node.id;
    // Screen readers hear what the row shows, not its tooltip (VS Code reads a plain-text tooltip by default).
    item.accessibilityInformation ??= { label: shownText(item) };
    return item;
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) return this.rootNodes();
    if (!node.children) return [];
    try {
      const children = await node.children();
      this.shown.set(node, children);
      return children;
    } catch (error) {
      if (isCancel(error)) return [];
      return [new ErrorNode(node, error)];
    }
  }

  async resolveTreeItem(
    item: vscode.TreeItem,
    node: TreeNode,
    token: vscode.CancellationToken,
  ): Promise<vscode.TreeItem> {
    if (!node.resolveTooltip || item.tooltip) return item;
    const controller = new AbortController();
    token.onCancellationRequested(() => controller.abort());
    item.tooltip = await node
      .resolveTooltip(controller.signal)
      .catch((error) => t`Couldn't load details: ${reason(error)}`);
    return item;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  /** Reloads a node's children (the whole tree without a node). */
  refresh(node?: TreeNode): void {
    if (node) {
      node.reset?.();
      this.shown.delete(node);
    } else this.roots.clear();
    this.changed.fire(node);
  }

  /** Redraws a node and its children without forgetting what was loaded. */
  update(node: TreeNode): void {
    this.shown.delete(node);
    this.changed.fire(node);
  }

  /** Every node the tree has loaded and still shows, parents before children. */
  loaded(): TreeNode[] {
    const out: TreeNode[] = [];
    const visit = (nodes: readonly TreeNode[]) => {
      for (const n of nodes) {
        out.push(n);
        visit(this.shown.get(n) ?? []);
      }
    };
    visit([...this.roots.values()]);
    return out;
  }

  /** The node with this id, loading its ancestors on the way (ids are paths); undefined when it is not listed. */
  async find(id: string): Promise<TreeNode | undefined> {
    let level: TreeNode[] = await this.getChildren();
    for (;;) {
      const node = level.find((n) => id === n.id || id.startsWith(`${n.id}/`));
      if (!node || node.id === id) return node;
      level = this.shown.get(node) ?? (await this.getChildren(node));
    }
  }

  dispose(): void {
    this.changed.dispose();
  }

  private rootNodes(): ConnectionNode[] {
    const next = new Map<string, ConnectionNode>();
    for (const connection of this.connections.list()) {
      const known = this.roots.get(connection.id);
      next.set(
        connection.id,
        known && same(known.connection, connection) ? known : new ConnectionNode(connection, this.groups),
      );
    }
    this.roots = next;
    return [...next.values()];
  }
}

function same(a: Connection, b: Connection): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A row's label and description, as they read on screen. */
function shownText(item: vscode.TreeItem): string {
  const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
  return [label, typeof item.description === 'string' ? item.description : ''].filter(Boolean).join(', ');
}
