import { t } from '../../core/text';
import { required } from '../../core/ui';
import { confirmWrite } from '../../core/undo';
import type { DataStoresCommand } from './context';
import { writableEntry } from './nodes';

export const incrementEntry: DataStoresCommand = {
  id: 'universeExplorer.incrementEntry',
  get failure() {
    return t`increment the entry`;
  },
  async run(ctx, node: unknown) {
    const entry = writableEntry(node);
    const key = entry.entry.key;
    const by = required(
      await ctx.ui.input({
        title: t`Increment ${key} by`,
        value: '1',
        validateInput: (v) => (/^-?\d{1,18}$/.test(v.trim()) ? undefined : t`Enter a whole number, e.g. 5 or -2.`),
      }),
    );
    const delta = Number(by.trim());
    const result = await ctx.ui.progress(t`Incrementing ${key}…`, (signal) =>
      ctx.model.increment(entry.address, delta, signal),
    );
    // An increment by the opposite amount undoes it even when another writer incremented meanwhile.
    confirmWrite(ctx.ui, t`${key} is now ${JSON.stringify(result.value)} (incremented by ${delta}).`, {
      progress: t`Undoing the increment of ${key}…`,
      run: (signal) => ctx.model.increment(entry.address, -delta, signal),
      done: t`Incremented "${key}" by ${-delta}, undoing the increment.`,
      what: t`the increment of "${key}"`,
      otherwise: t`Increment it by ${-delta} from the tree.`,
    });
    return result.value;
  },
};
