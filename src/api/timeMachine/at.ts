// An entry as it was at a moment: the newest version written at or before it (List Entry Versions with endTime,
// newest first, one item), then that version's value. A deletion is a version too (deleted: true), listed like the
// others, so a key deleted at the moment has a version there and no value.
import type { OpenApiClient } from '../client';
import type { Entry } from '../datastores';
import { notFoundAs } from '../errors';
import type { CallOptions } from '../http';
import type { EntryVersion } from '../schemas';

/** One entry of one store. */
export interface EntryAddress {
  universeId: number | string;
  datastoreName: string;
  /** Default "global". */
  scope?: string;
  key: string;
}

/** An entry's value and metadata as a version holds them, and that version as listed. */
export interface EntryAt extends Entry {
  at: EntryVersion;
}

/**
 * The newest versions of an entry, newest first, at most `limit`, written at or before `time` when given. Empty
 * when the key has no such version, or is unknown (never written, or purged 30 days after a deletion).
 */
export function newestVersions(
  client: OpenApiClient,
  address: EntryAddress,
  limit: number,
  time?: Date,
  opts: CallOptions = {},
): Promise<EntryVersion[]> {
  // No async frame: bulk engines ask once per key.
  let endTime: string | undefined;
  try {
    endTime = time?.toISOString();
  } catch (error) {
    return Promise.reject(error as Error); // an invalid Date, a rejection like any other failure
  }
  return client.datastores
    .listEntryVersionItems(
      {
        universeId: address.universeId,
        datastoreName: address.datastoreName,
        scope: address.scope ?? 'global',
        entryKey: address.key,
        endTime,
        sortOrder: 'Descending',
        limit,
      },
      opts,
    )
    .then((items) => (items.length > limit ? items.slice(0, limit) : items), notFoundAs([]));
}

/**
 * The version in effect at `time`: the newest written at or before it, a deletion (deleted: true) included; undefined
 * when the key had no version yet (or is unknown now). One request.
 */
export async function versionAt(
  client: OpenApiClient,
  address: EntryAddress,
  time: Date,
  opts: CallOptions = {},
): Promise<EntryVersion | undefined> {
  return (await newestVersions(client, address, 1, time, opts))[0];
}

/** A listed version's value (Get Entry Version); undefined when it is gone since it was listed. */
export async function readVersion(
  client: OpenApiClient,
  address: EntryAddress,
  version: EntryVersion,
  opts: CallOptions = {},
): Promise<EntryAt | undefined> {
  const entry = await client.datastores
    .getEntryVersion(
      {
        universeId: address.universeId,
        datastoreName: address.datastoreName,
        scope: address.scope ?? 'global',
        entryKey: address.key,
        versionId: version.version,
      },
      opts,
    )
    .catch(notFoundAs(undefined));
  return entry && { ...entry, at: version };
}

/**
 * The entry as it was at `time`: the exact bytes of its value, its attributes and user ids, and the version that
 * held them; undefined when the key did not exist or was deleted then. It is the newest version kept: of an hour
 * with several writes the service keeps only the last, so a time inside such an hour may get the hour before. Two
 * requests (one when there is no value).
 */
export async function entryAt(
  client: OpenApiClient,
  address: EntryAddress,
  time: Date,
  opts: CallOptions = {},
): Promise<EntryAt | undefined> {
  // A version listed and then thinned away before its read: look again once.
  for (let attempt = 1; ; attempt++) {
    const version = await versionAt(client, address, time, opts);
    if (!version || version.deleted) return undefined;
    const entry = await readVersion(client, address, version, opts);
    if (entry || attempt === 2) return entry;
  }
}
