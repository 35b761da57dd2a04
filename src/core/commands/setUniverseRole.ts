import { pickConnection, pickUniverse, universeFrom } from '../prompts';
import { t } from '../text';
import { UniverseNode } from '../tree/connectionNodes';
import { required } from '../ui';
import { describeUniverse, roleName, roleOf, ROLES, type Role, type UniverseAddress } from '../universe';
import type { CoreContext, CoreCommand } from './context';

const details: Record<Role, () => string> = {
  development: () => t`Writes go ahead as asked. The Local Sandbox's universes are always development.`,
  staging: () => t`Marked as staging in the Universes view; writes go ahead as asked.`,
  production: () =>
    t`Marked in the tree, on entry tabs and in the status bar; each write asks first, a bulk run asks for the name typed, and agents only plan.`,
};

/** The universe of the row, or one of a saved connection picked (the Local Sandbox's universes have no role to set). */
export async function savedUniverse(ctx: CoreContext, node: unknown): Promise<UniverseAddress> {
  if (node instanceof UniverseNode || (typeof node === 'object' && node !== null))
    return universeFrom(ctx.ui, ctx.connections, node);
  const connection = await pickConnection(ctx.ui, ctx.connections, true);
  return { connectionId: connection.id, universeId: (await pickUniverse(ctx.ui, connection)).id };
}

export const setUniverseRole: CoreCommand = {
  id: 'universeExplorer.setUniverseRole',
  get failure() {
    return t`set the universe's role`;
  },
  async run(ctx, node?: unknown) {
    const u = await savedUniverse(ctx, node);
    const now = roleOf(u);
    const picked = required(
      await ctx.ui.pick(
        ROLES.map((role) => ({
          label: roleName(role),
          description: role === now ? t`current` : undefined,
          detail: details[role](),
          role,
        })),
        { title: t`Role of ${describeUniverse(u)}`, placeHolder: t`What the universe is for` },
      ),
    );
    await ctx.connections.setRole(u, picked.role);
    return picked.role;
  },
};
