import { t } from '../text';
import type { CoreCommand } from './context';
import { savedUniverse } from './setUniverseRole';

export const makeReadOnly: CoreCommand = {
  id: 'universeExplorer.makeReadOnly',
  get failure() {
    return t`make the universe read-only`;
  },
  async run(ctx, node?: unknown) {
    await ctx.connections.setReadOnly(await savedUniverse(ctx, node), true);
  },
};
