import { askingWords } from '../../core/confirmWrite';
import { t } from '../../core/text';
import type { DataStoresCommand } from './context';
import { writableEntry } from './nodes';
import { confirmWithUndo } from './undo';

export const deleteEntry: DataStoresCommand = {
  id: 'universeExplorer.deleteEntry',
  get failure() {
    return t`delete the entry`;
  },
  async run(ctx, node: unknown) {
    const entry = writableEntry(node);
    const { key, scope } = entry.entry;
    const remove = t`Delete`;
    const { question, detail } = askingWords(
      entry.address,
      t`Delete "${key}" (scope ${scope}) from ${entry.parent.store.name}?`,
      t`The service keeps its versions for 30 days; you can restore one from the versions list.`,
    );
    const answer = await ctx.ui.warn(question, { modal: true, detail }, remove);
    if (answer !== remove) return false;
    const last = await ctx.ui.progress(t`Deleting ${key}…`, async (signal) => {
      const newest = await ctx.model.newestVersion(entry.address, signal);
      await ctx.model.delete(entry.address, signal);
      return newest;
    });
    confirmWithUndo(
      ctx,
      entry.address,
      t`Deleted "${key}" (scope ${scope}) from ${entry.parent.store.name}. Its versions are kept for 30 days.`,
      last && !last.deleted ? last.version : undefined,
    );
    return true;
  },
};
