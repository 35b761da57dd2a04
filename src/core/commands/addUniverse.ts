import { askUniverses } from '../prompts';
import { t } from '../text';
import { connectionOf } from './connectionOf';
import type { CoreCommand } from './context';

export const addUniverse: CoreCommand = {
  id: 'universeExplorer.addUniverse',
  get failure() {
    return t`add the universe`;
  },
  async run(ctx, node?: unknown) {
    const connection = await connectionOf(ctx, node, true);
    const added = await askUniverses(ctx.ui);
    const universes = [
      ...connection.universes,
      ...added.filter((a) => !connection.universes.some((u) => u.id === a.id)),
    ];
    await ctx.connections.update({ ...connection, universes });
  },
};
