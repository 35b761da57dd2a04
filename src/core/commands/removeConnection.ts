import { connectionOf } from './connectionOf';
import type { CoreCommand } from './context';

export const removeConnection: CoreCommand = {
  id: 'universeExplorer.removeConnection',
  failure: 'remove the connection',
  async run(ctx, node?: unknown) {
    const connection = await connectionOf(ctx, node, true);
    const answer = await ctx.ui.warn(
      `Remove the connection "${connection.name}"? Its API key is deleted from Secret Storage.`,
      { modal: true },
      'Remove',
    );
    if (answer !== 'Remove') return false;
    await ctx.connections.remove(connection.id);
    return true;
  },
};
