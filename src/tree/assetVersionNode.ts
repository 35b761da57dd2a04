import vscode = require('vscode');
import type { AssetVersion } from '../api';
import { formatCreator } from '../assetFormat';
import type { AssetNode } from './assetNode';
import type { TreeNode } from './node';

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
    const item = new vscode.TreeItem(`Version ${v.versionNumber}`, vscode.TreeItemCollapsibleState.None);
    item.description = [this.current ? 'current' : '', moderation].filter(Boolean).join(' · ');
    item.tooltip = [
      v.path,
      moderation ? `Moderation: ${moderation}` : '',
      v.creationContext ? `Creator: ${formatCreator(v.creationContext.creator)}` : '',
    ]
      .filter(Boolean)
      .join('\n');
    item.iconPath = new vscode.ThemeIcon(this.current ? 'pass-filled' : 'history');
    item.contextValue = this.current ? 'assetVersion.current' : 'assetVersion';
    return item;
  }
}
