// Show Player…: the page of one user of a universe. From the palette (a universe picked, a user id typed), from a
// restriction row (its user), from another area's page or command with a plain `{ connectionId, universeId, userId }`
// (a restriction log row), or from an open entry (its user ids; one picked when there are several).
import vscode = require('vscode');
import type { CommandBase, CommandDef } from '../core/commands';
import { askUserId, pickConnection, pickUniverse } from '../core/prompts';
import { t } from '../core/text';
import { required } from '../core/ui';
import type { PlayerDeps } from './deps';
import type { PlayerPanel } from './panel';
import type { PlayerPanels } from './panels';
import { readPlayerRef, type PlayerRef } from './protocol';

export interface PlayersContext extends CommandBase, Pick<PlayerDeps, 'connections' | 'entryUsers'> {
  pages: PlayerPanels;
}

export const showPlayer: CommandDef<PlayersContext> = {
  id: 'universeExplorer.showPlayer',
  get failure() {
    return t`show the player`;
  },
  run: async (ctx, arg: unknown): Promise<PlayerPanel> => ctx.pages.show(await playerOf(ctx, arg)),
};

/** Whose page: the argument's player, or one asked for. */
async function playerOf(ctx: PlayersContext, arg: unknown): Promise<PlayerRef> {
  // A restriction row names its player as `player` (the tree belongs to the restrictions area).
  const given = readPlayerRef(arg) ?? readPlayerRef((arg as { player?: unknown } | undefined)?.player);
  if (given) return given;
  if (arg instanceof vscode.Uri) return entryPlayer(ctx, arg);
  const connection = await pickConnection(ctx.ui, ctx.connections);
  const universe = await pickUniverse(ctx.ui, connection);
  const u = { connectionId: connection.id, universeId: universe.id };
  const where = universe.name ? t`${universe.name} (${universe.id})` : t`universe ${universe.id}`;
  const userId = await askUserId(ctx.ui, t`Show Player in ${where}`);
  return { ...u, userId };
}

/** The user ids of the entry open in `uri`: the only one, or one picked. */
async function entryPlayer(ctx: PlayersContext, uri: vscode.Uri): Promise<PlayerRef> {
  const entry = ctx.entryUsers(uri);
  if (!entry) throw new Error(t`open an entry of a data store first (Show Player… reads its user ids)`);
  const { connectionId, universeId, userIds } = entry;
  if (!userIds.length) {
    throw new Error(t`this entry has no user ids; run Show Player… from the palette and type a user id`);
  }
  if (userIds.length === 1) return { connectionId, universeId, userId: userIds[0] };
  const picked = required(
    await ctx.ui.pick(
      userIds.map((id) => ({ label: String(id), id })),
      { title: t`Show Player`, placeHolder: t`The entry's user ids: pick one` },
    ),
  );
  return { connectionId, universeId, userId: picked.id };
}
