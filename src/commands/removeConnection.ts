import type { CommandDef } from './context';
import { pickConnection } from './prompts';

export const removeConnection: CommandDef = {
  id: 'universeExplorer.removeConnection',
  failure: 'remove the connection',
  async run(ctx, node?: unknown) {
    const connection = await pickConnection(ctx, node, true);
    const answer = await ctx.ui.warn(
      `Remove the connection "${connection.name}"? Its API key is deleted from Secret Storage.`,
      { modal: true },
      'Remove',
    );
    if (answer !== 'Remove') return false;
    await ctx.connections.remove(connection.id);
    await ctx.assets.forgetConnection(connection.id);
    return true;
  },
};
