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

export function checkWritable(readOnly: boolean, universeId: number): void {
  if (readOnly) throw new Error(`universe ${universeId} is read-only (setting universeExplorer.readOnlyUniverses)`);
}
