// Sorted map items open as JSON documents: `universe-memory-item://<connection>/Memory Stores/<universe>/<map>/
// <key>.json?{"map":…,"key":…}`. The path is for reading (a "/" in a name shows as "∕"); the query holds the exact
// names, so any map name or key round-trips.
import vscode = require('vscode');
import { t } from '../core/text';
import type { UniverseAddress } from '../core/universe';

export const itemScheme = 'universe-memory-item';
/** The service's side of a conflict, read-only, for Compare. */
export const theirsScheme = 'universe-memory-theirs';
/** The first path segment: the item language's file pattern relies on it. */
export const itemRoot = 'Memory Stores';

export interface ItemAddress extends UniverseAddress {
  mapName: string;
  key: string;
}

const shown = (name: string) => name.replace(/\//g, '\u2215') || '_';

export function itemUri(a: ItemAddress, scheme = itemScheme): vscode.Uri {
  return vscode.Uri.from({
    scheme,
    authority: a.connectionId,
    path: `/${itemRoot}/${a.universeId}/${shown(a.mapName)}/${shown(a.key)}.json`,
    query: JSON.stringify({ map: a.mapName, key: a.key }),
  });
}

export function itemAddressOf(uri: vscode.Uri): ItemAddress {
  const parts = uri.path.split('/');
  let names: { map?: unknown; key?: unknown } = {};
  try {
    names = JSON.parse(uri.query) as typeof names;
  } catch {
    // refused below
  }
  if (parts[1] !== itemRoot || !/^\d+$/.test(parts[2] ?? '') || typeof names.map !== 'string' || !names.key) {
    throw new Error(t`Not a sorted map item: ${uri.path}`);
  }
  return {
    connectionId: uri.authority,
    universeId: Number(parts[2]),
    mapName: names.map,
    key: String(names.key),
  };
}

/** `"server-eu-1" (sorted map Lobby)`, as messages name an item. */
export function describeItem(a: { mapName: string; key: string }): string {
  return t`"${a.key}" (sorted map ${a.mapName})`;
}
