import { required } from '../../core/ui';
import { allScopes } from '../model';
import type { DataStoresCommand } from './context';
import { asDataStore } from './nodes';
import { nameRule } from './prompts';

export const chooseScope: DataStoresCommand = {
  id: 'universeExplorer.chooseScope',
  failure: 'choose the scope',
  async run(ctx, node: unknown) {
    const store = asDataStore(node);
    const picked = required(
      await ctx.ui.pick(
        [
          { label: 'global', value: 'global' },
          { label: 'All scopes', value: allScopes },
          { label: 'Other scope…', value: '' },
        ],
        { title: `Scope of ${store.store.name}` },
      ),
    );
    const scope =
      picked.value ||
      required(
        await ctx.ui.input({
          title: 'Scope',
          value: store.scope === allScopes ? '' : store.scope,
          validateInput: nameRule('scope'),
        }),
      );
    ctx.model.setFilter(store.ref, { scope });
  },
};
