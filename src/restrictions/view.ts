import type vscode = require('vscode');
import { reason } from '../core/errors';
import type { Log } from '../core/log';
import { t } from '../core/text';
import type { TreeNode } from '../core/tree/node';
import type { UniverseTree } from '../core/tree/provider';
import { universeNodeId } from '../core/tree/connectionNodes';
import { sameUniverse } from '../core/universe';
import type { RestrictionScope, RestrictionsModel } from './model';
import {
  PlaceRestrictionsNode,
  placeNodeId,
  RestrictionsGroupNode,
  restrictionsGroupId,
  type RestrictionListNode,
} from './tree';

/** The lists follow the model: what it forgot loads again, and the places shown are redrawn. */
export function followModel(model: RestrictionsModel, tree: UniverseTree): vscode.Disposable {
  return model.onDidChange((u) => {
    for (const node of tree.loaded()) {
      const list =
        node instanceof RestrictionsGroupNode || node instanceof PlaceRestrictionsNode
          ? (node as RestrictionListNode)
          : undefined;
      if (list && sameUniverse(list.scope, u)) tree.update(list);
    }
  });
}

/** Selects the place's node under its universe; a failed reveal is logged, the node is returned all the same. */
export async function revealPlace(
  deps: { tree: UniverseTree; view: vscode.TreeView<TreeNode>; log: Log },
  scope: RestrictionScope & { placeId: number },
): Promise<PlaceRestrictionsNode> {
  const group = restrictionsGroupId(universeNodeId(scope.connectionId, scope.universeId));
  const node = await deps.tree.find(placeNodeId(group, scope.placeId));
  if (!(node instanceof PlaceRestrictionsNode))
    throw new Error(t`universe ${scope.universeId} is not in the Universes view`);
  await deps.view
    .reveal(node, { select: true, expand: true })
    .then(undefined, (error: unknown) => deps.log.warn(`Could not reveal place ${scope.placeId}: ${reason(error)}`));
  return node;
}
