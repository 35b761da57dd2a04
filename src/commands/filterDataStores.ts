import { DataStoresGroupNode } from '../tree/dataStoresGroupNode';
import { required } from '../ui';
import type { CommandDef } from './context';

export const filterDataStores: CommandDef = {
  id: 'universeExplorer.filterDataStores',
  failure: 'filter the data stores',
  async run(ctx, node: unknown) {
    if (!(node instanceof DataStoresGroupNode)) throw new Error('choose a Data Stores group in the Universes view');
    node.prefix = required(await ctx.ui.input({ title: 'Data store name prefix', value: node.prefix, prompt: 'Empty shows every store' }));
    ctx.tree.refresh(node);
  },
};
