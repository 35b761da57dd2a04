// Standard data stores through cloud v2, read into the shapes v1 uses (datastores.ts), so callers need not care
// which API answered. The decisions (docs/SERVICE.md, "Cloud v2 differences"):
// - Single entries only through the scoped form `scopes/{scope}/entries/{key}`, listings through `scopes/{scope}` or
//   `scopes/-` (U7); each name percent-encoded as one segment, and a name with `/` refused with NeedsV1Error (U8).
// - Plain reads always end in `@latest` (U9); the `path` and `id` of a single-entry answer are ignored (U10).
// - No etag is ever sent (U1-U3): conditional writes stay on v1.
import { isDeepStrictEqual } from 'node:util';
import { writes, type Access } from './access';
import type { Entry, EntryArgs, EntryKey } from './datastores';
import { AlreadyExistsError, InvalidArgumentError, NotFoundError, notFoundAs, ResponseShapeError } from './errors';
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
} from './schemasV2';
import {
  contentText,
  EMPTY_BODY,
  JSON_HEADERS,
  listedKey,
  listSpec,
  MAX_PAGE,
  pageSize,
  rfc3339,
  segment,
  timeFilter,
  toEntry,
  toSummary,
  V2_BUDGET,
  writeBody,
  type CreateEntryArgs,
  type DataStoreSummary,
  type EntryRevision,
  type EntryText,
  type IncrementEntryV2Args,
  type ListDataStoresV2Args,
  type ListEntriesV2Args,
  type ListRevisionsArgs,
  type Snapshot,
  type StoreArgs,
  type UpdateEntryArgs,
} from './datastoresV2Wire';

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
        {
          method: 'DELETE',
          access: writes(args.universeId),
          path,
          retry: 'idempotent',
          signal: opts.signal,
          budget: V2_BUDGET.remove,
        },
        DataStoreV2Schema,
      ),
    );
  }

  async undeleteDataStore(args: StoreArgs, opts: CallOptions = {}): Promise<DataStoreSummary> {
    const path = `${this.storePath(args)}:undelete`;
    const access = writes(args.universeId);
    return toSummary(
      await this.post(path, access, EMPTY_BODY, 'idempotent', opts, DataStoreV2Schema, V2_BUDGET.remove),
    );
  }

  /** At most one a UTC day: a later call that day answers newSnapshotTaken false with the earlier time. */
  async snapshot(universeId: number | string, opts: CallOptions = {}): Promise<Snapshot> {
    const path = `${this.storesPath(universeId)}:snapshot`;
    // A snapshot keeps what the stores hold and changes none of it, so a read-only universe may take one.
    const { newSnapshotTaken, latestSnapshotTime } = await this.post(
      path,
      'read',
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
            access: writes(args.universeId),
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
          access: writes(args.universeId),
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
    const access = writes(args.universeId);
    return toEntry(await this.post(path, access, body, 'unapplied', opts, EntryBodySchema, V2_BUDGET.write));
  }

  /** A key that is missing or already deleted counts as deleted (U13). */
  async deleteEntry(args: EntryArgs, opts: CallOptions = {}): Promise<void> {
    const path = this.entryPath(args);
    await this.http
      .request({
        method: 'DELETE',
        access: writes(args.universeId),
        path,
        retry: 'idempotent',
        signal: opts.signal,
        budget: V2_BUDGET.remove,
      })
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
          access: 'read',
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
    return {
      text: JSON.stringify(e.value),
      version: e.revisionId,
      attributes: e.attributes,
      userIds: e.users,
      createdTime: e.createTime,
      versionCreatedTime: e.revisionCreateTime,
    };
  }

  private async readEntry(path: string, opts: CallOptions): Promise<Entry> {
    return toEntry(await this.readFields(path, opts));
  }

  private async readFields(path: string, opts: CallOptions): Promise<EntryFields> {
    const spec: RequestSpec = {
      method: 'GET',
      access: 'read',
      path,
      retry: 'idempotent',
      signal: opts.signal,
      budget: V2_BUDGET.read,
    };
    const res = await this.http.request(spec);
    return plainFields(this.http.parseJson(spec, res)) ?? this.http.parse(spec, res, EntryBodySchema);
  }

  private post<S extends Schema>(
    path: string,
    access: Access,
    body: Buffer,
    retry: Retry,
    opts: CallOptions,
    schema: S,
    budget?: string,
  ) {
    return this.http.json(
      { method: 'POST', access, path, headers: JSON_HEADERS, body, retry, signal: opts.signal, budget },
      schema,
    );
  }
}
