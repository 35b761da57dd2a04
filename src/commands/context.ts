import type * as vscode from 'vscode';
import type { AssetList } from '../assetList';
import type { Connections } from '../connections';
import type { EntryFileSystem } from '../fs/entryFileSystem';
import type { Log } from '../log';
import type { Sandbox } from '../sandbox';
import type { TreeNode } from '../tree/node';
import type { UniverseTree } from '../tree/provider';
import type { Ui } from '../ui';
import type { withProgress } from './progress';

/** What every command handler receives. `ui` is replaceable, so tests can answer prompts. */
export interface CommandContext {
  ui: Ui;
  log: Log;
  connections: Connections;
  tree: UniverseTree;
  sandbox: Sandbox;
  entries: EntryFileSystem;
  extension: vscode.ExtensionContext;
  /** The Universes view, for reveal. */
  view: vscode.TreeView<TreeNode>;
  /** The assets each connection knows, and the creator it last uploaded as. */
  assets: AssetList;
  /** withProgress from ./progress; replaceable so tests can cancel through the AbortSignal path. */
  progress: typeof withProgress;
}

export interface CommandDef {
  id: string;
  /** Completes "Failed to …", e.g. "add connection". */
  failure: string;
  // Handlers take the tree node or URI that VS Code passes, so the arguments are untyped here.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  run(ctx: CommandContext, ...args: any[]): unknown;
}
