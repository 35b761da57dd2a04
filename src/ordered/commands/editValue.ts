import { NotFoundError } from '../../api';
import { confirmProductionWrite } from '../../core/confirmWrite';
import { validator } from '../../core/prompts';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { confirmWrite } from '../../core/undo';
import { formatValue, parseWhole, type OrderedStoreRef } from '../names';
import type { OrderedCommand, OrderedContext } from './context';
import { storeWords, writableEntry } from './nodes';

/** A write to an entry deleted meanwhile says so, rather than the service's bare 404. */
export function missing(error: unknown, s: OrderedStoreRef, id: string): unknown {
  if (!(error instanceof NotFoundError)) return error;
  return new Error(t`"${id}" is no longer in ${storeWords(s)}; refresh the list`, { cause: error });
}

/** Asks the new value of an entry that holds `current`, and writes it (with Undo back to `current`). */
export async function editValue(ctx: OrderedContext, s: OrderedStoreRef, id: string, current: number) {
  const value = parseWhole(
    required(
      await ctx.ui.input({
        title: t`Value of ${id} in ${storeWords(s)}`,
        prompt: t`A whole number; it is ${formatValue(current)} now`,
        value: String(current),
        validateInput: validator(parseWhole),
      }),
    ),
  );
  if (value === current) return current;
  await confirmProductionWrite(ctx.ui, s, t`Set "${id}" in ${storeWords(s)} to ${formatValue(value)}?`, t`Set Value`);
  const entry = await ctx.ui
    .progress(t`Setting ${id}…`, (signal) => ctx.model.update(s, id, value, signal))
    .catch((error: unknown) => {
      throw missing(error, s, id);
    });
  confirmWrite(ctx.ui, t`"${id}" is now ${formatValue(entry.value)} (it was ${formatValue(current)}).`, {
    progress: t`Setting ${id} back…`,
    run: (signal) => ctx.model.update(s, id, current, signal),
    done: t`"${id}" is ${formatValue(current)} again.`,
    what: t`the new value of "${id}"`,
    otherwise: t`Edit its value from the tree.`,
  });
  return entry.value;
}

export const editOrderedValue: OrderedCommand = {
  id: 'universeExplorer.editOrderedValue',
  get failure() {
    return t`edit the value`;
  },
  async run(ctx, node: unknown) {
    const entry = writableEntry(node);
    return editValue(ctx, entry.store, entry.key, entry.value);
  },
};
