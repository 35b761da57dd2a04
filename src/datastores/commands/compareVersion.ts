import { t } from '../../core/text';
import vscode = require('vscode');
import { currentDiffTitle } from '../editor/diffTitles';
import { versionTime } from '../editor/uris';
import type { DataStoresCommand } from './context';
import { asVersion } from './nodes';

export const compareVersion: DataStoresCommand = {
  id: 'universeExplorer.compareVersion',
  get failure() {
    return t`compare the version`;
  },
  async run(_ctx, node: unknown) {
    const v = asVersion(node);
    // The entry's stat is the time of the value the right side shows (0 while an edit is pinned).
    const current = await vscode.workspace.fs.stat(v.entryUri).then(
      (s) => s.mtime,
      () => 0,
    );
    const title = currentDiffTitle(v.address.key, t`version of ${versionTime(v.version.createdTime)}`, current);
    await vscode.commands.executeCommand('vscode.diff', v.uri, v.entryUri, title);
  },
};
