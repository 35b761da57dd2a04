import type { CommandDef } from './context';
import { askUniverses, pickConnection } from './prompts';

export const addUniverse: CommandDef = {
  id: 'universeExplorer.addUniverse',
  failure: 'add the universe',
  async run(ctx, node?: unknown) {
    const connection = await pickConnection(ctx, node, true);
    const added = await askUniverses(ctx.ui);
    const universes = [...connection.universes, ...added.filter((a) => !connection.universes.some((u) => u.id === a.id))];
    await ctx.connections.update({ ...connection, universes });
  },
};
