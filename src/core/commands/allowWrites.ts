import { t } from '../text';
import { describeUniverse, readOnlyInSettings } from '../universe';
import type { CoreCommand } from './context';
import { savedUniverse } from './setUniverseRole';

export const allowWrites: CoreCommand = {
  id: 'universeExplorer.allowWrites',
  get failure() {
    return t`allow writes to the universe`;
  },
  async run(ctx, node?: unknown) {
    const u = await savedUniverse(ctx, node);
    await ctx.connections.setReadOnly(u, false);
    // The user setting is the user's own to change: a row's command does not lift it.
    if (readOnlyInSettings(u.universeId)) {
      void ctx.ui.warn(
        t`${describeUniverse(u)} stays read-only: the user setting universeExplorer.readOnlyUniverses lists ${u.universeId}. Remove it there to write to it.`,
        {},
      );
    }
  },
};
