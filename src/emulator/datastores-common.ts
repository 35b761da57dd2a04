// What v1 and cloud v2 data stores share over one stored model (docs/SERVICE.md, "Cloud v2 differences"): the limits,
// finding a data store (one deleted through v2 refuses every entry call of both APIs), writing a version, walking keys
// in order. Decision (U18): an entry call on a deleted data store is 404 "The data store is deleted." (v1:
// datastoreErrorCode DatastoreNotFound, the code v1 clients know for a missing data store).
import { ApiError } from './errors';
import type { Ctx } from './http';
import { compareKeys, lowerBound, type EntryRec, type StoreRec, type VersionRec } from './records';

/** Store names, scopes and keys: UTF-8 bytes. */
export const NAME_MAX_BYTES = 50;
export const MAX_VALUE_BYTES = 4 * 1024 * 1024;
export const MAX_ATTRIBUTE_BYTES = 300;
export const MAX_USER_IDS = 4;

export interface Ref {
  u: number;
  store: string;
  scope: string;
  key: string;
}

export interface Metadata {
  /** JSON object text, ASCII only; undefined when there are none. */
  attrs?: string;
  /** JSON array of user ids. */
  uids: string;
}

/** The data store, or undefined when there is none; 404 when it is deleted. */
export function openStore(ctx: Ctx, name: string): StoreRec | undefined {
  const store = ctx.app.store.dataStore(ctx.universeId, name);
  if (store?.deletedAt !== undefined) throw new ApiError(404, 'The data store is deleted.', 'DatastoreNotFound');
  return store;
}

/** Writes a version (a tombstone when `deleted`); returns its entry and the version. */
export function writeVersion(
  ctx: Ctx,
  r: Ref,
  value: Buffer,
  meta: Metadata,
  deleted = false,
): { entry: EntryRec; v: VersionRec } {
  const store = ctx.app.store;
  store.commit([
    {
      t: 'ds',
      u: r.u,
      store: r.store,
      scope: r.scope,
      key: r.key,
      seq: store.seq + 1,
      at: ctx.app.clock.now(),
      deleted,
      value,
      ...meta,
    },
  ]);
  const entry = store.entry(r.u, r.store, r.scope, r.key)!;
  return { entry, v: entry.versions[entry.versions.length - 1] };
}

/**
 * Keys after `after` ([scope, key]) in (scope, key) order; in each scope only those starting with `prefixOf(scope)`,
 * none when it gives undefined.
 */
export function* keysAfter(
  store: StoreRec,
  scopes: readonly string[],
  prefixOf: (scope: string) => string | undefined,
  after?: [string, string],
): Generator<[string, string]> {
  for (let s = after ? lowerBound(scopes, after[0]) : 0; s < scopes.length; s++) {
    const scope = scopes[s];
    const prefix = prefixOf(scope);
    const keys = store.scopes.get(scope)?.keys;
    if (prefix === undefined || !keys) continue;
    const resume = after !== undefined && after[0] === scope && compareKeys(after[1], prefix) >= 0;
    let i = lowerBound(keys, resume ? after[1] : prefix);
    if (resume && keys[i] === after[1]) i++;
    for (; i < keys.length && keys[i].startsWith(prefix); i++) yield [scope, keys[i]];
  }
}

/** JSON with every non-ASCII character escaped, so it can go out in a v1 header unchanged. */
export const asciiJson = (v: unknown): string =>
  JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
