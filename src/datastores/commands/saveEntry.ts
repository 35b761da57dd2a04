import { t } from '../../core/text';
import vscode = require('vscode');
import { addressOf, entryScheme } from '../editor/uris';
import type { DataStoresCommand } from './context';

/**
 * Save Entry (Ctrl+S in an entry's editor): the product checks the value and the service first, says in its own
 * words why a save cannot happen (the edit stays), and only then lets VS Code save, which writes through the entry
 * file system.
 */
export const saveEntry: DataStoresCommand = {
  id: 'universeExplorer.saveEntry',
  get failure() {
    return t`save the entry`;
  },
  async run(ctx, uri?: unknown) {
    const doc =
      uri instanceof vscode.Uri
        ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())
        : vscode.window.activeTextEditor?.document;
    if (!doc || doc.uri.scheme !== entryScheme) return vscode.commands.executeCommand('workbench.action.files.save');
    if (!doc.isDirty) return { saved: true };
    // A save that takes a while shows a notification whose Cancel stops it (the edit stays); a quick one shows none.
    const title = t`Saving ${addressOf(doc.uri).key}…`;
    return ctx.ui.progress(
      title,
      async (signal) => {
        const outcome = await ctx.saver.prepare(doc, 'command', signal);
        if (outcome) {
          if (!outcome.saved && !outcome.quiet) void ctx.ui.error(t`Not saved: ${outcome.message}`);
          return outcome;
        }
        ctx.documents.release(doc.uri);
        return { saved: await doc.save() };
      },
      { delayMs: 1500 },
    );
  },
};
