import { askingWords } from '../../core/confirmWrite';
import { t } from '../../core/text';
import { formatValue } from '../names';
import type { OrderedCommand } from './context';
import { storeWords, writableEntry } from './nodes';

/** Ordered data stores keep no versions: the modal question says the entry is gone for good. */
export const deleteOrderedEntry: OrderedCommand = {
  id: 'universeExplorer.deleteOrderedEntry',
  get failure() {
    return t`delete the entry`;
  },
  async run(ctx, node: unknown) {
    const entry = writableEntry(node);
    const { store, key } = entry;
    const remove = t`Delete`;
    const { question, detail } = askingWords(
      store,
      t`Delete "${key}" from ${storeWords(store)}?`,
      t`Its value, ${formatValue(entry.value)}, is gone for good: ordered data stores keep no versions.`,
    );
    if ((await ctx.ui.warn(question, { modal: true, detail }, remove)) !== remove) return false;
    await ctx.ui.progress(t`Deleting ${key}…`, (signal) => ctx.model.delete(store, key, signal));
    void ctx.ui.info(t`Deleted "${key}" from ${storeWords(store)}.`);
    return true;
  },
};
