import { t } from '../../core/text';
import { required } from '../../core/ui';
import type { DataStoresCommand } from './context';
import { asDataStore } from './nodes';

export const filterEntries: DataStoresCommand = {
  id: 'universeExplorer.filterEntries',
  get failure() {
    return t`filter the entries`;
  },
  async run(ctx, node: unknown) {
    const store = asDataStore(node);
    const { prefix } = ctx.model.lists.filter(store.ref);
    const typed = required(
      await ctx.ui.input({
        title: t`Key prefix in ${store.store.name}`,
        value: prefix,
        prompt: t`Empty shows every key`,
      }),
    );
    ctx.model.lists.setFilter(store.ref, { prefix: typed });
  },
};
