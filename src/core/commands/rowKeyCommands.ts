import vscode = require('vscode');
import type { RowKey } from '../rowKeys';
import { t } from '../text';
import type { CoreCommand, CoreContext } from './context';

/**
 * A key pressed on the Universes view. VS Code passes no row to a keybinding's command (vscode#72442), so the
 * command reads the view's selection and runs what the row's context value maps to.
 */
function rowKey(id: string, key: keyof RowKey, fallback: (ctx: CoreContext, label: string) => Thenable<unknown>) {
  const command: CoreCommand = {
    id,
    get failure() {
      return key === 'delete' ? t`delete the selected row` : t`open the selected row`;
    },
    async run(ctx) {
      const node = ctx.view.selection[0];
      if (!node) return undefined;
      const item = node.item();
      const action = ctx.rowKeys[item.contextValue ?? '']?.[key];
      if (action) return vscode.commands.executeCommand(action, node);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      return fallback(ctx, label);
    },
  };
  return command;
}

export const deleteSelection = rowKey('universeExplorer.deleteSelection', 'delete', async (ctx, label) => {
  const readOnly = /\.readOnly$/.test(String(ctx.view.selection[0]?.item().contextValue));
  vscode.window.setStatusBarMessage(
    readOnly ? t`"${label}" is in a read-only universe: nothing to delete.` : t`"${label}" cannot be deleted.`,
    4000,
  );
});

/** Enter where no open is mapped: what Enter does in any tree (the row's click command, or expand and collapse). */
export const openSelection = rowKey('universeExplorer.openSelection', 'open', () =>
  vscode.commands.executeCommand('list.select'),
);
