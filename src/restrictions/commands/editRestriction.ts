import { confirmProductionWrite } from '../../core/confirmWrite';
import { t } from '../../core/text';
import { describeDuration } from '../../core/duration';
import type { RestrictionsCommand } from './context';
import { askRestriction } from './restrictionPrompts';
import { asRestriction, describeScope, writable } from './scope';
import { writeRestriction } from './write';

export const editRestriction: RestrictionsCommand = {
  id: 'universeExplorer.editRestriction',
  get failure() {
    return t`edit the restriction`;
  },
  async run(ctx, node: unknown) {
    const { parent, userId } = asRestriction(node);
    const scope = writable(parent.scope);
    const where = describeScope(scope);
    // Prefill from the service, not from what the tree loaded earlier.
    const { gameJoinRestriction: current } = await ctx.ui.progress(
      t`Reading the restriction of user ${userId}…`,
      (signal) => ctx.model.get(scope, userId, signal),
    );
    if (current.inherited) {
      throw new Error(
        t`user ${userId} is restricted at ${where} by a universe-wide ban; edit it under the universe's User Restrictions`,
      );
    }
    const input = await askRestriction(ctx.ui, t`user ${userId}`, current);
    await confirmProductionWrite(ctx.ui, scope, t`Change the restriction of user ${userId} at ${where}?`, t`Save`);
    const result = await writeRestriction(
      ctx,
      scope,
      userId,
      { active: current.active, ...input },
      t`Updating the restriction of user ${userId}…`,
    );
    const r = result.gameJoinRestriction;
    const state = r.active ? describeDuration(r.duration) : t`not active`;
    void ctx.ui.info(t`Updated the restriction of user ${userId} at ${where} (${state}).`);
    return result;
  },
};
