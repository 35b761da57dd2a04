// The Assets group of a universe (the connection's known assets, the same under every universe), and each asset's
// versions.
import vscode = require('vscode');
import type { AssetVersion } from '../api';
import { reason } from '../core/errors';
import { t } from '../core/text';
import { localAndUtc } from '../core/time';
import { pagedChildren, type PagedNode } from '../core/tree/loadMoreNode';
import { MessageNode } from '../core/tree/messageNode';
import type { TreeNode } from '../core/tree/node';
import { Pager } from '../core/tree/pager';
import type { UniverseNode } from '../core/tree/connectionNodes';
import { formatCreator } from './assetFormat';
import type { KnownAsset } from './assetList';
import type { AssetsModel, PendingUpload } from './model';

/**
 * There is no call that lists a creator's assets, and assets do not belong to a universe: every universe's Assets
 * group of a connection shows the same list, the assets this connection uploaded or added by id.
 */
export class AssetsGroupNode implements TreeNode {
  readonly id: string;
  private loading: Promise<TreeNode[]> | undefined;

  constructor(
    readonly model: AssetsModel,
    readonly parent: UniverseNode,
  ) {
    this.id = assetsGroupId(parent.id);
  }

  get connectionId(): string {
    return this.parent.connectionId;
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem(t`Assets`, vscode.TreeItemCollapsibleState.Collapsed);
    item.iconPath = new vscode.ThemeIcon('file-media');
    item.tooltip = t`The assets this connection uploaded or added by id (the same list under every universe)`;
    item.contextValue = 'assets';
    return item;
  }

  /** Asks about pending uploads and reads each known asset once per load (Get Asset): state and moderation are current. */
  async children(): Promise<TreeNode[]> {
    if (this.model.list(this.connectionId).length === 0 && this.model.pending(this.connectionId).length === 0) {
      const add = { command: 'universeExplorer.addAssetById', title: t`Add Asset by ID`, arguments: [this] };
      return [new MessageNode(this, t`No assets yet: upload a file from the Explorer, or add one by id…`, add, 'add')];
    }
    this.loading ??= this.model
      .readAll(this.connectionId)
      .then((list) => [
        ...this.model.pending(this.connectionId).map((p) => new PendingUploadNode(this, p)),
        ...list.map((known) => new AssetNode(this.model, this, known)),
      ]);
    return this.loading;
  }

  reset(): void {
    this.loading = undefined;
  }
}

export const assetsGroupId = (universeNodeId: string): string => `${universeNodeId}/assets`;

/** An upload the service answered but that was not followed to its end: checked again whenever the list loads. */
export class PendingUploadNode implements TreeNode {
  readonly id: string;

  constructor(
    readonly parent: AssetsGroupNode,
    readonly upload: PendingUpload,
  ) {
    this.id = `${parent.id}/pending:${upload.operation}`;
  }

  item(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.upload.displayName, vscode.TreeItemCollapsibleState.None);
    item.description = t`upload pending`;
    item.tooltip = [
      t`${this.upload.displayName}, uploaded from ${this.upload.file} at ${localAndUtc(this.upload.since)}.`,
      t`The service answered the upload, but it was not followed to its end, so the asset may still be made.`,
      t`It is checked again each time this list loads; click to check now.`,
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon('sync');
    item.contextValue = 'asset.pending';
    item.command = {
      command: 'universeExplorer.checkPendingUploads',
      title: t`Check Pending Uploads`,
      arguments: [this],
    };
    return item;
  }
}

const TYPE_ICONS: Record<string, string> = {
  Image: 'file-media',
  Decal: 'symbol-color',
  Audio: 'unmute',
  Model: 'package',
  Animation: 'play',
  Video: 'device-camera-video',
  Mesh: 'symbol-misc',
};

/** A known asset: what Get Asset said (or why it could not say), expanding to its versions. */
export class AssetNode implements PagedNode {
  readonly id: string;
  readonly pager: Pager<AssetVersion>;

  constructor(
    readonly model: AssetsModel,
    readonly parent: AssetsGroupNode,
    readonly known: KnownAsset,
  ) {
    this.id = assetNodeId(parent.id, known.id);
    this.pager = new Pager((pageToken, signal) =>
      model.listVersions(this.connectionId, this.assetId, pageToken, signal),
    );
  }

  get assetId(): string {
    return this.known.id;
  }

  get connectionId(): string {
    return this.parent.connectionId;
  }

  get asset() {
    return this.model.detailsOf(this.connectionId, this.assetId).asset;
  }

  get displayName(): string {
    return this.asset?.displayName || this.known.displayName;
  }

  get archived(): boolean {
    return this.asset?.state === 'Archived';
  }

  item(): vscode.TreeItem {
    const a = this.asset;
    const error = this.model.detailsOf(this.connectionId, this.assetId).error;
    const item = new vscode.TreeItem(
      this.displayName,
      a ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    const type = a?.assetType ?? this.known.assetType;
    const moderation = a?.moderationResult?.moderationState;
    item.description = a
      ? [this.archived ? t`Archived` : '', type, this.archived ? '' : a.state, moderation].filter(Boolean).join(' · ')
      : t`couldn't load: ${reason(error)}`;
    item.tooltip = [
      t`${this.displayName} (asset ${this.assetId})`,
      type ? t`Type: ${type}` : '',
      a?.state ? t`State: ${a.state}` : '',
      moderation ? t`Moderation: ${moderation}` : '',
      a?.revisionId ? this.versionLine(a.revisionId, a.revisionCreateTime) : '',
      a?.description ? `\n${a.description}` : '',
      a ? '' : t`Couldn't load: ${reason(error)}`,
    ]
      .filter(Boolean)
      .join('\n');
    item.iconPath = this.icon(type, moderation);
    item.contextValue = !a ? 'asset.unavailable' : this.archived ? 'asset.archived' : 'asset';
    return item;
  }

  private versionLine(id: string, time: string | undefined): string {
    return time ? t`Version: ${id} of ${localAndUtc(time)}` : t`Version: ${id}`;
  }

  private icon(type: string | undefined, moderation: string | undefined): vscode.ThemeIcon {
    if (!this.asset) return new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
    if (this.archived) return new vscode.ThemeIcon('archive', new vscode.ThemeColor('disabledForeground'));
    if (moderation === 'Rejected')
      return new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('errorForeground'));
    if (moderation === 'Reviewing') return new vscode.ThemeIcon('clock');
    return new vscode.ThemeIcon(TYPE_ICONS[type ?? ''] ?? 'file-binary');
  }

  children(): Promise<TreeNode[]> {
    return pagedChildren(this, this.pager, (v) => new AssetVersionNode(this, v));
  }

  /** Refresh reloads the versions and reads the asset again (the view redraws it when the model says so). */
  reset(): void {
    this.pager.reset();
    void this.model.reread(this.connectionId, this.assetId);
  }
}

export const assetNodeId = (groupId: string, assetId: string): string => `${groupId}/a:${assetId}`;

export class AssetVersionNode implements TreeNode {
  readonly id: string;

  constructor(
    readonly parent: AssetNode,
    readonly version: AssetVersion,
  ) {
    this.id = `${parent.id}/v:${version.versionNumber}`;
  }

  /** The version Get Asset reports as the asset's revision. */
  get current(): boolean {
    return this.parent.asset?.revisionId === this.version.versionNumber;
  }

  item(): vscode.TreeItem {
    const v = this.version;
    const moderation = v.moderationResult?.moderationState;
    const item = new vscode.TreeItem(t`Version ${v.versionNumber}`, vscode.TreeItemCollapsibleState.None);
    item.description = [this.current ? t`current` : '', moderation].filter(Boolean).join(' · ');
    item.tooltip = [
      v.path,
      moderation ? t`Moderation: ${moderation}` : '',
      v.creationContext ? t`Creator: ${formatCreator(v.creationContext.creator)}` : '',
    ]
      .filter(Boolean)
      .join('\n');
    item.iconPath = new vscode.ThemeIcon(this.current ? 'pass-filled' : 'history');
    item.contextValue = this.current ? 'assetVersion.current' : 'assetVersion';
    return item;
  }
}
