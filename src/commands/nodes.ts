import { AssetNode } from '../tree/assetNode';
import { AssetVersionNode } from '../tree/assetVersionNode';
import { DataStoreNode } from '../tree/dataStoreNode';
import { EntryNode } from '../tree/entryNode';
import { VersionNode } from '../tree/versionNode';

/** The node a tree command was run on, checked, so a palette run without one gets a clear message. */
function expect<T>(kind: new (...args: never[]) => T, what: string) {
  return (node: unknown): T => {
    if (!(node instanceof kind)) throw new Error(`choose ${what} in the Universes view`);
    return node;
  };
}

export const asDataStore = expect(DataStoreNode, 'a data store');
export const asEntry = expect(EntryNode, 'an entry');
export const asVersion = expect(VersionNode, 'a version');
export const asAsset = expect(AssetNode, 'an asset');
export const asAssetVersion = expect(AssetVersionNode, 'an asset version');

/** Throws for a node of a universe that the setting universeExplorer.readOnlyUniverses makes read-only. */
export function writable<T extends { readOnly: boolean; universeId: number }>(node: T): T {
  if (node.readOnly) throw new Error(`universe ${node.universeId} is read-only (setting universeExplorer.readOnlyUniverses)`);
  return node;
}

/** A data store the user may write to. */
export const writableStore = (node: unknown) => writable(asDataStore(node));

/** An entry the user may write to. */
export function writableEntry(node: unknown): EntryNode {
  const entry = asEntry(node);
  writable(entry.parent);
  return entry;
}
