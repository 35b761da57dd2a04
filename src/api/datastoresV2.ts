// Standard data stores through cloud v2 (reference open-api-datastores-v2.md), read into the shapes v1 uses
// (datastores.ts), so callers need not care which API answered. Decisions from the reference's §5:
// - Single entries only through the scoped form `scopes/{scope}/entries/{key}`, listings through `scopes/{scope}` or
//   `scopes/-` (U7); each name percent-encoded as one segment, and a name with `/` refused with NeedsV1Error (U8).
// - Plain reads always end in `@latest` (U9); the `path` and `id` of a single-entry answer are ignored (U10).
// - No etag is ever sent (U1-U3): conditional writes stay on v1.
import { isDeepStrictEqual } from 'node:util';
import type { Entry, EntryArgs, EntryKey, ListDataStoresArgs, ListEntriesArgs } from './datastores';
import {
  AlreadyExistsError,
  InvalidArgumentError,
  NeedsV1Error,
  NotFoundError,
  notFoundAs,
  ResponseShapeError,
} from './errors';
import { seg, type CallOptions, type RequestSpec, type Retry, type Transport } from './http';
import { pagePromise, type PagePromise } from './paging';
import { plainEntriesPage, plainFields, type EntryFields } from './read';
import type { Schema } from './schemas';
import {
  DataStoreV2Schema,
  EntryBodySchema,
  ListDataStoresV2Schema,
  ListEntriesV2Schema,
  ListRevisionsSchema,
  SnapshotSchema,
  type DataStoreV2Body,
} from './schemasV2';

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

/** The rate budgets v2 counts apart (reference 4.1): what the scheduler paces each request by. */
export const V2_BUDGET = { read: 'v2-read', write: 'v2-write', list: 'v2-list', remove: 'v2-remove' } as const;

const MAX_PAGE = { stores: 100, entries: 256, revisions: 100 };
const JSON_HEADERS = { 'content-type': 'application/json' };
const EMPTY_BODY = Buffer.from('{}');

/** A page size the service takes: 1 to its maximum (U17). */
function pageSize(limit: number | undefined, max: number): number | undefined {
  return limit === undefined ? undefined : Math.min(max, Math.max(1, Math.floor(limit) || 1));
}

/** `id.startsWith("…")` with `"` and `\` escaped inside the string. */
function prefixFilter(prefix: string | undefined): string | undefined {
  return prefix ? `id.startsWith("${prefix.replace(/[\\"]/g, '\\$&')}")` : undefined;
}

function rfc3339(time: string | Date): string {
  const d = new Date(time);
  if (Number.isNaN(d.getTime())) throw new TypeError(`Not a time: ${JSON.stringify(time)}`);
  return d.toISOString();
}

/** A page of List Data Stores or List Entries: names under a prefix, deleted ones only when asked. */
function listSpec(
  path: string,
  max: number,
  args: { limit?: number; prefix?: string; showDeleted?: boolean },
  pageToken: string | undefined,
  opts: CallOptions,
): RequestSpec {
  return {
    method: 'GET',
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
function timeFilter(start: string | undefined, end: string | undefined): string | undefined {
  const parts = [];
  if (start !== undefined) parts.push(`revision_create_time >= ${rfc3339(start)}`);
  if (end !== undefined) parts.push(`revision_create_time <= ${rfc3339(end)}`);
  return parts.join(' && ') || undefined;
}

/** A name as one path segment; one with `/` must go through v1, as must the scope `-` (v2's "every scope"). */
function segment(name: string, what: 'data store name' | 'scope' | 'key'): string {
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
function contentText(content: EntryContent): string {
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
function writeBody(fields: string, meta: EntryMetadataV2Input): Buffer {
  const users = JSON.stringify(meta.userIds.map((id) => `users/${id}`));
  return Buffer.from(`{${fields},"users":${users},"attributes":${JSON.stringify(meta.attributes)}}`, 'utf8');
}

/** An entry's value as compact JSON text, with what an export line holds besides (bulk reads make no Buffer). */
export interface EntryText {
  text: string;
  version: string;
  attributes: Record<string, unknown>;
  userIds: number[];
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

function toSummary(store: DataStoreV2Body): DataStoreSummary {
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
function listedKey(path: string, id: string | undefined, scope: string | undefined): EntryKey | undefined {
  if (id !== undefined && scope !== undefined) return { scope, key: id };
  const rest = /^universes\/[^/]+\/data-stores\/[^/]+\/scopes\/(.+)$/.exec(path)?.[1];
  const cut = rest?.indexOf('/entries/') ?? -1;
  if (rest === undefined || cut < 0) return undefined;
  const key = id ?? rest.slice(cut + '/entries/'.length);
  const tail = `/entries/${key}`;
  return rest.endsWith(tail) ? { scope: scope ?? rest.slice(0, -tail.length), key } : undefined;
}

export class DataStoresV2Api {
  constructor(private readonly http: Transport) {}

  private storesPath(universeId: number | string): string {
    return `/cloud/v2/universes/${seg(universeId)}/data-stores`;
  }

  private storePath(args: StoreArgs): string {
    return `${this.storesPath(args.universeId)}/${segment(args.datastoreName, 'data store name')}`;
  }

  private entriesPath(args: StoreArgs & { scope?: string }, allScopes = false): string {
    const scope = allScopes ? '-' : segment(args.scope ?? 'global', 'scope');
    return `${this.storePath(args)}/scopes/${scope}/entries`;
  }

  private entryPath(args: EntryArgs): string {
    return `${this.entriesPath(args)}/${segment(args.entryKey, 'key')}`;
  }

  /** Without showDeleted, a page may come back empty with a token; iteration goes on through it. */
  listDataStores(args: ListDataStoresV2Args, opts: CallOptions = {}): PagePromise<DataStoreSummary> {
    return pagePromise(async (pageToken) => {
      const spec = listSpec(this.storesPath(args.universeId), MAX_PAGE.stores, args, pageToken, opts);
      const page = await this.http.json(spec, ListDataStoresV2Schema);
      return { items: page.dataStores.map(toSummary), next: page.nextPageToken };
    }, args.cursor);
  }

  /** Deleting a deleted store changes nothing, so this is repeated like a read. */
  async deleteDataStore(args: StoreArgs, opts: CallOptions = {}): Promise<DataStoreSummary> {
    const path = this.storePath(args);
    return toSummary(
      await this.http.json(
        { method: 'DELETE', path, retry: 'idempotent', signal: opts.signal, budget: V2_BUDGET.remove },
        DataStoreV2Schema,
      ),
    );
  }

  async undeleteDataStore(args: StoreArgs, opts: CallOptions = {}): Promise<DataStoreSummary> {
    const path = `${this.storePath(args)}:undelete`;
    return toSummary(await this.post(path, EMPTY_BODY, 'idempotent', opts, DataStoreV2Schema, V2_BUDGET.remove));
  }

  /** At most one a UTC day: a later call that day answers newSnapshotTaken false with the earlier time. */
  async snapshot(universeId: number | string, opts: CallOptions = {}): Promise<Snapshot> {
    const path = `${this.storesPath(universeId)}:snapshot`;
    const { newSnapshotTaken, latestSnapshotTime } = await this.post(
      path,
      EMPTY_BODY,
      'idempotent',
      opts,
      SnapshotSchema,
    );
    return { newSnapshotTaken, latestSnapshotTime };
  }

  /**
   * Creates the key, failing if it exists: the service answers 400 then (U4), so on a 400 the key is read, and
   * AlreadyExistsError is thrown when it is there. Repeated like v1's Set with matchVersion: a repeat cannot apply
   * twice, and when one after a lost answer finds exactly this write, that write is returned.
   */
  async createEntry(args: CreateEntryArgs, opts: CallOptions = {}): Promise<Entry> {
    const path = this.entriesPath(args);
    segment(args.entryKey, 'key'); // the key goes in the query, but a key v2 cannot address later is refused here too
    const text = contentText(args);
    const body = writeBody(`"value":${text}`, args);
    try {
      return toEntry(
        await this.http.json(
          {
            method: 'POST',
            path,
            query: { id: args.entryKey },
            headers: JSON_HEADERS,
            body,
            retry: 'idempotent',
            signal: opts.signal,
            budget: V2_BUDGET.write,
          },
          EntryBodySchema,
        ),
      );
    } catch (error) {
      if (!(error instanceof InvalidArgumentError)) throw error;
      const current = await this.getEntry(args, opts).catch((e: unknown) => {
        if (opts.signal?.aborted) throw e;
        return undefined; // not there, or not readable: the service's own message says more
      });
      if (!current) throw error;
      if (
        error.afterLostAnswer &&
        isDeepStrictEqual(current.value, JSON.parse(text)) &&
        isDeepStrictEqual(current.userIds, args.userIds) &&
        isDeepStrictEqual(current.attributes, args.attributes)
      ) {
        return current;
      }
      throw new AlreadyExistsError(`The entry already exists. (${error.status}${error.code ? ` ${error.code}` : ''})`, {
        status: error.status,
        code: error.code,
        details: error.details,
      });
    }
  }

  /** The latest revision; NotFoundError when the key is missing or deleted. */
  async getEntry(args: EntryArgs, opts: CallOptions = {}): Promise<Entry> {
    return this.readEntry(`${this.entryPath(args)}@latest`, opts);
  }

  /** One revision; NotFoundError when there is no such revision, also for the 400 of a malformed id (U11). */
  async getEntryRevision(args: EntryArgs & { revisionId: string }, opts: CallOptions = {}): Promise<Entry> {
    try {
      return await this.readEntry(`${this.entryPath(args)}@${seg(args.revisionId)}`, opts);
    } catch (error) {
      if (!(error instanceof InvalidArgumentError)) throw error;
      throw new NotFoundError(error.message, { status: error.status, code: error.code, details: error.details });
    }
  }

  /**
   * The revision current at `time` (sent to the millisecond, RFC 3339 allows 3 fraction digits): undefined when the
   * key did not exist or was deleted then (U12), or the service refuses the time (U11). One request.
   */
  async getEntryAt(args: EntryArgs & { time: Date }, opts: CallOptions = {}): Promise<Entry | undefined> {
    const at = rfc3339(args.time);
    return this.readEntry(`${this.entryPath(args)}@latest:${at}`, opts).catch((error: unknown) => {
      if (error instanceof NotFoundError || error instanceof InvalidArgumentError) return undefined;
      throw error;
    });
  }

  /**
   * Writes the whole entry (PATCH); with allowMissing it creates a missing key or restores a deleted one. Repeated
   * only when the service says it did not apply an attempt: a blind repeat could undo another writer's change.
   */
  async updateEntry(args: UpdateEntryArgs, opts: CallOptions = {}): Promise<Entry> {
    const path = this.entryPath(args);
    const body = writeBody(`"value":${contentText(args)}`, args);
    const query = { allowMissing: args.allowMissing };
    return toEntry(
      await this.http.json(
        {
          method: 'PATCH',
          path,
          query,
          headers: JSON_HEADERS,
          body,
          retry: 'unapplied',
          signal: opts.signal,
          budget: V2_BUDGET.write,
        },
        EntryBodySchema,
      ),
    );
  }

  /** A missing key is created with `amount`. Repeated only when not applied: a repeat would add twice. */
  async incrementEntry(args: IncrementEntryV2Args, opts: CallOptions = {}): Promise<Entry> {
    const path = `${this.entryPath(args)}:increment`;
    const body = writeBody(`"amount":${JSON.stringify(args.amount)}`, args);
    return toEntry(await this.post(path, body, 'unapplied', opts, EntryBodySchema, V2_BUDGET.write));
  }

  /** A key that is missing or already deleted counts as deleted (U13). */
  async deleteEntry(args: EntryArgs, opts: CallOptions = {}): Promise<void> {
    const path = this.entryPath(args);
    await this.http
      .request({ method: 'DELETE', path, retry: 'idempotent', signal: opts.signal, budget: V2_BUDGET.remove })
      .catch(notFoundAs(undefined));
  }

  /**
   * Keys of one scope, or of every scope with `allScopes`, each with its scope. Deleted keys only with showDeleted,
   * and then they look like the others. A page may come back empty with a token; iteration goes on through it.
   */
  listEntries(args: ListEntriesV2Args, opts: CallOptions = {}): PagePromise<EntryKey> {
    const scope = args.allScopes ? undefined : (args.scope ?? 'global');
    return pagePromise(async (pageToken) => {
      const path = this.entriesPath(args, args.allScopes);
      const spec = listSpec(path, MAX_PAGE.entries, args, pageToken, opts);
      const res = await this.http.request(spec);
      const page = plainEntriesPage(this.http.parseJson(spec, res)) ?? this.http.parse(spec, res, ListEntriesV2Schema);
      const items = page.dataStoreEntries.map((item, i) => {
        const key = listedKey(item.path, item.id, scope);
        if (key) return key;
        const field = `dataStoreEntries[${i}].path`;
        throw new ResponseShapeError(`Unexpected response from GET ${path}: ${field}: no scope and key in it`, field);
      });
      return { items, next: page.nextPageToken };
    }, args.cursor);
  }

  /** Newest first; both time bounds inclusive. */
  listRevisions(args: ListRevisionsArgs, opts: CallOptions = {}): PagePromise<EntryRevision> {
    return pagePromise(async (pageToken) => {
      const page = await this.http.json(
        {
          method: 'GET',
          path: `${this.entryPath(args)}:listRevisions`,
          query: {
            maxPageSize: pageSize(args.limit, MAX_PAGE.revisions),
            pageToken,
            filter: timeFilter(args.startTime, args.endTime),
          },
          retry: 'idempotent',
          signal: opts.signal,
          budget: V2_BUDGET.list,
        },
        ListRevisionsSchema,
      );
      const items = page.dataStoreEntries.map((r): EntryRevision => ({
        version: r.revisionId,
        deleted: r.state === 'DELETED',
        createdTime: r.revisionCreateTime,
        objectCreatedTime: r.createTime,
      }));
      return { items, next: page.nextPageToken };
    }, args.cursor);
  }

  /** The latest revision's value as compact JSON text, for bulk reads; NotFoundError when missing or deleted. */
  async getEntryText(args: EntryArgs, opts: CallOptions = {}): Promise<EntryText> {
    const e = await this.readFields(`${this.entryPath(args)}@latest`, opts);
    return { text: JSON.stringify(e.value), version: e.revisionId, attributes: e.attributes, userIds: e.users };
  }

  private async readEntry(path: string, opts: CallOptions): Promise<Entry> {
    return toEntry(await this.readFields(path, opts));
  }

  private async readFields(path: string, opts: CallOptions): Promise<EntryFields> {
    const spec: RequestSpec = { method: 'GET', path, retry: 'idempotent', signal: opts.signal, budget: V2_BUDGET.read };
    const res = await this.http.request(spec);
    return plainFields(this.http.parseJson(spec, res)) ?? this.http.parse(spec, res, EntryBodySchema);
  }

  private post<S extends Schema>(
    path: string,
    body: Buffer,
    retry: Retry,
    opts: CallOptions,
    schema: S,
    budget?: string,
  ) {
    return this.http.json(
      { method: 'POST', path, headers: JSON_HEADERS, body, retry, signal: opts.signal, budget },
      schema,
    );
  }
}
