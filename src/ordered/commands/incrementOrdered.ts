import { confirmProductionWrite } from '../../core/confirmWrite';
import { validator } from '../../core/prompts';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { confirmWrite } from '../../core/undo';
import { formatValue, parseWhole } from '../names';
import type { OrderedCommand } from './context';
import { missing } from './editValue';
import { storeWords, writableEntry } from './nodes';

function amountOf(text: string): number {
  const n = parseWhole(text);
  if (n === 0) throw new Error(t`Enter a whole number other than 0, e.g. 5 or -2.`);
  return n;
}

/** Adds a whole number (negative subtracts) and says the value the service answered. */
export const incrementOrderedEntry: OrderedCommand = {
  id: 'universeExplorer.incrementOrderedEntry',
  get failure() {
    return t`increment the entry`;
  },
  async run(ctx, node: unknown) {
    const entry = writableEntry(node);
    const { store, key } = entry;
    const amount = amountOf(
      required(
        await ctx.ui.input({
          title: t`Increment ${key} by`,
          prompt: t`A whole number to add; negative subtracts`,
          value: '1',
          validateInput: validator(amountOf),
        }),
      ),
    );
    await confirmProductionWrite(
      ctx.ui,
      store,
      t`Increment "${key}" in ${storeWords(store)} by ${formatValue(amount)}?`,
      t`Increment`,
    );
    const result = await ctx.ui
      .progress(t`Incrementing ${key}…`, (signal) => ctx.model.increment(store, key, amount, signal))
      .catch((error: unknown) => {
        throw missing(error, store, key);
      });
    // An increment by the opposite amount undoes it even when another writer incremented meanwhile.
    confirmWrite(ctx.ui, t`"${key}" is now ${formatValue(result.value)} (incremented by ${formatValue(amount)}).`, {
      progress: t`Undoing the increment of ${key}…`,
      run: (signal) => ctx.model.increment(store, key, -amount, signal),
      done: t`Incremented "${key}" by ${formatValue(-amount)}, undoing the increment.`,
      what: t`the increment of "${key}"`,
      otherwise: t`Increment it by ${formatValue(-amount)} from the tree.`,
    });
    return result.value;
  },
};
