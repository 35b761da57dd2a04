import { AlreadyExistsError } from '../../api';
import { confirmProductionWrite } from '../../core/confirmWrite';
import { validator } from '../../core/prompts';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { checkEntryId, formatValue, parseWhole } from '../names';
import type { OrderedCommand } from './context';
import { editValue } from './editValue';
import { storeWords, writableStore } from './nodes';

/** Creates an entry; an id already taken is left as it is, and the user may edit its value instead. */
export const newOrderedEntry: OrderedCommand = {
  id: 'universeExplorer.newOrderedEntry',
  get failure() {
    return t`create the entry`;
  },
  async run(ctx, node: unknown) {
    const s = writableStore(node).ref;
    const id = checkEntryId(
      required(
        await ctx.ui.input({
          title: t`New entry in ${storeWords(s)}`,
          prompt: t`The entry's id, e.g. a user id`,
          validateInput: validator(checkEntryId),
        }),
      ),
    );
    const value = parseWhole(
      required(
        await ctx.ui.input({
          title: t`Value of ${id}`,
          prompt: t`A whole number`,
          value: '0',
          validateInput: validator(parseWhole),
        }),
      ),
    );
    await confirmProductionWrite(ctx.ui, s, t`Create "${id}" in ${storeWords(s)}?`, t`Create`);
    try {
      const entry = await ctx.ui.progress(t`Creating ${id}…`, (signal) => ctx.model.create(s, id, value, signal));
      return entry.value;
    } catch (error) {
      if (!(error instanceof AlreadyExistsError)) throw error;
    }
    const existing = await ctx.model.get(s, id);
    if (!existing) throw new Error(t`"${id}" could not be created in ${storeWords(s)}; try again`);
    const edit = t`Edit Value…`;
    const answer = await ctx.ui.warn(
      t`"${id}" already exists in ${storeWords(s)} with the value ${formatValue(existing.value)}; it was left unchanged.`,
      {},
      edit,
    );
    if (answer !== edit) return existing.value;
    return editValue(ctx, s, id, existing.value);
  },
};
