import { reason } from './errors';
import { t } from './text';
import type { Ui } from './ui';

export interface Undo {
  /** The progress title while it runs, e.g. "Undoing the increment of Player_1…". */
  progress: string;
  run(signal: AbortSignal): Promise<unknown>;
  /** Said once it worked. */
  done: string;
  /** Completes "Could not undo …", e.g. "the increment of "Player_1"". */
  what: string;
  /** What the user can do instead when it fails. */
  otherwise: string;
}

/** Says what a write did (a non-modal message), with Undo when the service allows going back. */
export function confirmWrite(ui: Ui, message: string, undo: Undo | undefined): void {
  const undoLabel = t`Undo`;
  void ui.info(message, ...(undo ? [undoLabel] : [])).then(async (choice) => {
    if (choice !== undoLabel || !undo) return;
    try {
      await ui.progress(undo.progress, (signal) => undo.run(signal));
      void ui.info(undo.done);
    } catch (error) {
      void ui.error(t`Could not undo ${undo.what}: ${reason(error)}. ${undo.otherwise}`);
    }
  });
}
