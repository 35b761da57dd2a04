import vscode = require('vscode');
import type { UniverseTree } from '../core/tree/provider';
import { MemoryModel } from './model';
import { MemoryKindNode, SortedMapNode } from './tree';

/** The Memory Stores rows follow the model: changed names reload the lists, a changed map reloads its items. */
export function followModel(model: MemoryModel, tree: UniverseTree): vscode.Disposable {
  return model.onDidChange((change) => {
    for (const node of tree.loaded()) {
      const names = change.map === undefined && node instanceof MemoryKindNode;
      const items = node instanceof SortedMapNode && MemoryModel.touches(change, node.ref, node.name);
      if ((names && MemoryModel.touches(change, node.ref)) || items) tree.refresh(node);
    }
  });
}
