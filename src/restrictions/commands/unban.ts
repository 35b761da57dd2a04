import type { RestrictionsCommand } from './context';
import { askUnbanNote } from './restrictionPrompts';
import { asRestriction, describeScope, writable } from './scope';
import { writeRestriction } from './write';

export const unban: RestrictionsCommand = {
  id: 'universeExplorer.unban',
  failure: 'unban the user',
  async run(ctx, node: unknown) {
    const { parent, userId, restriction } = asRestriction(node);
    const scope = writable(parent.scope);
    const where = describeScope(scope);
    const current = restriction.gameJoinRestriction;
    if (current.inherited) {
      throw new Error(
        `user ${userId} is restricted at ${where} by a universe-wide ban; lift it under the universe's User Restrictions`,
      );
    }
    const answer = await ctx.ui.warn(
      `Unban user ${userId} from ${where}?`,
      {
        modal: true,
        detail: 'They can join again at once. The restriction log keeps a record of the ban and of this change.',
      },
      'Unban',
    );
    if (answer !== 'Unban') return undefined;
    const note = await askUnbanNote(ctx.ui, `user ${userId}`);
    const result = await writeRestriction(
      ctx,
      scope,
      userId,
      { active: false, privateReason: note, displayReason: '', excludeAltAccounts: current.excludeAltAccounts },
      `Unbanning user ${userId}…`,
    );
    void ctx.ui.info(`User ${userId} is no longer banned from ${where}.`);
    return result;
  },
};
