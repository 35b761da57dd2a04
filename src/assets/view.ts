import vscode = require('vscode');
import type { Connections } from '../core/connections';
import { t } from '../core/text';
import type { TreeNode } from '../core/tree/node';
import type { UniverseTree } from '../core/tree/provider';
import { universeNodeId } from '../core/tree/connectionNodes';
import type { AssetsModel } from './model';
import { AssetNode, assetNodeId, AssetsGroupNode, assetsGroupId } from './tree';

/** The Assets groups follow the model: a changed list reloads every group of the connection, a re-read asset redraws. */
export function followModel(model: AssetsModel, tree: UniverseTree): vscode.Disposable {
  return model.onDidChange(({ connectionId, assetId }) => {
    for (const node of tree.loaded()) {
      if (assetId === undefined && node instanceof AssetsGroupNode && node.connectionId === connectionId)
        tree.refresh(node);
      if (
        assetId !== undefined &&
        node instanceof AssetNode &&
        node.connectionId === connectionId &&
        node.assetId === assetId
      )
        tree.update(node);
    }
  });
}

/** Selects the asset in the Assets group of the connection's first universe. */
export async function revealAsset(
  deps: { connections: Connections; tree: UniverseTree; view: vscode.TreeView<TreeNode> },
  connectionId: string,
  assetId: string,
): Promise<void> {
  const universe = deps.connections.get(connectionId)?.universes[0];
  if (!universe)
    throw new Error(t`the connection has no universe, so there is no Assets group to show it in; add a universe`);
  const node = await deps.tree.find(assetNodeId(assetsGroupId(universeNodeId(connectionId, universe.id)), assetId));
  if (!node) throw new Error(t`asset ${assetId} is not in the list`);
  await deps.view.reveal(node, { select: true, focus: true, expand: false });
}
