import { t } from '../../core/text';
import { required } from '../../core/ui';
import { allScopes } from '../listState';
import type { DataStoresCommand } from './context';
import { asDataStore } from './nodes';
import { nameRule } from './prompts';

export const chooseScope: DataStoresCommand = {
  id: 'universeExplorer.chooseScope',
  get failure() {
    return t`choose the scope`;
  },
  async run(ctx, node: unknown) {
    const store = asDataStore(node);
    const shown = store.scope;
    const items = [
      { label: 'global', value: 'global' },
      ...(shown !== 'global' && shown !== allScopes ? [{ label: shown, value: shown, description: t`shown now` }] : []),
      { label: t`All scopes`, value: allScopes },
    ];
    // A scope name typed into the list is taken as it is.
    const picked = required(
      await ctx.ui.pickOrType(
        items,
        { title: t`Scope of ${store.store.name}`, placeHolder: t`Pick one, or type a scope name` },
        (text) => (nameRule('scope')(text) ? undefined : t`scope`),
      ),
    );
    ctx.model.lists.setFilter(store.ref, { scope: typeof picked === 'string' ? picked : picked.value });
  },
};
