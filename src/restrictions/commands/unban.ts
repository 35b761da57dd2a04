import type { UserRestriction } from '../../api';
import { askingWords } from '../../core/confirmWrite';
import { t } from '../../core/text';
import type { RestrictionScope } from '../model';
import type { RestrictionsContext, RestrictionsCommand } from './context';
import { askUnbanNote } from './restrictionPrompts';
import { asRestriction, describeScope, playerArg, writable } from './scope';
import { writeRestriction } from './write';

export const unban: RestrictionsCommand = {
  id: 'universeExplorer.unban',
  get failure() {
    return t`unban the user`;
  },
  /** On a restriction row, or with `{ connectionId, universeId, placeId?, userId }` (the restriction is read first). */
  async run(ctx, node: unknown) {
    const given = playerArg(node);
    const { scope, userId, restriction } = given ? await current(ctx, given.scope, given.userId) : fromRow(node);
    writable(scope);
    const where = describeScope(scope);
    const now = restriction.gameJoinRestriction;
    if (now.inherited) {
      throw new Error(
        t`user ${userId} is restricted at ${where} by a universe-wide ban; lift it under the universe's User Restrictions`,
      );
    }
    if (!now.active) {
      void ctx.ui.info(t`User ${userId} is not banned from ${where}: there is nothing to lift.`);
      return undefined;
    }
    const unbanLabel = t`Unban`;
    const { question, detail } = askingWords(
      scope,
      t`Unban user ${userId} from ${where}?`,
      t`They can join again at once. The restriction log keeps a record of the ban and of this change.`,
    );
    const answer = await ctx.ui.warn(question, { modal: true, detail }, unbanLabel);
    if (answer !== unbanLabel) return undefined;
    const note = await askUnbanNote(ctx.ui, t`user ${userId}`);
    const result = await writeRestriction(
      ctx,
      scope,
      userId,
      { active: false, privateReason: note, displayReason: '', excludeAltAccounts: now.excludeAltAccounts },
      t`Unbanning user ${userId}…`,
    );
    void ctx.ui.info(t`User ${userId} is no longer banned from ${where}.`);
    return result;
  },
};

interface Target {
  scope: RestrictionScope;
  userId: string;
  restriction: UserRestriction;
}

function fromRow(node: unknown): Target {
  const { parent, userId, restriction } = asRestriction(node);
  return { scope: parent.scope, userId, restriction };
}

/** The user's restriction at the scope, as the service holds it now. */
async function current(ctx: RestrictionsContext, scope: RestrictionScope, userId: string): Promise<Target> {
  writable(scope);
  const restriction = await ctx.ui.progress(t`Reading the restriction of user ${userId}…`, (signal) =>
    ctx.model.get(scope, userId, signal),
  );
  return { scope, userId, restriction };
}
