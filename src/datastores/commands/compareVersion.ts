import vscode = require('vscode');
import type { DataStoresCommand } from './context';
import { asVersion } from './nodes';

export const compareVersion: DataStoresCommand = {
  id: 'universeExplorer.compareVersion',
  failure: 'compare the version',
  async run(_ctx, node: unknown) {
    const v = asVersion(node);
    await vscode.commands.executeCommand(
      'vscode.diff',
      v.uri,
      v.parent.uri,
      `${v.parent.entry.key}: version ${v.version.version} ↔ current`,
    );
  },
};
