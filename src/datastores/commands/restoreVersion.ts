import type { DataStoresCommand } from './context';
import { versionTime } from '../uris';
import { asVersion, writableEntry } from './nodes';
import { confirmWithUndo } from './undo';

export const restoreVersion: DataStoresCommand = {
  id: 'universeExplorer.restoreVersion',
  failure: 'restore the version',
  async run(ctx, node: unknown) {
    const v = asVersion(node);
    const entry = writableEntry(v.parent);
    const answer = await ctx.ui.warn(
      `Restore "${entry.entry.key}" to the version of ${versionTime(v.version.createdTime)}?`,
      { modal: true, detail: 'Its value, attributes and user ids are written as a new version; the history is kept.' },
      'Restore',
    );
    if (answer !== 'Restore') return undefined;
    const [before, written] = await ctx.ui.progress(`Restoring ${entry.entry.key}…`, async (signal) => {
      const newest = await ctx.model.newestVersion(entry.address, signal);
      return [newest, await ctx.model.restore(entry.address, v.version.version, signal)] as const;
    });
    confirmWithUndo(
      ctx,
      entry.address,
      `Restored "${entry.entry.key}" to the version of ${versionTime(v.version.createdTime)}.`,
      before && !before.deleted ? before.version : undefined,
    );
    return written;
  },
};
