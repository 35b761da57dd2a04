import type { GameJoinRestrictionInput, UserRestriction } from '../../api';
import type { RestrictionScope } from '../model';
import type { RestrictionsContext } from './context';

/** One PATCH of a user's restriction at the scope's level, under a cancellable notification. */
export function writeRestriction(
  ctx: RestrictionsContext,
  scope: RestrictionScope,
  userId: string,
  gameJoinRestriction: GameJoinRestrictionInput,
  title: string,
): Promise<UserRestriction> {
  return ctx.ui.progress(title, (signal) => ctx.model.update(scope, userId, gameJoinRestriction, signal));
}
