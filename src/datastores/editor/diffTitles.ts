// A comparison with an entry's current value names the time of the value it shows ("current, 26 Nov 2026, 12:40:05").
// When the entry is read or written anew (a restore, another writer), an open comparison is opened again under the
// new time: VS Code cannot rename a tab.
import vscode = require('vscode');
import { t } from '../../core/text';
import type { EntryAddress } from './entryPath';
import type { EntryEditor } from './entryEditor';
import { diffTitle, entryUri, versionTime } from './uris';

const SIDES = ' ↔ ';

/** The title of a comparison of `left` with the entry's current value, shown as of `mtime` (0: not known). */
export function currentDiffTitle(key: string, left: string, mtime: number): string {
  return diffTitle(key, left, mtime ? t`current, ${versionTime(mtime)}` : t`current`);
}

export class DiffTitles implements vscode.Disposable {
  private readonly following: vscode.Disposable;

  constructor(private readonly editor: EntryEditor) {
    this.following = editor.onDidShow((a) => void this.follow(a));
  }

  dispose(): void {
    this.following.dispose();
  }

  private async follow(a: EntryAddress): Promise<void> {
    const shown = this.editor.entries.shown(a);
    if (!shown || this.editor.entries.pinned(a)) return;
    const uri = entryUri(a).toString();
    const current = `${a.key}.json (${t`current`}`;
    for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
      const input = tab.input;
      if (!(input instanceof vscode.TabInputTextDiff) || input.modified.toString() !== uri) continue;
      const at = tab.label.lastIndexOf(SIDES);
      if (at < 0 || !tab.label.slice(at + SIDES.length).startsWith(current)) continue;
      const left = tab.label.slice(`${a.key}.json (`.length, at - 1);
      const title = currentDiffTitle(a.key, left, shown.mtime);
      if (title === tab.label) continue;
      const { viewColumn } = tab.group;
      const [preview, preserveFocus] = [tab.isPreview, !tab.isActive];
      await vscode.window.tabGroups.close(tab, true);
      await vscode.commands.executeCommand('vscode.diff', input.original, input.modified, title, {
        viewColumn,
        preview,
        preserveFocus,
      });
    }
  }
}
