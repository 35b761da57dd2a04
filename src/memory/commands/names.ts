import { t } from '../../core/text';
import { QueueNode, SortedMapNode } from '../tree';
import type { MemoryCommand } from './context';
import { addByName } from './support';

export const addSortedMap: MemoryCommand = {
  id: 'universeExplorer.addSortedMap',
  get failure() {
    return t`add the sorted map`;
  },
  run: (ctx, node?: unknown) => addByName(ctx, node, 'sortedMap'),
};

export const addQueue: MemoryCommand = {
  id: 'universeExplorer.addQueue',
  get failure() {
    return t`add the queue`;
  },
  run: (ctx, node?: unknown) => addByName(ctx, node, 'queue'),
};

/** Forgets the name here; the service is not asked, and the map or queue keeps its items. */
export const forgetMemoryName: MemoryCommand = {
  id: 'universeExplorer.forgetMemoryName',
  get failure() {
    return t`forget the name`;
  },
  async run(ctx, node: unknown) {
    if (node instanceof SortedMapNode) return ctx.model.forget(node.ref, 'sortedMap', node.name);
    if (node instanceof QueueNode) return ctx.model.forget(node.ref, 'queue', node.name);
    throw new Error(t`choose a sorted map or queue in the Universes view`);
  },
};
