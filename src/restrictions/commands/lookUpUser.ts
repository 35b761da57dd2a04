import type { UserRestriction } from '../../api';
import { t } from '../../core/text';
import { localTime } from '../../core/time';
import { describeDuration, formatTimeLeft } from '../../core/duration';
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
    return restriction.updateTime
      ? t`User ${userId} is not restricted at ${where} (a restriction was lifted on ${localTime(restriction.updateTime)}).`
      : t`User ${userId} is not restricted at ${where}.`;
  }
  return [
    r.inherited
      ? t`User ${userId} is banned from ${where} by a universe-wide ban:`
      : t`User ${userId} is banned from ${where}:`,
    `${describeDuration(r.duration)}${r.duration ? `, ${formatTimeLeft(r.startTime, r.duration, nowMs)}` : ''}.`,
    t`Display reason: "${r.displayReason}".`,
    t`Private reason: "${r.privateReason}".`,
    t`Alt accounts: ${altAccounts(r.excludeAltAccounts)}.`,
  ].join(' ');
}

export const lookUpUser: RestrictionsCommand = {
  id: 'universeExplorer.lookUpUser',
  get failure() {
    return t`look up the user`;
  },
  async run(ctx, node?: unknown) {
    const scope = await restrictionScope(ctx, node);
    const where = describeScope(scope);
    const userId = await askUserId(ctx.ui, t`Look up a user's restriction at ${where}`);
    const restriction = await ctx.ui.progress(t`Looking up user ${userId}…`, (signal) =>
      ctx.model.get(scope, userId, signal),
    );
    showScope(ctx, scope);
    const openLog = t`Open Restriction Log`;
    // Not awaited: the message stays until dismissed, and the command is done.
    void ctx.ui.info(describeRestriction(userId, where, restriction, Date.now()), openLog).then((choice) => {
      if (choice === openLog) ctx.logs.show(scope, { user: userId, place: '' });
    });
    return restriction;
  },
};
