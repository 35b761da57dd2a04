import vscode = require('vscode');
import type { EntryVersion } from '../api';
import { versionUri } from '../fs/entryFileSystem';
import { formatBytes } from '../format';
import type { EntryNode } from './entryNode';
import type { TreeNode } from './node';

export class VersionNode implements TreeNode {
  readonly id: string;

  constructor(
    readonly parent: EntryNode,
    readonly version: EntryVersion,
  ) {
    this.id = `${parent.id}/v:${version.version}`;
  }

  get uri(): vscode.Uri {
    return versionUri(this.parent.address, this.version.version);
  }

  item(): vscode.TreeItem {
    const v = this.version;
    const item = new vscode.TreeItem(new Date(v.createdTime).toLocaleString(), vscode.TreeItemCollapsibleState.None);
    item.description = v.deleted ? 'deleted' : formatBytes(v.contentLength);
    item.tooltip = `Version ${v.version}\nWritten ${v.createdTime}\n${v.deleted ? 'Deleted (tombstone)' : `${v.contentLength} bytes`}`;
    item.iconPath = new vscode.ThemeIcon(v.deleted ? 'trash' : 'history');
    item.contextValue = v.deleted ? 'version.deleted' : this.parent.parent.readOnly ? 'version.readOnly' : 'version';
    if (!v.deleted) item.command = { command: 'vscode.open', title: 'Open Version', arguments: [this.uri] };
    return item;
  }
}
