import vscode = require('vscode');
import { localTime } from '../uris';
import type { DataStoresCommand } from './context';
import { asVersion } from './nodes';

export const compareVersion: DataStoresCommand = {
  id: 'universeExplorer.compareVersion',
  failure: 'compare the version',
  async run(_ctx, node: unknown) {
    const v = asVersion(node);
    const title = `${v.parent.entry.key}: version of ${localTime(v.version.createdTime)} ↔ now`;
    await vscode.commands.executeCommand('vscode.diff', v.uri, v.parent.uri, title);
  },
};
