import { askingWords } from '../../core/confirmWrite';
import { t } from '../../core/text';
import type { DataStoresCommand } from './context';
import { versionTime } from '../editor/uris';
import { writableVersion } from './nodes';
import { confirmWithUndo } from './undo';

export const restoreVersion: DataStoresCommand = {
  id: 'universeExplorer.restoreVersion',
  get failure() {
    return t`restore the version`;
  },
  async run(ctx, node: unknown) {
    const v = writableVersion(node);
    const { address } = v;
    const restore = t`Restore`;
    const { question, detail } = askingWords(
      address,
      t`Restore "${address.key}" to the version of ${versionTime(v.version.createdTime)}?`,
      t`Its value, attributes and user ids are written as a new version; the history is kept.`,
    );
    const answer = await ctx.ui.warn(question, { modal: true, detail }, restore);
    if (answer !== restore) return undefined;
    const [before, written] = await ctx.ui.progress(t`Restoring ${address.key}…`, async (signal) => {
      const newest = await ctx.model.newestVersion(address, signal);
      return [newest, await ctx.model.restore(address, v.version.version, signal)] as const;
    });
    confirmWithUndo(
      ctx,
      address,
      t`Restored "${address.key}" to the version of ${versionTime(v.version.createdTime)}.`,
      before && !before.deleted ? before.version : undefined,
    );
    return written;
  },
};
