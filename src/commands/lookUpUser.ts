import type { UserRestriction } from '../api';
import { describeDuration, formatTimeLeft } from '../duration';
import { altAccounts } from '../tree/restrictionNode';
import { RestrictionLogPanel } from '../webview/restrictionLogPanel';
import type { CommandDef } from './context';
import { askUserId, describeScope, logTarget, restrictionList } from './restrictionScope';

export function describeRestriction(userId: string, where: string, restriction: UserRestriction, nowMs: number): string {
  const r = restriction.gameJoinRestriction;
  if (!r.active) {
    const lifted = restriction.updateTime ? ` (a restriction was lifted on ${restriction.updateTime})` : '';
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

export const lookUpUser: CommandDef = {
  id: 'universeExplorer.lookUpUser',
  failure: 'look up the user',
  async run(ctx, node?: unknown) {
    const list = await restrictionList(ctx, node);
    const where = describeScope(list);
    const userId = await askUserId(ctx.ui, `Look up a user's restriction at ${where}`);
    const client = await ctx.connections.client(list.connectionId);
    const restriction = await ctx.progress(`Looking up user ${userId}…`, (signal) =>
      client.restrictions.get({ universeId: list.universeId, placeId: list.placeId, userId }, { signal }),
    );
    // Not awaited: the message stays until dismissed, and the command is done.
    void ctx.ui.info(describeRestriction(userId, where, restriction, Date.now()), 'Open Restriction Log').then((choice) => {
      if (choice === 'Open Restriction Log') RestrictionLogPanel.show(ctx, logTarget(ctx, list), { user: userId, place: '' });
    });
    return restriction;
  },
};
