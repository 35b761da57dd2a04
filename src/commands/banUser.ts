import { describeDuration } from '../duration';
import type { CommandDef } from './context';
import { askRestriction } from './restrictionPrompts';
import { askUserId, describeScope, restrictionList } from './restrictionScope';
import { writable } from './nodes';
import { writeRestriction } from './restrictionWrite';

export const banUser: CommandDef = {
  id: 'universeExplorer.banUser',
  failure: 'ban the user',
  async run(ctx, node?: unknown) {
    const list = await restrictionList(ctx, node);
    writable(list);
    const where = describeScope(list);
    const userId = await askUserId(ctx.ui, `Ban a user from ${where}`);
    const input = await askRestriction(ctx.ui, `user ${userId}`);
    const result = await writeRestriction(ctx, list, userId, { active: true, ...input }, `Banning user ${userId} from ${where}…`);
    void ctx.ui.info(`User ${userId} is banned from ${where} (${describeDuration(result.gameJoinRestriction.duration)}).`);
    return result;
  },
};
