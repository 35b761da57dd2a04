import vscode = require('vscode');
import type { Asset, AssetVersion } from '../api';
import type { KnownAsset } from '../assetList';
import { reason } from '../errors';
import { settings } from '../settings';
import type { AssetsGroupNode } from './assetsGroupNode';
import { AssetVersionNode } from './assetVersionNode';
import { pagedChildren, type PagedNode } from './loadMoreNode';
import type { TreeContext, TreeNode } from './node';
import { Pager } from './pager';

const TYPE_ICONS: Record<string, string> = {
  Image: 'file-media',
  Decal: 'symbol-color',
  Audio: 'unmute',
  Model: 'package',
  Animation: 'play',
  Video: 'device-camera-video',
  Mesh: 'symbol-misc',
};

/** The service's list size limit for asset versions. */
const MAX_VERSIONS_PAGE = 50;

/** A known asset: what Get Asset said (or why it could not say), expanding to its versions. */
export class AssetNode implements PagedNode {
  readonly id: string;
  readonly pager: Pager<AssetVersion>;
  asset: Asset | undefined;
  error: unknown;

  constructor(
    readonly ctx: TreeContext,
    readonly parent: AssetsGroupNode,
    readonly known: KnownAsset,
  ) {
    this.id = `${parent.id}/a:${known.id}`;
    this.pager = new Pager(async (pageToken, signal) => {
      const client = await ctx.connections.client(this.connectionId);
      const page = await client.assets.listVersions(
        { assetId: this.assetId, maxPageSize: Math.min(settings().pageSize, MAX_VERSIONS_PAGE), pageToken },
        { signal },
      );
      return { items: page.assetVersions, next: page.nextPageToken };
    });
  }

  get assetId(): string {
    return this.known.id;
  }

  get connectionId(): string {
    return this.parent.connectionId;
  }

  get displayName(): string {
    return this.asset?.displayName || this.known.displayName;
  }

  get archived(): boolean {
    return this.asset?.state === 'Archived';
  }

  /** Reads the asset; a failure is kept and shown on the node, which stays listed so it can be removed. */
  async load(): Promise<void> {
    try {
      const client = await this.ctx.connections.client(this.connectionId);
      this.asset = await client.assets.get({ assetId: this.assetId });
      this.error = undefined;
      await this.ctx.assets.update(this.connectionId, { ...this.asset, id: this.assetId });
    } catch (error) {
      this.asset = undefined;
      this.error = error;
    }
  }

  item(): vscode.TreeItem {
    const a = this.asset;
    const item = new vscode.TreeItem(
      this.displayName,
      a ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    const type = a?.assetType ?? this.known.assetType;
    const moderation = a?.moderationResult?.moderationState;
    item.description = a
      ? [this.archived ? 'Archived' : '', type, this.archived ? '' : a.state, moderation].filter(Boolean).join(' · ')
      : `couldn't load: ${reason(this.error)}`;
    item.tooltip = [
      `${this.displayName} (asset ${this.assetId})`,
      type ? `Type: ${type}` : '',
      a?.state ? `State: ${a.state}` : '',
      moderation ? `Moderation: ${moderation}` : '',
      a?.revisionId ? `Version: ${a.revisionId}${a.revisionCreateTime ? ` (${a.revisionCreateTime})` : ''}` : '',
      a?.description ? `\n${a.description}` : '',
      a ? '' : `Couldn't load: ${reason(this.error)}`,
    ]
      .filter(Boolean)
      .join('\n');
    item.iconPath = this.icon(type, moderation);
    item.contextValue = !a ? 'asset.unavailable' : this.archived ? 'asset.archived' : 'asset';
    return item;
  }

  private icon(type: string | undefined, moderation: string | undefined): vscode.ThemeIcon {
    if (!this.asset) return new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
    if (this.archived) return new vscode.ThemeIcon('archive', new vscode.ThemeColor('disabledForeground'));
    if (moderation === 'Rejected') return new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('errorForeground'));
    if (moderation === 'Reviewing') return new vscode.ThemeIcon('clock');
    return new vscode.ThemeIcon(TYPE_ICONS[type ?? ''] ?? 'file-binary');
  }

  children(): Promise<TreeNode[]> {
    return pagedChildren(this, this.pager, (v) => new AssetVersionNode(this, v));
  }

  /** Refresh reloads the versions and reads the asset again, then redraws. */
  reset(): void {
    this.pager.reset();
    void this.load().then(() => this.ctx.update(this));
  }
}
