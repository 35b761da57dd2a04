import vscode = require('vscode');
import type { AssetList } from '../assetList';
import type { Connection, Connections } from '../connections';
import { isCancel, reason } from '../errors';
import { ConnectionNode } from './connectionNode';
import { ErrorNode } from './errorNode';
import type { TreeContext, TreeNode } from './node';

/** The Universes tree: connections at the root, each node loading its own children. */
export class UniverseTree implements vscode.TreeDataProvider<TreeNode>, TreeContext, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private roots = new Map<string, ConnectionNode>();

  constructor(
    readonly connections: Connections,
    readonly assets: AssetList,
  ) {
    connections.onDidChange(() => this.refresh());
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const item = node.item();
    item.id = node.id;
    return item;
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) return this.rootNodes();
    if (!node.children) return [];
    try {
      return await node.children();
    } catch (error) {
      if (isCancel(error)) return [];
      return [new ErrorNode(node, error)];
    }
  }

  async resolveTreeItem(item: vscode.TreeItem, node: TreeNode, token: vscode.CancellationToken): Promise<vscode.TreeItem> {
    if (!node.resolveTooltip || item.tooltip) return item;
    const controller = new AbortController();
    token.onCancellationRequested(() => controller.abort());
    item.tooltip = await node.resolveTooltip(controller.signal).catch((error) => `Couldn't load details: ${reason(error)}`);
    return item;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  /** Reloads a node's children (the whole tree without a node). */
  refresh(node?: TreeNode): void {
    if (node) node.reset?.();
    else this.roots.clear();
    this.changed.fire(node);
  }

  /** Redraws a node's children without forgetting what was loaded. */
  update(node: TreeNode): void {
    this.changed.fire(node);
  }

  dispose(): void {
    this.changed.dispose();
  }

  private rootNodes(): ConnectionNode[] {
    const next = new Map<string, ConnectionNode>();
    for (const connection of this.connections.list()) {
      const known = this.roots.get(connection.id);
      next.set(connection.id, known && same(known.connection, connection) ? known : new ConnectionNode(this, connection));
    }
    this.roots = next;
    return [...next.values()];
  }
}

function same(a: Connection, b: Connection): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
