import { t } from '../../core/text';
import { assertWritable } from '../../core/universe';
import { OrderedEntryNode, OrderedStoreNode } from '../tree';

/** The node a tree command was run on, checked, so a palette run without one gets a clear message. */
export function asStore(node: unknown): OrderedStoreNode {
  if (!(node instanceof OrderedStoreNode)) throw new Error(t`choose an ordered data store in the Universes view`);
  return node;
}

export function asEntry(node: unknown): OrderedEntryNode {
  if (!(node instanceof OrderedEntryNode))
    throw new Error(t`choose an entry of an ordered data store in the Universes view`);
  return node;
}

/** A store the user may write to (refused before any prompt in a read-only universe). */
export function writableStore(node: unknown): OrderedStoreNode {
  const store = asStore(node);
  assertWritable(store.ref);
  return store;
}

export function writableEntry(node: unknown): OrderedEntryNode {
  const entry = asEntry(node);
  assertWritable(entry.store);
  return entry;
}

/** `Leaderboard (scope global)`. */
export const storeWords = (s: { store: string; scope: string }): string => t`${s.store} (scope ${s.scope})`;
