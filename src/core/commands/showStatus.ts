import vscode = require('vscode');
import { SHOW_STATUS } from '../statusBar';
import type { CoreCommand } from './context';

interface Line extends vscode.QuickPickItem {
  command?: string;
  args?: unknown[];
}

/** The status bar's click: the active connection, its universes and running work, with the next useful actions. */
export const showStatus: CoreCommand = {
  id: SHOW_STATUS,
  failure: 'show the status',
  async run(ctx) {
    const connection = ctx.status.active();
    const actions: Line[] = [
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      ...(connection
        ? [{ label: '$(check) Test Connection', command: 'universeExplorer.testConnection', args: [connection.id] }]
        : [{ label: '$(beaker) Start Local Sandbox', command: 'universeExplorer.startSandbox' }]),
      { label: '$(add) Add Connection…', command: 'universeExplorer.addConnection' },
      { label: '$(output) Show Log', command: 'universeExplorer.showLog' },
    ];
    const picked = await ctx.ui.pick<Line>([...ctx.status.details(), ...actions], {
      title: 'Universe Explorer',
      placeHolder: 'The connection in use and the work running; pick an action',
    });
    if (picked?.command) await vscode.commands.executeCommand(picked.command, ...(picked.args ?? []));
  },
};
