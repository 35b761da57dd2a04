// Cloud v2 data stores on the wire: the argument and result types, the request pieces (paths, filters, page sizes,
// write bodies) and the reading of answers into the shapes v1 uses. The calls themselves are in datastoresV2.ts.
import type { Entry, EntryArgs, EntryKey, ListDataStoresArgs, ListEntriesArgs } from './datastores';
import { NeedsV1Error } from './errors';
import { seg, type CallOptions, type RequestSpec } from './http';
import type { EntryFields } from './read';
import type { DataStoreV2Body } from './schemasV2';

/** A data store as listed, with its state: v2 can delete a store and undelete it before `expireTime`. */
export interface DataStoreSummary {
  name: string;
  createdTime?: string;
  state: 'active' | 'deleted';
  /** While deleted: when the store and its entries are purged. */
  expireTime?: string;
}

/** A revision as v2 lists it: v1's EntryVersion without its size, which v2 does not report. */
export interface EntryRevision {
  version: string;
  deleted: boolean;
  /** When this revision was written. */
  createdTime: string;
  /** When the key was created. */
  objectCreatedTime?: string;
  contentLength?: undefined;
}

export interface Snapshot {
  newSnapshotTaken: boolean;
  latestSnapshotTime: string;
}

export interface StoreArgs {
  universeId: number | string;
  datastoreName: string;
}

export interface ListDataStoresV2Args extends ListDataStoresArgs {
  showDeleted?: boolean;
}

export interface ListEntriesV2Args extends ListEntriesArgs {
  showDeleted?: boolean;
}

export interface ListRevisionsArgs extends EntryArgs {
  startTime?: string;
  endTime?: string;
  limit?: number;
  cursor?: string;
}

/** Required, not optional: a v2 write that leaves users or attributes out clears them on the service. */
export interface EntryMetadataV2Input {
  userIds: number[];
  attributes: Record<string, unknown>;
}

/** The value to write: `value` as JSON, or `raw` JSON text sent as it is. */
export type EntryContent = { value: unknown; raw?: undefined } | { raw: string | Buffer; value?: undefined };

export type CreateEntryArgs = EntryArgs & EntryMetadataV2Input & EntryContent;

/** `allowMissing`: create the key if it is missing (or restore it if it is deleted). */
export type UpdateEntryArgs = CreateEntryArgs & { allowMissing?: boolean };

export interface IncrementEntryV2Args extends EntryArgs, EntryMetadataV2Input {
  amount: number;
}

/** The rate budgets v2 counts apart (docs/SERVICE.md, "Rate limits"): what the scheduler paces each request by. */
export const V2_BUDGET = { read: 'v2-read', write: 'v2-write', list: 'v2-list', remove: 'v2-remove' } as const;

export const MAX_PAGE = { stores: 100, entries: 256, revisions: 100 };
export const JSON_HEADERS = { 'content-type': 'application/json' };
export const EMPTY_BODY = Buffer.from('{}');

/** A page size the service takes: 1 to its maximum (U17). */
export function pageSize(limit: number | undefined, max: number): number | undefined {
  return limit === undefined ? undefined : Math.min(max, Math.max(1, Math.floor(limit) || 1));
}

/** `id.startsWith("…")` with `"` and `\` escaped inside the string. */
export function prefixFilter(prefix: string | undefined): string | undefined {
  return prefix ? `id.startsWith("${prefix.replace(/[\\"]/g, '\\$&')}")` : undefined;
}

export function rfc3339(time: string | Date): string {
  const d = new Date(time);
  if (Number.isNaN(d.getTime())) throw new TypeError(`Not a time: ${JSON.stringify(time)}`);
  return d.toISOString();
}

/** A page of List Data Stores or List Entries: names under a prefix, deleted ones only when asked. */
export function listSpec(
  path: string,
  max: number,
  args: { limit?: number; prefix?: string; showDeleted?: boolean },
  pageToken: string | undefined,
  opts: CallOptions,
): RequestSpec {
  return {
    method: 'GET',
    access: 'read',
    path,
    query: {
      maxPageSize: pageSize(args.limit, max),
      pageToken,
      filter: prefixFilter(args.prefix),
      showDeleted: args.showDeleted || undefined,
    },
    retry: 'idempotent',
    signal: opts.signal,
    budget: V2_BUDGET.list,
  };
}

/** Both bounds inclusive. */
export function timeFilter(start: string | undefined, end: string | undefined): string | undefined {
  const parts = [];
  if (start !== undefined) parts.push(`revision_create_time >= ${rfc3339(start)}`);
  if (end !== undefined) parts.push(`revision_create_time <= ${rfc3339(end)}`);
  return parts.join(' && ') || undefined;
}

/** A name as one path segment; one with `/` must go through v1, as must the scope `-` (v2's "every scope"). */
export function segment(name: string, what: 'data store name' | 'scope' | 'key'): string {
  if (name.includes('/')) {
    throw new NeedsV1Error(
      `The ${what} ${JSON.stringify(name)} contains "/", which the v2 data stores API cannot ` +
        'address; it must go through the v1 API.',
    );
  }
  if (what === 'scope' && name === '-') {
    throw new NeedsV1Error('The scope "-" means every scope in the v2 data stores API; it must go through the v1 API.');
  }
  return seg(name);
}

/** The JSON text of the value to write, checked to be one JSON value. */
export function contentText(content: EntryContent): string {
  if (content.raw === undefined) {
    const text = JSON.stringify(content.value);
    if (text === undefined) throw new TypeError('The value to write is not JSON (undefined or a function)');
    return text;
  }
  const text = Buffer.isBuffer(content.raw) ? content.raw.toString('utf8') : content.raw;
  try {
    JSON.parse(text);
  } catch (error) {
    throw new TypeError(`The text to write is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  return text;
}

/** A write's body: the value's text spliced in as it is (it was checked to be one JSON value). */
export function writeBody(fields: string, meta: EntryMetadataV2Input): Buffer {
  const users = JSON.stringify(meta.userIds.map((id) => `users/${id}`));
  return Buffer.from(`{${fields},"users":${users},"attributes":${JSON.stringify(meta.attributes)}}`, 'utf8');
}

/** An entry's value as compact JSON text, with what an export line holds besides (bulk reads make no Buffer). */
export interface EntryText {
  text: string;
  version: string;
  attributes: Record<string, unknown>;
  userIds: number[];
  /** When the key was created and when this revision was written, as the service wrote them. */
  createdTime?: string;
  versionCreatedTime?: string;
}

/** v2 carries the value inside JSON, so `raw` is its compact text, not the bytes a v1 writer may have stored. */
export function toEntry(body: EntryFields): Entry {
  return {
    value: body.value,
    json: true,
    raw: Buffer.from(JSON.stringify(body.value), 'utf8'),
    version: body.revisionId,
    createdTime: body.createTime,
    versionCreatedTime: body.revisionCreateTime,
    attributes: body.attributes,
    userIds: body.users,
  };
}

export function toSummary(store: DataStoreV2Body): DataStoreSummary {
  const at = store.path.indexOf('data-stores/');
  return {
    name: store.id ?? (at < 0 ? store.path : store.path.slice(at + 'data-stores/'.length)),
    createdTime: store.createTime,
    state: store.state === 'DELETED' ? 'deleted' : 'active',
    expireTime: store.expireTime,
  };
}

/**
 * A listed entry's scope and key: the key is its `id`, and with every scope listed the scope is read from the path
 * (`…/scopes/{scope}/entries/{id}`, not escaped); undefined when the path has no such form.
 */
export function listedKey(path: string, id: string | undefined, scope: string | undefined): EntryKey | undefined {
  if (id !== undefined && scope !== undefined) return { scope, key: id };
  const rest = /^universes\/[^/]+\/data-stores\/[^/]+\/scopes\/(.+)$/.exec(path)?.[1];
  const cut = rest?.indexOf('/entries/') ?? -1;
  if (rest === undefined || cut < 0) return undefined;
  const key = id ?? rest.slice(cut + '/entries/'.length);
  const tail = `/entries/${key}`;
  return rest.endsWith(tail) ? { scope: scope ?? rest.slice(0, -tail.length), key } : undefined;
}
