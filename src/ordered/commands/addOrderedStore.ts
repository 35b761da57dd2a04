import { universeFrom, validator } from '../../core/prompts';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { checkScope, checkStoreName } from '../names';
import type { OrderedCommand } from './context';
import { storeWords } from './nodes';

/**
 * The service cannot list ordered data stores: the user names one, it is checked by listing one entry, and
 * remembered. A name the service never heard of lists empty, as an empty store does: it is remembered all the same.
 */
export const addOrderedStore: OrderedCommand = {
  id: 'universeExplorer.addOrderedStore',
  get failure() {
    return t`add the ordered data store`;
  },
  async run(ctx, node?: unknown) {
    const u = await universeFrom(ctx.ui, ctx.connections, node);
    const store = required(
      await ctx.ui.input({
        title: t`Add Ordered Data Store by Name`,
        prompt: t`The ordered data store's name, as the game's code names it`,
        validateInput: validator(checkStoreName),
      }),
    );
    const scope = required(
      await ctx.ui.input({
        title: t`Scope of ${store}`,
        prompt: t`The scope the game's code uses; global unless it names one`,
        value: 'global',
        validateInput: validator(checkScope),
      }),
    );
    const ref = { ...u, store: checkStoreName(store), scope: checkScope(scope) };
    const hasEntries = await ctx.ui.progress(t`Checking ${storeWords(ref)}…`, (signal) => ctx.model.add(ref, signal));
    if (!hasEntries)
      void ctx.ui.info(
        t`${storeWords(ref)} has no entries yet. It is remembered here all the same: the service lists an empty store and a misspelt name alike, so check the name if you expected entries.`,
      );
    return ref;
  },
};
