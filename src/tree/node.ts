import vscode = require('vscode');
import type { AssetList } from '../assetList';
import type { Connections } from '../connections';

/** A node of the Universes tree: it holds data and knows how to load its children; it never prompts. */
export interface TreeNode {
  readonly id: string;
  readonly parent?: TreeNode;
  item(): vscode.TreeItem;
  children?(): Promise<TreeNode[]>;
  /** Forget loaded children, so the next expand loads them again. */
  reset?(): void;
  /** A tooltip that needs a request, loaded when the user hovers. */
  resolveTooltip?(signal: AbortSignal): Promise<string>;
}

/** What nodes need from the extension. */
export interface TreeContext {
  connections: Connections;
  /** The assets each connection knows (the API cannot list them). */
  assets: AssetList;
  refresh(node?: TreeNode): void;
  update(node: TreeNode): void;
}
