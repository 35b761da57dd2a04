import { confirmProductionWrite } from '../../core/confirmWrite';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { confirmWrite } from '../../core/undo';
import { describeEntry } from '../editor/save';
import type { DataStoresCommand } from './context';
import { writableEntry } from './nodes';

/** What a value that is not a number is, in words. */
function kindOf(entry: { json: boolean; value: unknown }): string {
  if (!entry.json) return t`bytes that are not JSON`;
  if (entry.value === null) return t`null`;
  if (Array.isArray(entry.value)) return t`an array`;
  if (typeof entry.value === 'object') return t`an object`;
  if (typeof entry.value === 'string') return t`a string`;
  return t`a boolean`;
}

export const incrementEntry: DataStoresCommand = {
  id: 'universeExplorer.incrementEntry',
  get failure() {
    return t`increment the entry`;
  },
  async run(ctx, node: unknown) {
    const entry = writableEntry(node);
    const key = entry.entry.key;
    // The row may not know the value (listing gives keys only): it is read first, so an object is refused before an
    // amount is asked, and the read tells the row, whose menu then hides Increment.
    const current = await ctx.ui.progress(t`Reading ${key}…`, (signal) => ctx.model.read(entry.address, signal));
    if (!current.json || typeof current.value !== 'number') {
      throw new Error(
        t`"${key}" (${entry.address.datastoreName}, scope ${entry.address.scope}) holds ${kindOf(current)}, not a number: Increment adds to a number only. Open the entry to edit its value.`,
      );
    }
    const by = required(
      await ctx.ui.input({
        title: t`Increment ${key} by`,
        value: '1',
        validateInput: (v) => (/^-?\d{1,18}$/.test(v.trim()) ? undefined : t`Enter a whole number, e.g. 5 or -2.`),
      }),
    );
    const delta = Number(by.trim());
    const what = describeEntry(entry.address);
    await confirmProductionWrite(ctx.ui, entry.address, t`Increment ${what} by ${delta}?`, t`Increment`);
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
