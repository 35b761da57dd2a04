import { t } from '../../core/text';
import { assertWritable } from '../../core/universe';
import type { UniverseAddress } from '../../core/universe';
import { allScopes, type StoreFilter } from '../listState';
import type { DataStoresModel } from '../model';
import {
  DataStoreNode,
  DataStoresGroupNode,
  EntryAtTimeNode,
  EntryNode,
  StoreAtTimeNode,
  VersionNode,
  type VersionRow,
} from '../tree';

/** The node a tree command was run on, checked, so a palette run without one gets a clear message. */
export function expect<T>(kind: new (...args: never[]) => T, message: () => string) {
  return (node: unknown): T => {
    if (!(node instanceof kind)) throw new Error(message());
    return node;
  };
}

export const asStoreGroup = expect(DataStoresGroupNode, () => t`choose a Data Stores group in the Universes view`);
export const asDataStore = expect(DataStoreNode, () => t`choose a data store in the Universes view`);
export const asEntry = expect(EntryNode, () => t`choose an entry in the Universes view`);

/** A version row: of an entry's history, or an entry of a store's time view (the version it held then). */
export function asVersion(node: unknown): VersionRow {
  if (node instanceof VersionNode || node instanceof EntryAtTimeNode) return node;
  throw new Error(t`choose a version in the Universes view`);
}

/** A data store row, or its time view (Open at Time) with the moment it shows. */
export function asStoreOrTime(node: unknown): { store: DataStoreNode; time?: Date } {
  if (node instanceof StoreAtTimeNode) return { store: node.parent, time: node.time };
  return { store: asDataStore(node) };
}

/** A store row's filter in words: `scope global, keys starting with "Player_"`. */
export function filterText(filter: StoreFilter): string {
  const where = filter.scope === allScopes ? t`all scopes` : t`scope ${filter.scope}`;
  return filter.prefix ? t`${where}, keys starting with "${filter.prefix}"` : where;
}

/** Throws unless the universe's connection speaks cloud v2 data stores, saying how to switch it. */
export function requireV2(model: DataStoresModel, u: UniverseAddress, what: string): void {
  if (model.apiVersion(u) === 'v2') return;
  throw new Error(
    t`${what} needs the cloud v2 data stores API, and this connection speaks v1; switch it with Edit Connection → Data Stores API`,
  );
}

/** A data store the user may write to (refused before any prompt in a read-only universe). */
export function writableStore(node: unknown): DataStoreNode {
  const store = asDataStore(node);
  assertWritable(store.ref);
  return store;
}

/** An entry the user may write to. */
export function writableEntry(node: unknown): EntryNode {
  const entry = asEntry(node);
  assertWritable(entry.address);
  return entry;
}

/** A version row of an entry the user may write to. */
export function writableVersion(node: unknown): VersionRow {
  const version = asVersion(node);
  assertWritable(version.address);
  return version;
}
