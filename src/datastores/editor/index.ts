// The entry editor room: entries open as JSON documents, their saves, and the state of each open entry, which only
// this room writes (EntryEditor). The file system reloads a document when the room asks it to.
import vscode = require('vscode');
import type { Log } from '../../core/log';
import type { Ui } from '../../core/ui';
import type { DataStoresModel } from '../model';
import { DiffTitles } from './diffTitles';
import { EntryDocuments } from './documents';
import { EntryEditor } from './entryEditor';
import { EntryFileSystem, EntryVersionFileSystem } from './entryFileSystem';
import { followEntryUsers } from './entryUsers';
import { EntrySaver } from './save';
import { entryScheme, versionScheme } from './uris';

export function activateEditor(deps: { model: DataStoresModel; ui: Ui; log: Log; workspaceState: vscode.Memento }) {
  const { model, ui, log } = deps;
  const editor = new EntryEditor(model, deps.workspaceState);
  const saver = new EntrySaver(editor, ui, log);
  const files = new EntryFileSystem(editor, saver);
  const documents = new EntryDocuments(editor, saver, ui);
  const disposables: vscode.Disposable[] = [
    editor,
    new DiffTitles(editor),
    followEntryUsers(editor),
    files,
    documents,
    vscode.workspace.registerFileSystemProvider(entryScheme, files, { isCaseSensitive: true }),
    vscode.workspace.registerFileSystemProvider(versionScheme, new EntryVersionFileSystem(model), {
      isCaseSensitive: true,
      isReadonly: true,
    }),
  ];
  return { editor, saver, documents, disposables };
}
