import { t } from '../../core/text';
import vscode = require('vscode');
import { localTime } from '../../core/time';
import { entryPath, parseEntryPath, type EntryAddress } from './entryPath';

/** Entries open as editable documents: `universe-entry://<connection>/Data Stores/<universe>/<store>/<scope>/<key>.json`. */
export const entryScheme = 'universe-entry';
/** Old versions, read-only: the same path, with `{"version": <id>, "time": <local time>}` as the query. */
export const versionScheme = 'universe-entry-version';
/** The language of both: JSON, saved only when the user saves (package.json sets files.autoSave off for it). */
export const entryLanguage = 'universe-entry';

export function entryUri(a: EntryAddress): vscode.Uri {
  return vscode.Uri.from({ scheme: entryScheme, authority: a.connectionId, path: entryPath(a) });
}

/**
 * The query's time is only shown (the tab title says which version it is); the id identifies it. Opened from a time
 * view (`at`), the title also says the moment: `Player_1.json (version of 24 Nov 2026, 14:05:07, as of 25 Nov …)`.
 */
export function versionUri(
  a: EntryAddress,
  version: { version: string; createdTime: string | number },
  at?: Date,
): vscode.Uri {
  const written = versionTime(version.createdTime);
  const time = at ? t`${written}, as of ${localTime(at.getTime())}` : written;
  const query = JSON.stringify({ version: version.version, time });
  return vscode.Uri.from({ scheme: versionScheme, authority: a.connectionId, path: entryPath(a), query });
}

export function addressOf(uri: vscode.Uri): EntryAddress {
  return parseEntryPath(uri.authority, uri.path);
}

/** The version id of a version URI. */
export function versionIdOf(uri: vscode.Uri): string {
  const { version } = JSON.parse(uri.query) as { version?: unknown };
  if (typeof version !== 'string' || !version) throw new Error(t`No version in ${uri.query}`);
  return version;
}

/** When a version was written, as its tree row, tab and diff titles show it: `24 Nov 2026, 14:05:07`. */
export function versionTime(when: string | number | undefined): string {
  return localTime(when, { seconds: true });
}

/** A diff editor's title: `Player_1.json (version of 24 Nov 2026, 14:05:07) ↔ Player_1.json (current, …)`. */
export function diffTitle(key: string, left: string, right: string): string {
  return `${key}.json (${left}) ↔ ${key}.json (${right})`;
}
