import type { DataStoresCommand } from './context';
import { asVersion, writableEntry } from './nodes';

export const restoreVersion: DataStoresCommand = {
  id: 'universeExplorer.restoreVersion',
  failure: 'restore the version',
  async run(ctx, node: unknown) {
    const v = asVersion(node);
    const entry = writableEntry(v.parent);
    const answer = await ctx.ui.warn(
      `Restore "${entry.entry.key}" to the version of ${v.version.createdTime}?`,
      { modal: true, detail: 'Its value, attributes and user ids are written as a new version; the history is kept.' },
      'Restore',
    );
    if (answer !== 'Restore') return undefined;
    return ctx.ui.progress(`Restoring ${entry.entry.key}…`, (signal) =>
      ctx.model.restore(entry.address, v.version.version, signal),
    );
  },
};
