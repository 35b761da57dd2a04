import type { DataStoresCommand } from './context';
import { writableEntry } from './nodes';

export const deleteEntry: DataStoresCommand = {
  id: 'universeExplorer.deleteEntry',
  failure: 'delete the entry',
  async run(ctx, node: unknown) {
    const entry = writableEntry(node);
    const { key, scope } = entry.entry;
    const answer = await ctx.ui.warn(
      `Delete "${key}" (scope ${scope}) from ${entry.parent.store.name}?`,
      {
        modal: true,
        detail: 'The service keeps its versions for 30 days; you can restore one from the versions list.',
      },
      'Delete',
    );
    if (answer !== 'Delete') return false;
    await ctx.ui.progress(`Deleting ${key}…`, (signal) => ctx.model.delete(entry.address, signal));
    return true;
  },
};
