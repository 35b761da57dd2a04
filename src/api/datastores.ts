// Standard data stores (v1): data stores, entries, entry versions.
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { NotFoundError, PreconditionFailedError } from './errors';
import { writes } from './access';
import { seg, type CallOptions, type HttpResponse, type RequestSpec, type Transport } from './http';
import { pagePromise, type PagePromise } from './paging';
import { entryMetadataFromHeaders, isJsonText, plainKeysPage, plainVersionsPage } from './read';
import {
  EntryVersionSchema,
  ListDataStoresSchema,
  ListEntriesSchema,
  ListEntryVersionsSchema,
  type DataStore,
  type EntryMetadata,
  type EntryVersion,
} from './schemas';

/**
 * An entry as read: its exact bytes, the JSON value they hold, and its metadata from the headers. Other writers may
 * have stored text that is not JSON: then `json` is false and `value` undefined, and the bytes are still there.
 */
export interface Entry extends EntryMetadata {
  value: unknown;
  json: boolean;
  raw: Buffer;
}

/** An entry's bytes and metadata, the bytes checked to be JSON but no value built from them. */
export interface EntryBytes extends EntryMetadata {
  json: boolean;
  raw: Buffer;
}

export interface EntryKey {
  scope: string;
  key: string;
}

interface UniverseArgs {
  universeId: number | string;
}

export interface ListDataStoresArgs extends UniverseArgs {
  prefix?: string;
  limit?: number;
  cursor?: string;
}

interface StoreArgs extends UniverseArgs {
  datastoreName: string;
  scope?: string;
}

export interface ListEntriesArgs extends StoreArgs {
  allScopes?: boolean;
  prefix?: string;
  cursor?: string;
  limit?: number;
}

export interface EntryArgs extends StoreArgs {
  entryKey: string;
}

export interface EntryMetadataInput {
  attributes?: Record<string, unknown>;
  userIds?: number[];
}

export interface SetEntryArgs extends EntryArgs, EntryMetadataInput {
  value?: unknown;
  /** Exact JSON bytes to send instead of `value`. */
  raw?: string | Buffer;
  matchVersion?: string;
  exclusiveCreate?: boolean;
}

export interface IncrementEntryArgs extends EntryArgs, EntryMetadataInput {
  incrementBy: number;
}

export interface ListEntryVersionsArgs extends EntryArgs {
  startTime?: string;
  endTime?: string;
  sortOrder?: 'Ascending' | 'Descending';
  limit?: number;
  cursor?: string;
}

/** The most of an entry read: a value is at most 4 MiB, with room for what a service might add. */
export const MAX_ENTRY_BYTES = 4.5 * 1024 * 1024;

/** A 204 answer to an entry read: the entry is marked as deleted. */
function notDeleted(res: HttpResponse): void {
  if (res.status === 204) throw new NotFoundError('The entry is marked as deleted. (204)', { status: 204 });
}

/** Whether an entry's bytes are JSON: checked without building the value when they are UTF-8, else parsed. */
function isJson(raw: Buffer): boolean {
  if (isUtf8(raw) && isJsonText(raw)) return true;
  try {
    JSON.parse(raw.toString('utf8')); // text that is not UTF-8 is read with replacement characters, as getEntry does
    return true;
  } catch {
    return false;
  }
}

/** The Content-MD5 of a value's bytes (a string as UTF-8), as the service reports it. */
export const contentMd5 = (body: string | Buffer): string => createHash('md5').update(body).digest('base64');

/**
 * Whether an entry (its metadata, as a 412 describes it) holds exactly a write: the same bytes (by MD5), attributes
 * and user ids. A write whose answer was lost went through when the entry holds it.
 */
export function sameWrite(current: EntryMetadata | undefined, md5: string, write: EntryMetadataInput): boolean {
  return (
    current?.contentMd5 === md5 &&
    isDeepStrictEqual(current.attributes, write.attributes ?? {}) &&
    isDeepStrictEqual(current.userIds, write.userIds ?? [])
  );
}

/** JSON for a header: non-ASCII escaped as \uXXXX so the value stays a valid header and the same JSON. */
function jsonHeaderValue(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export class DataStoresApi {
  constructor(private readonly http: Transport) {}

  private path(universeId: number | string, rest = ''): string {
    return `/datastores/v1/universes/${seg(universeId)}/standard-datastores${rest}`;
  }

  /** Queries are object literals, never spreads: a spread one costs microseconds more per call to encode. */
  private entryQuery(args: EntryArgs): Record<string, string | undefined> {
    return { datastoreName: args.datastoreName, entryKey: args.entryKey, scope: args.scope };
  }

  private metadataHeaders(args: EntryMetadataInput): Record<string, string> {
    const prefix = this.http.entryHeaderPrefix;
    return {
      ...(args.attributes === undefined ? {} : { [`${prefix}-entry-attributes`]: jsonHeaderValue(args.attributes) }),
      ...(args.userIds === undefined ? {} : { [`${prefix}-entry-userids`]: jsonHeaderValue(args.userIds) }),
    };
  }

  /**
   * Get Entry, Get Entry Version and Increment answer with the value as the body and metadata in headers. `spec`
   * sets maxBodyBytes to MAX_ENTRY_BYTES. No async frame and no spread: bulk work reads thousands of entries.
   */
  private readEntry(spec: RequestSpec): Promise<Entry> {
    return this.http.request(spec).then((res) => this.entryFrom(res));
  }

  private entryFrom(res: HttpResponse): Entry {
    notDeleted(res);
    let value: unknown;
    let json = true;
    try {
      value = JSON.parse(res.body.toString('utf8'));
    } catch {
      json = false;
    }
    const entry = this.bytesFrom(res, json) as Entry;
    entry.value = value;
    return entry;
  }

  /** An answer's bytes and the metadata its headers carry, each field set by name (no spread: see readEntry). */
  private bytesFrom(res: HttpResponse, json: boolean): EntryBytes {
    const m = entryMetadataFromHeaders(res.headers, this.http.entryHeaderPrefix);
    return {
      json,
      raw: res.body,
      version: m.version,
      createdTime: m.createdTime,
      versionCreatedTime: m.versionCreatedTime,
      attributes: m.attributes,
      userIds: m.userIds,
      contentMd5: m.contentMd5,
    };
  }

  listDataStores(args: ListDataStoresArgs, opts: CallOptions = {}): PagePromise<DataStore> {
    return pagePromise(
      async (cursor) => {
        const page = await this.http.json(
          {
            method: 'GET',
            access: 'read',
            path: this.path(args.universeId),
            query: { prefix: args.prefix, limit: args.limit, cursor },
            retry: 'idempotent',
            signal: opts.signal,
          },
          ListDataStoresSchema,
        );
        return { items: page.datastores, next: page.nextPageCursor };
      },
      args.cursor,
      'nextPageCursor',
    );
  }

  /** A key listed without its scope gets the scope asked for, or "global". */
  listEntries(args: ListEntriesArgs, opts: CallOptions = {}): PagePromise<EntryKey> {
    const defaultScope = args.scope ?? 'global';
    return pagePromise(
      (cursor) => {
        const spec: RequestSpec = {
          method: 'GET',
          access: 'read',
          path: this.path(args.universeId, '/datastore/entries'),
          query: {
            datastoreName: args.datastoreName,
            scope: args.scope,
            allScopes: args.allScopes || undefined,
            prefix: args.prefix,
            cursor,
            limit: args.limit,
          },
          retry: 'idempotent',
          signal: opts.signal,
        };
        return this.http.request(spec).then((res) => {
          const page = plainKeysPage(this.http.parseJson(spec, res), defaultScope);
          if (page) return page;
          const parsed = this.http.parse(spec, res, ListEntriesSchema);
          const items = parsed.keys.map((k) => ({ scope: k.scope ?? defaultScope, key: k.key }));
          return { items, next: parsed.nextPageCursor };
        });
      },
      args.cursor,
      'nextPageCursor',
    );
  }

  getEntry(args: EntryArgs, opts: CallOptions = {}): Promise<Entry> {
    let spec: RequestSpec;
    try {
      spec = this.getEntrySpec(args, opts);
    } catch (e) {
      return Promise.reject(e as Error); // a universe id that is not valid Unicode, as a rejection like every error
    }
    return this.readEntry(spec);
  }

  /**
   * Get Entry without building the value: its bytes, whether they are JSON, and its metadata. For bulk work that
   * passes the bytes on as they are (an export writes them into its lines).
   */
  getEntryBytes(args: EntryArgs, opts: CallOptions = {}): Promise<EntryBytes> {
    let spec: RequestSpec;
    try {
      spec = this.getEntrySpec(args, opts);
    } catch (e) {
      return Promise.reject(e as Error);
    }
    return this.http.request(spec).then((res) => {
      notDeleted(res);
      return this.bytesFrom(res, isJson(res.body));
    });
  }

  private getEntrySpec(args: EntryArgs, opts: CallOptions): RequestSpec {
    return {
      method: 'GET',
      access: 'read',
      path: this.path(args.universeId, '/datastore/entries/entry'),
      query: { datastoreName: args.datastoreName, entryKey: args.entryKey, scope: args.scope },
      retry: 'idempotent',
      maxBodyBytes: MAX_ENTRY_BYTES,
      signal: opts.signal,
    };
  }

  /**
   * Sends `raw` byte for byte when given, else JSON of `value`. Retried only with matchVersion (a repeat cannot apply
   * twice); when a retry meets a 412 whose current entry is exactly this write (same bytes and metadata), the lost
   * answer was its success, and the version the 412 describes is returned.
   */
  async setEntry(args: SetEntryArgs, opts: CallOptions = {}): Promise<EntryVersion> {
    if (args.raw === undefined && args.value === undefined) {
      throw new TypeError('setEntry needs a value or raw JSON bytes');
    }
    const body = args.raw === undefined ? Buffer.from(JSON.stringify(args.value), 'utf8') : Buffer.from(args.raw);
    const md5 = contentMd5(body);
    try {
      return await this.http.json(
        {
          method: 'POST',
          access: writes(args.universeId),
          path: this.path(args.universeId, '/datastore/entries/entry'),
          query: {
            datastoreName: args.datastoreName,
            entryKey: args.entryKey,
            scope: args.scope,
            matchVersion: args.matchVersion,
            exclusiveCreate: args.exclusiveCreate,
          },
          headers: { 'content-type': 'application/json', 'content-md5': md5, ...this.metadataHeaders(args) },
          body,
          retry: args.matchVersion === undefined ? 'never' : 'idempotent',
          signal: opts.signal,
        },
        EntryVersionSchema,
      );
    } catch (error) {
      const saved = error instanceof PreconditionFailedError && error.afterLostAnswer ? error.current : undefined;
      if (!sameWrite(saved, md5, args) || saved?.versionCreatedTime === undefined) throw error;
      return {
        version: saved.version,
        deleted: false,
        contentLength: body.length,
        createdTime: saved.versionCreatedTime,
        objectCreatedTime: saved.createdTime,
      };
    }
  }

  /** A retry that finds no entry after an attempt whose answer was lost: that attempt deleted it. */
  async deleteEntry(args: EntryArgs, opts: CallOptions = {}): Promise<void> {
    try {
      await this.http.request({
        method: 'DELETE',
        access: writes(args.universeId),
        path: this.path(args.universeId, '/datastore/entries/entry'),
        query: this.entryQuery(args),
        retry: 'idempotent',
        signal: opts.signal,
      });
    } catch (error) {
      if (!(error instanceof NotFoundError && error.afterLostAnswer)) throw error;
    }
  }

  /** Never retried: a repeat after a lost answer would add twice. */
  async incrementEntry(args: IncrementEntryArgs, opts: CallOptions = {}): Promise<Entry> {
    return this.readEntry({
      method: 'POST',
      access: writes(args.universeId),
      path: this.path(args.universeId, '/datastore/entries/entry/increment'),
      query: {
        datastoreName: args.datastoreName,
        entryKey: args.entryKey,
        scope: args.scope,
        incrementBy: args.incrementBy,
      },
      headers: this.metadataHeaders(args),
      body: Buffer.alloc(0),
      retry: 'never',
      maxBodyBytes: MAX_ENTRY_BYTES,
      signal: opts.signal,
    });
  }

  async getEntryVersion(args: EntryArgs & { versionId: string }, opts: CallOptions = {}): Promise<Entry> {
    return this.readEntry({
      method: 'GET',
      access: 'read',
      path: this.path(args.universeId, '/datastore/entries/entry/versions/version'),
      query: {
        datastoreName: args.datastoreName,
        entryKey: args.entryKey,
        scope: args.scope,
        versionId: args.versionId,
      },
      retry: 'idempotent',
      maxBodyBytes: MAX_ENTRY_BYTES,
      signal: opts.signal,
    });
  }

  listEntryVersions(args: ListEntryVersionsArgs, opts: CallOptions = {}): PagePromise<EntryVersion> {
    return pagePromise(
      (cursor) => {
        const spec = this.versionsSpec(args, cursor, opts);
        return this.http.request(spec).then((res) => this.versionsPage(spec, res));
      },
      args.cursor,
      'nextPageCursor',
    );
  }

  /**
   * The versions of one page of List Entry Versions, without the page (no next page to ask for): what the bulk
   * engines read per key, thousands of times, so without a page object or an async frame.
   */
  listEntryVersionItems(args: ListEntryVersionsArgs, opts: CallOptions = {}): Promise<EntryVersion[]> {
    try {
      const spec = this.versionsSpec(args, args.cursor, opts);
      return this.http.request(spec).then((res) => this.versionsPage(spec, res).items);
    } catch (e) {
      return Promise.reject(e as Error); // a store name that is not valid Unicode, as a rejection like every error
    }
  }

  private versionsSpec(args: ListEntryVersionsArgs, cursor: string | undefined, opts: CallOptions): RequestSpec {
    return {
      method: 'GET',
      access: 'read',
      path: this.path(args.universeId, '/datastore/entries/entry/versions'),
      query: {
        datastoreName: args.datastoreName,
        entryKey: args.entryKey,
        scope: args.scope,
        startTime: args.startTime,
        endTime: args.endTime,
        sortOrder: args.sortOrder,
        limit: args.limit,
        cursor,
      },
      retry: 'idempotent',
      signal: opts.signal,
    };
  }

  /** Checked by hand in the common case; zod reads any other shape, or names what is wrong. */
  private versionsPage(spec: RequestSpec, res: HttpResponse): { items: EntryVersion[]; next?: string } {
    const page = plainVersionsPage(this.http.parseJson(spec, res));
    if (page) return page;
    const parsed = this.http.parse(spec, res, ListEntryVersionsSchema);
    return { items: parsed.versions, next: parsed.nextPageCursor };
  }
}
