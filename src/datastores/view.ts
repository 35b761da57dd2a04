import type vscode = require('vscode');
import type { TreeNode } from '../core/tree/node';
import type { UniverseTree } from '../core/tree/provider';
import { sameEntry } from './editor/openEntries';
import { sameStore } from './listState';
import type { DataStoresModel } from './model';
import { DataStoreNode, DataStoresGroupNode, EntryAtTimeNode, EntryNode } from './tree';

/**
 * The tree follows the model: a changed list or filter reloads the nodes that show it; what is learnt of a key
 * (deleted or live) redraws its row.
 */
export function followModel(model: DataStoresModel, tree: UniverseTree): vscode.Disposable[] {
  const where = (shows: (node: TreeNode) => boolean, then: (node: TreeNode) => void) => {
    for (const node of tree.loaded()) if (shows(node)) then(node);
  };
  const reload = (node: TreeNode) => tree.refresh(node);
  const redraw = (node: TreeNode) => tree.update(node);
  return [
    model.onDidChangeStores((u) =>
      where(
        (n) =>
          n instanceof DataStoresGroupNode &&
          n.ref.connectionId === u.connectionId &&
          n.ref.universeId === u.universeId,
        reload,
      ),
    ),
    model.onDidChangeStore((store) => where((n) => n instanceof DataStoreNode && sameStore(n.ref, store), reload)),
    model.onDidChangeEntry(({ address, version }) => {
      where((n) => n instanceof EntryNode && sameEntry(n.address, address), reload);
      // A time view keeps the version then; only what became of it since changes.
      where(
        (n) => n instanceof EntryAtTimeNode && sameEntry(n.address, address),
        (n) => {
          (n as EntryAtTimeNode).changed(version);
          redraw(n);
        },
      );
    }),
    model.onDidChangeKeyState((address) =>
      where((n) => n instanceof EntryNode && sameEntry(n.address, address), redraw),
    ),
  ];
}
