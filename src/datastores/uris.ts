import vscode = require('vscode');
import { entryPath, parseEntryPath, type EntryAddress } from './entryPath';

/** Entries open as editable documents: `universe-entry://<connection>/<universe>/<store>/<scope>/<key>.json`. */
export const entryScheme = 'universe-entry';
/** Old versions, read-only: the same path with the version id as the query. */
export const versionScheme = 'universe-entry-version';

export function entryUri(a: EntryAddress): vscode.Uri {
  return vscode.Uri.from({ scheme: entryScheme, authority: a.connectionId, path: entryPath(a) });
}

export function versionUri(a: EntryAddress, versionId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: versionScheme, authority: a.connectionId, path: entryPath(a), query: versionId });
}

export function addressOf(uri: vscode.Uri): EntryAddress {
  return parseEntryPath(uri.authority, uri.path);
}
