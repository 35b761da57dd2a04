// Undelete Entry on a deleted entry row: writes back its newest version that is not a deletion, with its user ids
// and attributes (as Restore This Version does), only while the key is still deleted. The confirmation offers Undo,
// which deletes it again.
import vscode = require('vscode');
import { PreconditionFailedError } from '../../api';
import { confirmProductionWrite } from '../../core/confirmWrite';
import { isCancel, reason } from '../../core/errors';
import { t } from '../../core/text';
import { confirmWrite } from '../../core/undo';
import { entryUri, versionTime } from '../editor/uris';
import type { DataStoresCommand } from './context';
import { writableEntry } from './nodes';

export const undeleteEntry: DataStoresCommand = {
  id: 'universeExplorer.undeleteEntry',
  get failure() {
    return t`undelete the entry`;
  },
  async run(ctx, node: unknown) {
    const { address, parent } = writableEntry(node);
    const { key } = address;
    const store = parent.store.name;
    await confirmProductionWrite(ctx.ui, address, t`Undelete "${key}" in ${store}?`, t`Undelete`);
    let undeleted;
    try {
      undeleted = await ctx.ui.progress(t`Undeleting ${key}…`, async (signal) => {
        const last = await ctx.model.lastLiveVersion(address, signal);
        if (!last) return undefined;
        return { last, written: await ctx.model.restore(address, last.version, signal, { whileDeleted: true }) };
      });
    } catch (error) {
      if (isCancel(error)) throw error;
      if (error instanceof PreconditionFailedError) {
        const open = t`Open Entry`;
        void ctx.ui
          .warn(
            t`"${key}" in ${store} holds a value again: it was written since it was deleted, so it was left as it is.`,
            {},
            open,
          )
          .then(async (choice) => {
            if (choice === open) await vscode.window.showTextDocument(entryUri(address), { preview: false });
          });
        return undefined;
      }
      const why = t`"${key}" in ${store}: ${reason(error)}. Try again, or expand it and restore one of its versions`;
      throw new Error(why, { cause: error });
    }
    if (!undeleted) {
      void ctx.ui.info(t`"${key}" in ${store} has no version left to undelete; versions are kept 30 days.`);
      return undefined;
    }
    const { last, written } = undeleted;
    confirmWrite(ctx.ui, t`Undeleted "${key}" in ${store} (its version of ${versionTime(last.createdTime)}).`, {
      progress: t`Deleting ${key} again…`,
      run: async (signal) => {
        // Delete has no condition: a value written since the undelete is not deleted.
        const newest = await ctx.model.newestVersion(address, signal);
        if (newest?.version !== written.version) throw new Error(t`it was written since, so it was left as it is`);
        await ctx.model.delete(address, signal);
      },
      done: t`"${key}" is deleted again.`,
      what: t`the undelete of "${key}"`,
      otherwise: t`Delete it with Delete Entry… if it should go.`,
    });
    return written;
  },
};
