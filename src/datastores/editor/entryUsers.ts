// The user ids of the entry an editor shows, for Show Player… (another area's command, handed this by the wiring),
// and the context key `universeExplorer.entryHasUserIds`, which shows that command on an entry that has some.
import vscode = require('vscode');
import type { UniverseAddress } from '../../core/universe';
import type { EntryEditor } from './entryEditor';
import { addressOf, entryScheme } from './uris';

/** The universe and user ids of the entry open in `uri`, as its document last read or wrote it. */
export function entryUsers(
  editor: EntryEditor,
  uri: vscode.Uri,
): (UniverseAddress & { userIds: number[] }) | undefined {
  if (uri.scheme !== entryScheme) return undefined;
  try {
    const a = addressOf(uri);
    const shown = editor.entries.shown(a);
    return shown && { connectionId: a.connectionId, universeId: a.universeId, userIds: [...shown.userIds] };
  } catch {
    return undefined;
  }
}

/** Keeps `universeExplorer.entryHasUserIds` true while the active editor shows an entry with user ids. */
export function followEntryUsers(editor: EntryEditor): vscode.Disposable {
  const update = () => {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const has = !!uri && !!entryUsers(editor, uri)?.userIds.length;
    void vscode.commands.executeCommand('setContext', 'universeExplorer.entryHasUserIds', has);
  };
  update();
  return vscode.Disposable.from(vscode.window.onDidChangeActiveTextEditor(update), editor.onDidShow(update));
}
