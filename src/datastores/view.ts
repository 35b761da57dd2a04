import type vscode = require('vscode');
import type { UniverseTree } from '../core/tree/provider';
import { sameEntry, sameStore, type DataStoresModel } from './model';
import { DataStoreNode, DataStoresGroupNode, EntryNode } from './tree';

/** The tree follows the model: a changed list or filter reloads the nodes that show it. */
export function followModel(model: DataStoresModel, tree: UniverseTree): vscode.Disposable[] {
  const refreshWhere = (shows: (node: unknown) => boolean) => {
    for (const node of tree.loaded()) if (shows(node)) tree.refresh(node);
  };
  return [
    model.onDidChangeStores((u) =>
      refreshWhere(
        (n) =>
          n instanceof DataStoresGroupNode &&
          n.ref.connectionId === u.connectionId &&
          n.ref.universeId === u.universeId,
      ),
    ),
    model.onDidChangeStore((store) => refreshWhere((n) => n instanceof DataStoreNode && sameStore(n.ref, store))),
    model.onDidChangeEntry(({ address }) =>
      refreshWhere((n) => n instanceof EntryNode && sameEntry(n.address, address)),
    ),
  ];
}
