import type vscode = require('vscode');

/**
 * A node of the Universes tree: it holds what it shows and knows how to load its children; it never prompts and
 * never writes. Its id is a path: a child's id starts with its parent's id and a slash.
 */
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
