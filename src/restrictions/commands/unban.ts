import { t } from '../../core/text';
import type { RestrictionsCommand } from './context';
import { askUnbanNote } from './restrictionPrompts';
import { asRestriction, describeScope, writable } from './scope';
import { writeRestriction } from './write';

export const unban: RestrictionsCommand = {
  id: 'universeExplorer.unban',
  get failure() {
    return t`unban the user`;
  },
  async run(ctx, node: unknown) {
    const { parent, userId, restriction } = asRestriction(node);
    const scope = writable(parent.scope);
    const where = describeScope(scope);
    const current = restriction.gameJoinRestriction;
    if (current.inherited) {
      throw new Error(
        t`user ${userId} is restricted at ${where} by a universe-wide ban; lift it under the universe's User Restrictions`,
      );
    }
    const unbanLabel = t`Unban`;
    const answer = await ctx.ui.warn(
      t`Unban user ${userId} from ${where}?`,
      {
        modal: true,
        detail: t`They can join again at once. The restriction log keeps a record of the ban and of this change.`,
      },
      unbanLabel,
    );
    if (answer !== unbanLabel) return undefined;
    const note = await askUnbanNote(ctx.ui, t`user ${userId}`);
    const result = await writeRestriction(
      ctx,
      scope,
      userId,
      { active: false, privateReason: note, displayReason: '', excludeAltAccounts: current.excludeAltAccounts },
      t`Unbanning user ${userId}…`,
    );
    void ctx.ui.info(t`User ${userId} is no longer banned from ${where}.`);
    return result;
  },
};
