import type { GameJoinRestrictionInput, UserRestriction } from '../api';
import type { RestrictionListNode } from '../tree/restrictionNode';
import type { CommandContext } from './context';
import { afterWrite } from './restrictionScope';

/**
 * One PATCH of a user's restriction at the list's level. The client sends an idempotency key and reuses it on
 * every retry of this call, so a retry after a lost answer never applies (or logs) the change twice.
 */
export async function writeRestriction(
  ctx: CommandContext,
  list: RestrictionListNode,
  userId: string,
  gameJoinRestriction: GameJoinRestrictionInput,
  title: string,
): Promise<UserRestriction> {
  const client = await ctx.connections.client(list.connectionId);
  const result = await ctx.progress(title, (signal) =>
    client.restrictions.update(
      { universeId: list.universeId, placeId: list.placeId, userId, gameJoinRestriction, updateMask: 'gameJoinRestriction' },
      { signal },
    ),
  );
  afterWrite(ctx, list);
  return result;
}
