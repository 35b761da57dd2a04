import vscode = require('vscode');
import type { UniverseTree } from '../core/tree/provider';
import { sameUniverse } from '../core/universe';
import type { OrderedModel } from './model';
import { sameStore } from './names';
import { OrderedEntryNode, OrderedGroupNode, OrderedStoreNode } from './tree';

/**
 * The loaded nodes follow the model: a universe's changed list reloads its group, a store's changed list (order,
 * range, an entry created or deleted) reloads the store, a changed value redraws its rows.
 */
export function followModel(model: OrderedModel, tree: UniverseTree): vscode.Disposable {
  const each = (visit: (node: unknown) => void) => {
    for (const node of tree.loaded()) visit(node);
  };
  return vscode.Disposable.from(
    model.onDidChangeStores((u) =>
      each((node) => {
        if (node instanceof OrderedGroupNode && sameUniverse(node.ref, u)) tree.refresh(node);
      }),
    ),
    model.onDidChangeStore((s) =>
      each((node) => {
        if (node instanceof OrderedStoreNode && sameStore(node.ref, s)) tree.refresh(node);
      }),
    ),
    model.onDidChangeEntry(({ store, id }) =>
      each((node) => {
        if (node instanceof OrderedEntryNode && node.key === id && sameStore(node.store, store)) tree.update(node);
      }),
    ),
  );
}
