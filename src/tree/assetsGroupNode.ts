import vscode = require('vscode');
import { AssetNode } from './assetNode';
import { MessageNode } from './messageNode';
import type { TreeContext, TreeNode } from './node';
import type { UniverseNode } from './universeNode';

/** Get Asset shares a per-minute limit with uploads: a long list is read a few assets at a time. */
const PARALLEL_READS = 6;

/**
 * There is no call that lists a creator's assets, and assets do not belong to a universe: every universe's Assets
 * group of a connection shows the same list, the assets this connection uploaded or added by id.
 */
export class AssetsGroupNode implements TreeNode {
  readonly id: string;
  private loading: Promise<AssetNode[]> | undefined;

  constructor(
    readonly ctx: TreeContext,
    readonly parent: UniverseNode,
  ) {
    this.id = `${parent.id}/assets`;
  }

  get connectionId(): string {
    return this.parent.connectionId;
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem('Assets', vscode.TreeItemCollapsibleState.Collapsed);
    item.iconPath = new vscode.ThemeIcon('file-media');
    item.tooltip = 'The assets this connection uploaded or added by id (the same list under every universe)';
    item.contextValue = 'assets';
    return item;
  }

  /** Reads each known asset once per load (Get Asset), so state and moderation are current. */
  async children(): Promise<TreeNode[]> {
    if (this.ctx.assets.list(this.connectionId).length === 0) {
      return [
        new MessageNode(this, 'No assets yet: upload a file from the Explorer, or add one by id…', {
          command: 'universeExplorer.addAssetById',
          title: 'Add Asset by ID',
          arguments: [this],
        }, 'add'),
      ];
    }
    this.loading ??= this.load();
    return this.loading;
  }

  reset(): void {
    this.loading = undefined;
  }

  private async load(): Promise<AssetNode[]> {
    const nodes = this.ctx.assets
      .list(this.connectionId)
      .map((known) => new AssetNode(this.ctx, this, known));
    for (let i = 0; i < nodes.length; i += PARALLEL_READS) {
      await Promise.all(nodes.slice(i, i + PARALLEL_READS).map((n) => n.load()));
    }
    return nodes;
  }
}
