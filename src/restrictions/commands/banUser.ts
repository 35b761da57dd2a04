import { confirmProductionWrite } from '../../core/confirmWrite';
import { t } from '../../core/text';
import { describeDuration } from '../../core/duration';
import type { RestrictionsCommand } from './context';
import { askRestriction } from './restrictionPrompts';
import { askUserId, describeScope, playerArg, restrictionScope, showScope, writable } from './scope';
import { writeRestriction } from './write';

export const banUser: RestrictionsCommand = {
  id: 'universeExplorer.banUser',
  get failure() {
    return t`ban the user`;
  },
  /** On a row (its level; the user id asked), from the palette, or with `{ connectionId, universeId, placeId?, userId }`. */
  async run(ctx, node?: unknown) {
    const given = playerArg(node);
    const scope = writable(given?.scope ?? (await restrictionScope(ctx, node)));
    const where = describeScope(scope);
    const userId = given?.userId ?? (await askUserId(ctx.ui, t`Ban a user from ${where}`));
    const input = await askRestriction(ctx.ui, t`user ${userId}`);
    await confirmProductionWrite(
      ctx.ui,
      scope,
      t`Ban user ${userId} from ${where}?`,
      t`Ban`,
      t`They are kept out from the moment the service takes it.`,
    );
    const result = await writeRestriction(
      ctx,
      scope,
      userId,
      { active: true, ...input },
      t`Banning user ${userId} from ${where}…`,
    );
    showScope(ctx, scope);
    void ctx.ui.info(
      t`User ${userId} is banned from ${where} (${describeDuration(result.gameJoinRestriction.duration)}).`,
    );
    return result;
  },
};
