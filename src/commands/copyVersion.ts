import { EntryNode } from '../tree/entryNode';
import type { CommandDef } from './context';
import { asVersion } from './nodes';

/** On an entry: its current version id; on a version: that version's id. */
export const copyVersion: CommandDef = {
  id: 'universeExplorer.copyVersion',
  failure: 'copy the version',
  async run(ctx, node: unknown) {
    if (node instanceof EntryNode) {
      const client = await ctx.connections.client(node.parent.connectionId);
      const current = await client.datastores.getEntry(node.request);
      await ctx.ui.copy(current.version);
      return current.version;
    }
    const id = asVersion(node).version.version;
    await ctx.ui.copy(id);
    return id;
  },
};
