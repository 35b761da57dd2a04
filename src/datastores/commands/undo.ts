import { t } from '../../core/text';
import { confirmWrite } from '../../core/undo';
import type { EntryAddress } from '../editor/entryPath';
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
  confirmWrite(
    ctx.ui,
    message,
    previousVersion === undefined
      ? undefined
      : {
          progress: t`Undoing the change of ${a.key}…`,
          run: (signal) => ctx.model.restore(a, previousVersion, signal),
          done: t`"${a.key}" holds its earlier value again, as a new version.`,
          what: t`the change of "${a.key}"`,
          otherwise: t`Restore a version from its list.`,
        },
  );
}
