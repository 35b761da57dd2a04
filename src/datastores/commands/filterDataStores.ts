import { t } from '../../core/text';
import { required } from '../../core/ui';
import type { DataStoresCommand } from './context';
import { asStoreGroup } from './nodes';

export const filterDataStores: DataStoresCommand = {
  id: 'universeExplorer.filterDataStores',
  get failure() {
    return t`filter the data stores`;
  },
  async run(ctx, node: unknown) {
    const group = asStoreGroup(node);
    const value = ctx.model.lists.storesPrefix(group.ref);
    const prefix = required(
      await ctx.ui.input({ title: t`Data store name prefix`, value, prompt: t`Empty shows every store` }),
    );
    ctx.model.lists.setStoresPrefix(group.ref, prefix);
  },
};
