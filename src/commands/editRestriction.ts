import { describeDuration } from '../duration';
import type { CommandDef } from './context';
import { askRestriction } from './restrictionPrompts';
import { asRestriction, describeScope } from './restrictionScope';
import { writable } from './nodes';
import { writeRestriction } from './restrictionWrite';

export const editRestriction: CommandDef = {
  id: 'universeExplorer.editRestriction',
  failure: 'edit the restriction',
  async run(ctx, node: unknown) {
    const { parent: list, userId } = asRestriction(node);
    writable(list);
    const where = describeScope(list);
    // Prefill from the service, not from what the tree loaded earlier.
    const client = await ctx.connections.client(list.connectionId);
    const { gameJoinRestriction: current } = await client.restrictions.get({ universeId: list.universeId, placeId: list.placeId, userId });
    if (current.inherited) {
      throw new Error(`user ${userId} is restricted at ${where} by a universe-wide ban; edit it under the universe's User Restrictions`);
    }
    const input = await askRestriction(ctx.ui, `user ${userId}`, current);
    const result = await writeRestriction(ctx, list, userId, { active: current.active, ...input }, `Updating the restriction of user ${userId}…`);
    const r = result.gameJoinRestriction;
    void ctx.ui.info(`Updated the restriction of user ${userId} at ${where} (${r.active ? describeDuration(r.duration) : 'not active'}).`);
    return result;
  },
};
