import type { CommandDef } from './context';
import { writableEntry } from './nodes';

export const deleteEntry: CommandDef = {
  id: 'universeExplorer.deleteEntry',
  failure: 'delete the entry',
  async run(ctx, node: unknown) {
    const entry = writableEntry(node);
    const answer = await ctx.ui.warn(
      `Delete "${entry.entry.key}" (scope ${entry.entry.scope}) from ${entry.parent.store.name}?`,
      { modal: true, detail: 'The service keeps its versions for 30 days; you can restore one from the versions list.' },
      'Delete',
    );
    if (answer !== 'Delete') return false;
    const client = await ctx.connections.client(entry.parent.connectionId);
    await client.datastores.deleteEntry(entry.request);
    ctx.tree.refresh(entry.parent);
    return true;
  },
};
