import type { UserRestriction } from '../../api';
import { localTime } from '../../core/time';
import { describeDuration, formatTimeLeft } from '../duration';
import { altAccounts } from '../tree';
import type { RestrictionsCommand } from './context';
import { askUserId, describeScope, restrictionScope, showScope } from './scope';

export function describeRestriction(
  userId: string,
  where: string,
  restriction: UserRestriction,
  nowMs: number,
): string {
  const r = restriction.gameJoinRestriction;
  if (!r.active) {
    const lifted = restriction.updateTime ? ` (a restriction was lifted on ${localTime(restriction.updateTime)})` : '';
    return `User ${userId} is not restricted at ${where}${lifted}.`;
  }
  return [
    `User ${userId} is banned from ${where}${r.inherited ? ' by a universe-wide ban' : ''}:`,
    `${describeDuration(r.duration)}${r.duration ? `, ${formatTimeLeft(r.startTime, r.duration, nowMs)}` : ''}.`,
    `Display reason: "${r.displayReason}".`,
    `Private reason: "${r.privateReason}".`,
    `Alt accounts: ${altAccounts(r.excludeAltAccounts)}.`,
  ].join(' ');
}

export const lookUpUser: RestrictionsCommand = {
  id: 'universeExplorer.lookUpUser',
  failure: 'look up the user',
  async run(ctx, node?: unknown) {
    const scope = await restrictionScope(ctx, node);
    const where = describeScope(scope);
    const userId = await askUserId(ctx.ui, `Look up a user's restriction at ${where}`);
    const restriction = await ctx.ui.progress(`Looking up user ${userId}…`, (signal) =>
      ctx.model.get(scope, userId, signal),
    );
    showScope(ctx, scope);
    // Not awaited: the message stays until dismissed, and the command is done.
    void ctx.ui
      .info(describeRestriction(userId, where, restriction, Date.now()), 'Open Restriction Log')
      .then((choice) => {
        if (choice === 'Open Restriction Log') ctx.logs.show(scope, { user: userId, place: '' });
      });
    return restriction;
  },
};
