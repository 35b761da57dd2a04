import { t } from '../text';
import { UniverseNode } from '../tree/connectionNodes';
import type { CoreCommand } from './context';

export const removeUniverse: CoreCommand = {
  id: 'universeExplorer.removeUniverse',
  get failure() {
    return t`remove the universe`;
  },
  async run(ctx, node: unknown) {
    if (!(node instanceof UniverseNode)) throw new Error(t`choose a universe in the Universes view`);
    const connection = node.parent.connection;
    await ctx.connections.update({
      ...connection,
      universes: connection.universes.filter((u) => u.id !== node.universe.id),
    });
  },
};
