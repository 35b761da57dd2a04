// What the data stores model tells of entries: a change the views follow, and an entry seen (read or written, with
// its bytes and metadata) for those who keep copies, such as the query index (wired in extension.ts).
import type { Entry, EntryVersion } from '../api';
import type { EntryAddress } from './editor/entryPath';

/** An entry written or deleted by this extension (`version` absent: deleted). */
export interface EntryChange {
  address: EntryAddress;
  version?: string;
}

/** An entry as this extension read or wrote it: its value's bytes and metadata, or `"deleted"`. */
export interface EntrySeen {
  address: EntryAddress;
  entry: SeenValue | 'deleted';
}

export type SeenValue = Pick<Entry, 'version' | 'attributes' | 'userIds' | 'createdTime' | 'versionCreatedTime'> & {
  raw: Buffer | string;
  json: boolean;
};

/** What a write sent, with the version and times the service answered. */
export function seenOf(
  written: EntryVersion,
  raw: Buffer | string,
  json: boolean,
  metadata?: Pick<Entry, 'attributes' | 'userIds'>,
): SeenValue {
  const { attributes = {}, userIds = [] } = metadata ?? {};
  const times = { createdTime: written.objectCreatedTime, versionCreatedTime: written.createdTime };
  return { raw, json, version: written.version, attributes, userIds, ...times };
}
