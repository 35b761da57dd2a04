import { t } from '../text';
import { connectionOf } from './connectionOf';
import type { CoreCommand } from './context';

export const removeConnection: CoreCommand = {
  id: 'universeExplorer.removeConnection',
  get failure() {
    return t`remove the connection`;
  },
  async run(ctx, node?: unknown) {
    const connection = await connectionOf(ctx, node, true);
    const remove = t`Remove`;
    const answer = await ctx.ui.warn(
      t`Remove the connection "${connection.name}"? Its API key is deleted from Secret Storage.`,
      { modal: true },
      remove,
    );
    if (answer !== remove) return false;
    await ctx.connections.remove(connection.id);
    return true;
  },
};
