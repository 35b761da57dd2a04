import { validator } from '../../core/prompts';
import { t } from '../../core/text';
import { required, type Ui } from '../../core/ui';
import { parseWhole } from '../names';
import type { OrderedCommand } from './context';
import { asStore, storeWords } from './nodes';

const bound = (text: string): number | undefined => (text.trim() ? parseWhole(text) : undefined);

async function askBound(ui: Ui, title: string, prompt: string, value: number | undefined, check = bound) {
  const text = await ui.input({
    title,
    prompt,
    value: value === undefined ? '' : String(value),
    validateInput: validator(check),
  });
  return check(required(text));
}

/** Lists only values from a lowest to a highest (both inclusive, either may be left empty); both empty clears it. */
export const filterOrderedStore: OrderedCommand = {
  id: 'universeExplorer.filterOrderedStore',
  get failure() {
    return t`filter the entries`;
  },
  async run(ctx, node: unknown) {
    const store = asStore(node);
    const current = ctx.model.view(store.ref).range;
    const what = storeWords(store.ref);
    const min = await askBound(
      ctx.ui,
      t`Lowest value of ${what}`,
      t`Only entries with this value or more; leave empty for no lowest`,
      current?.min,
    );
    const max = await askBound(
      ctx.ui,
      t`Highest value of ${what}`,
      t`Only entries with this value or less; leave empty for no highest`,
      current?.max,
      (v) => {
        const n = bound(v);
        if (n !== undefined && min !== undefined && n < min)
          throw new Error(t`The highest value must be at least the lowest, ${min}.`);
        return n;
      },
    );
    ctx.model.setRange(store.ref, { min, max });
  },
};

export const clearOrderedFilter: OrderedCommand = {
  id: 'universeExplorer.clearOrderedFilter',
  get failure() {
    return t`clear the filter`;
  },
  run: (ctx, node: unknown) => ctx.model.setRange(asStore(node).ref, undefined),
};
