import vscode = require('vscode');
import { SHOW_STATUS } from '../statusBar';
import { t } from '../text';
import type { CoreCommand } from './context';

interface Line extends vscode.QuickPickItem {
  command?: string;
  args?: unknown[];
}

/** The status bar's click: the active connection, its universes and running work, with the next useful actions. */
export const showStatus: CoreCommand = {
  id: SHOW_STATUS,
  get failure() {
    return t`show the status`;
  },
  async run(ctx) {
    const connection = ctx.status.active();
    const actions: Line[] = [
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      ...(connection
        ? [
            {
              label: `$(check) ${t`Test Connection`}`,
              command: 'universeExplorer.testConnection',
              args: [connection.id],
            },
          ]
        : [{ label: `$(beaker) ${t`Start Local Sandbox`}`, command: 'universeExplorer.startSandbox' }]),
      { label: `$(add) ${t`Add Connection…`}`, command: 'universeExplorer.addConnection' },
      { label: `$(output) ${t`Show Log`}`, command: 'universeExplorer.showLog' },
    ];
    const picked = await ctx.ui.pick<Line>([...ctx.status.details(), ...actions], {
      title: 'Universe Explorer',
      placeHolder: t`The connection in use and the work running; pick an action`,
    });
    if (picked?.command) await vscode.commands.executeCommand(picked.command, ...(picked.args ?? []));
  },
};
