import { required } from '../ui';
import type { CommandDef } from './context';
import { asDataStore } from './nodes';

export const filterEntries: CommandDef = {
  id: 'universeExplorer.filterEntries',
  failure: 'filter the entries',
  async run(ctx, node: unknown) {
    const store = asDataStore(node);
    store.prefix = required(
      await ctx.ui.input({ title: `Key prefix in ${store.store.name}`, value: store.prefix, prompt: 'Empty shows every key' }),
    );
    ctx.tree.refresh(store);
  },
};
