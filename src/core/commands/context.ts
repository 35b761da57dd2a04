import type vscode = require('vscode');
import type { OpenApiClient } from '../../api';
import type { CommandBase, CommandDef } from '../commands';
import type { Connections } from '../connections';
import type { RowKeys } from '../rowKeys';
import type { StatusBar } from '../statusBar';
import type { TreeNode } from '../tree/node';
import type { UniverseTree } from '../tree/provider';

/** One cheap read that tells whether the key reaches an area; each area brings its own. */
export interface AreaProbe {
  area: string;
  probe(client: OpenApiClient, universeId: number, signal: AbortSignal): Promise<unknown>;
}

/** What the connection, tree and log commands use. */
export interface CoreContext extends CommandBase {
  connections: Connections;
  tree: UniverseTree;
  probes: readonly AreaProbe[];
  status: StatusBar;
  view: vscode.TreeView<TreeNode>;
  rowKeys: RowKeys;
}

export type CoreCommand = CommandDef<CoreContext>;
