import { reason } from '../../core/errors';
import type { EntryAddress } from '../entryPath';
import type { DataStoresContext } from './context';

/**
 * Says what a write did, with Undo when there is a version to go back to: Undo writes that version again (as
 * Restore This Version does), and says so or why it could not.
 */
export function confirmWithUndo(
  ctx: DataStoresContext,
  a: EntryAddress,
  message: string,
  previousVersion: string | undefined,
): void {
  const actions = previousVersion ? ['Undo'] : [];
  void ctx.ui.info(message, ...actions).then(async (choice) => {
    if (choice !== 'Undo' || !previousVersion) return;
    try {
      await ctx.ui.progress(`Undoing the change of ${a.key}…`, (signal) =>
        ctx.model.restore(a, previousVersion, signal),
      );
      void ctx.ui.info(`"${a.key}" holds its earlier value again, as a new version.`);
    } catch (error) {
      void ctx.ui.error(`Could not undo the change of "${a.key}": ${reason(error)}. Restore a version from its list.`);
    }
  });
}
