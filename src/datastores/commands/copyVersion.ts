import { t } from '../../core/text';
import { EntryNode } from '../tree';
import type { DataStoresCommand } from './context';
import { asVersion } from './nodes';

/** On an entry: its current version id; on a version: that version's id. */
export const copyVersion: DataStoresCommand = {
  id: 'universeExplorer.copyVersion',
  get failure() {
    return t`copy the version`;
  },
  async run(ctx, node: unknown) {
    const id =
      node instanceof EntryNode
        ? (await ctx.ui.progress(t`Reading ${node.entry.key}…`, (signal) => ctx.model.read(node.address, signal)))
            .version
        : asVersion(node).version.version;
    await ctx.ui.copy(id);
    return id;
  },
};
