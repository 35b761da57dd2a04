import { required } from '../../core/ui';
import type { DataStoresCommand } from './context';
import { writableEntry } from './nodes';

export const incrementEntry: DataStoresCommand = {
  id: 'universeExplorer.incrementEntry',
  failure: 'increment the entry',
  async run(ctx, node: unknown) {
    const entry = writableEntry(node);
    const key = entry.entry.key;
    const by = required(
      await ctx.ui.input({
        title: `Increment ${key} by`,
        value: '1',
        validateInput: (v) => (/^-?\d{1,18}$/.test(v.trim()) ? undefined : 'Enter a whole number, e.g. 5 or -2.'),
      }),
    );
    const result = await ctx.ui.progress(`Incrementing ${key}…`, (signal) =>
      ctx.model.increment(entry.address, Number(by.trim()), signal),
    );
    void ctx.ui.info(`${key} is now ${JSON.stringify(result.value)}.`);
    return result.value;
  },
};
