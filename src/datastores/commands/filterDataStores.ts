import { required } from '../../core/ui';
import type { DataStoresCommand } from './context';
import { asStoreGroup } from './nodes';

export const filterDataStores: DataStoresCommand = {
  id: 'universeExplorer.filterDataStores',
  failure: 'filter the data stores',
  async run(ctx, node: unknown) {
    const group = asStoreGroup(node);
    const value = ctx.model.storesPrefix(group.ref);
    const prefix = required(
      await ctx.ui.input({ title: 'Data store name prefix', value, prompt: 'Empty shows every store' }),
    );
    ctx.model.setStoresPrefix(group.ref, prefix);
  },
};
