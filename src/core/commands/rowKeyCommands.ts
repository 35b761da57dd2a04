import vscode = require('vscode');
import type { RowKey } from '../rowKeys';
import { t } from '../text';
import type { TreeNode } from '../tree/node';
import type { CoreCommand, CoreContext } from './context';

/**
 * The row a key pressed on the Universes view acts on: the focused one, the row the arrow keys move to (they leave
 * the selection alone), as VS Code's own Explorer does. VS Code passes no row to a keybinding's command
 * (vscode#72442), so our keybindings pass `{ "$treeViewId": "universeExplorer.universes", "$focusedTreeItem": true }`,
 * which the extension host turns into the view's focused element, as it does for a view's title actions. When that
 * argument is not a row (run from code, or no row has the focus) the key acts on the selected row.
 */
function keyRow(ctx: CoreContext, focused: unknown): TreeNode | undefined {
  return isTreeNode(focused) ? focused : ctx.view.selection[0];
}

function isTreeNode(value: unknown): value is TreeNode {
  return typeof (value as Partial<TreeNode> | null | undefined)?.item === 'function';
}

/** Runs what the row's context value maps `key` to, or `fallback` when the row has no such action. */
function rowKey(id: string, key: keyof RowKey, fallback: (node: TreeNode, label: string) => Thenable<unknown>) {
  const command: CoreCommand = {
    id,
    get failure() {
      return key === 'delete' ? t`delete the focused row` : t`open the focused row`;
    },
    async run(ctx, focused?: unknown) {
      const node = keyRow(ctx, focused);
      if (!node) return undefined;
      const item = node.item();
      const action = ctx.rowKeys[item.contextValue ?? '']?.[key];
      if (action) return vscode.commands.executeCommand(action, node);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      return fallback(node, label);
    },
  };
  return command;
}

export const deleteSelection = rowKey('universeExplorer.deleteSelection', 'delete', async (node, label) => {
  const readOnly = /\.readOnly$/.test(String(node.item().contextValue));
  vscode.window.setStatusBarMessage(
    readOnly ? t`"${label}" is in a read-only universe: nothing to delete.` : t`"${label}" cannot be deleted.`,
    4000,
  );
});

/**
 * Enter runs VS Code's own `list.select` first (package.json: `runCommands`), which selects the focused row and does
 * what a click does (opens an entry or a version, expands or collapses a group); this adds the row's own open
 * where a click has none (an asset's details, a ban's Edit Restriction), and nothing elsewhere.
 */
export const openSelection = rowKey('universeExplorer.openSelection', 'open', async () => undefined);
