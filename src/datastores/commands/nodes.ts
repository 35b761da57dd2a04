import { t } from '../../core/text';
import { DataStoreNode, DataStoresGroupNode, EntryNode, VersionNode } from '../tree';

/** The node a tree command was run on, checked, so a palette run without one gets a clear message. */
function expect<T>(kind: new (...args: never[]) => T, message: () => string) {
  return (node: unknown): T => {
    if (!(node instanceof kind)) throw new Error(message());
    return node;
  };
}

export const asStoreGroup = expect(DataStoresGroupNode, () => t`choose a Data Stores group in the Universes view`);
export const asDataStore = expect(DataStoreNode, () => t`choose a data store in the Universes view`);
export const asEntry = expect(EntryNode, () => t`choose an entry in the Universes view`);
export const asVersion = expect(VersionNode, () => t`choose a version in the Universes view`);

/** Throws for a node of a universe that the setting universeExplorer.readOnlyUniverses makes read-only. */
function writable<T extends { readOnly: boolean }>(node: T, universeId: number): T {
  if (node.readOnly)
    throw new Error(t`universe ${universeId} is read-only (setting universeExplorer.readOnlyUniverses)`);
  return node;
}

/** A data store the user may write to. */
export function writableStore(node: unknown): DataStoreNode {
  const store = asDataStore(node);
  return writable(store, store.ref.universeId);
}

/** An entry the user may write to. */
export function writableEntry(node: unknown): EntryNode {
  const entry = asEntry(node);
  return writable(entry, entry.address.universeId);
}
