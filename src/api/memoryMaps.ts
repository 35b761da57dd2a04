// Memory store sorted maps through cloud v2 (open-api-ordered-memory.md §3, decisions of §9): items under keys, each
// with a JSON value, an optional sort key, an etag and a time to live. Every write sends the ttl and the sort key (a
// write that leaves them out resets and clears them, U6, U7); a conditional write or delete carries the etag (the
// body's `etag` field on Update, `?etag=` on Delete, U11). Reads are repeated like every read; Delete always (a
// missing item counts as deleted); Update only when the service says it did not apply an attempt; Create never.
// A 429 is the universe's quota (QuotaExceededError).
import { writes } from './access';
import {
  AlreadyExistsError,
  ConflictError,
  EtagMismatchError,
  InvalidArgumentError,
  notFoundAs,
  PreconditionFailedError,
} from './errors';
import { type CallOptions, type RequestSpec, type Transport } from './http';
import {
  asQuotaExceeded,
  duration,
  finite,
  jsonText,
  MEMORY_BUDGET,
  memoryPath,
  nameSegment,
  type MemoryStoreArgs,
} from './memoryWire';
import { pagePromise, type PagePromise } from './paging';
import { sortedMapItemFor, SortedMapListSchema, type SortedMapItem } from './schemasMemory';

export interface SortedMapArgs extends MemoryStoreArgs {
  mapName: string;
}

export interface SortedMapItemArgs extends SortedMapArgs {
  key: string;
}

/** An exclusive bound of a listing: past a sort key, past a key, or past both as one position (U8). */
export interface SortedMapBound {
  key?: string;
  sortKey?: number | string;
}

export interface ListSortedMapArgs extends SortedMapArgs {
  /** Map order (numeric sort keys, then string ones, then none; by key within each), or its reverse. */
  order?: 'asc' | 'desc';
  /** Only items after this position. */
  after?: SortedMapBound;
  /** Only items before this position. */
  before?: SortedMapBound;
  /** Page size, 1 to 100; default 100 (the service's is 1). */
  limit?: number;
  cursor?: string;
}

export interface WriteSortedMapItemArgs extends SortedMapItemArgs {
  /** Any JSON value but null. */
  value: unknown;
  /** Left out: the item has none (an update clears the one it had). */
  sortKey?: number | string;
  /** Whole seconds, 1 to 45 days; sent on every write (U6, U7). */
  ttlSeconds: number;
}

export interface UpdateSortedMapItemArgs extends WriteSortedMapItemArgs {
  /** Create the item when it is missing. */
  allowMissing?: boolean;
  /** Write only if the item still has this etag, else EtagMismatchError. */
  etag?: string;
}

export interface DeleteSortedMapItemArgs extends SortedMapItemArgs {
  /** Delete only if the item still has this etag, else EtagMismatchError. */
  etag?: string;
}

export const MAX_SORTED_MAP_PAGE = 100;

/** `"…"` with `"` and `\` escaped, or a bare number. */
function literal(v: number | string, what: string): string {
  return typeof v === 'string' ? `"${v.replace(/[\\"]/g, '\\$&')}"` : String(finite(v, what));
}

/** One lower and one upper bound per field (U8): `id > "a" && sortKey > 1 && id < "z"`. */
function boundsFilter(after?: SortedMapBound, before?: SortedMapBound): string | undefined {
  const parts: string[] = [];
  for (const [bound, op] of [
    [after, '>'],
    [before, '<'],
  ] as const) {
    if (bound?.key !== undefined) parts.push(`id ${op} ${literal(bound.key, 'key bound')}`);
    if (bound?.sortKey !== undefined) parts.push(`sortKey ${op} ${literal(bound.sortKey, 'sort key bound')}`);
  }
  return parts.join(' && ') || undefined;
}

/** A write's body: value, ttl, the sort key in the field of its kind, and the etag of a conditional update. */
function writeBody(args: WriteSortedMapItemArgs & { etag?: string }): Buffer {
  const fields = [`"value":${jsonText(args.value, 'value')}`, `"ttl":"${duration(args.ttlSeconds, 'time to live')}"`];
  if (typeof args.sortKey === 'string') fields.push(`"stringSortKey":${JSON.stringify(args.sortKey)}`);
  else if (args.sortKey !== undefined) fields.push(`"numericSortKey":${finite(args.sortKey, 'sort key')}`);
  if (args.etag !== undefined) fields.push(`"etag":${JSON.stringify(args.etag)}`);
  return Buffer.from(`{${fields.join(',')}}`, 'utf8');
}

const JSON_HEADERS = { 'content-type': 'application/json' };

export class SortedMapsApi {
  constructor(private readonly http: Transport) {}

  private itemsPath(args: SortedMapArgs): string {
    return memoryPath(
      args.universeId,
      `memory-store/sorted-maps/${nameSegment(args.mapName, 'sorted map name')}/items`,
    );
  }

  private itemPath(args: SortedMapItemArgs): string {
    return `${this.itemsPath(args)}/${nameSegment(args.key, 'item key')}`;
  }

  /** Items in map order, a page at a time; iterated with `for await`, every item of every page. */
  listItems(args: ListSortedMapArgs, opts: CallOptions = {}): PagePromise<SortedMapItem> {
    return pagePromise(async (pageToken) => {
      const limit = args.limit ?? MAX_SORTED_MAP_PAGE;
      const query = {
        maxPageSize: Math.min(MAX_SORTED_MAP_PAGE, Math.max(1, Math.floor(limit) || 1)),
        pageToken,
        orderBy: args.order === 'desc' ? 'id desc' : undefined,
        filter: boundsFilter(args.after, args.before),
      };
      const spec: RequestSpec = {
        method: 'GET',
        access: 'read',
        path: this.itemsPath(args),
        query,
        retry: 'idempotent',
        signal: opts.signal,
        budget: MEMORY_BUDGET,
      };
      const page = await this.http.json(spec, SortedMapListSchema).catch(asQuotaExceeded);
      return { items: page.items, next: page.nextPageToken };
    }, args.cursor);
  }

  /** NotFoundError when the item is missing or has expired. */
  async getItem(args: SortedMapItemArgs, opts: CallOptions = {}): Promise<SortedMapItem> {
    const spec: RequestSpec = {
      method: 'GET',
      access: 'read',
      path: this.itemPath(args),
      retry: 'idempotent',
      signal: opts.signal,
      budget: MEMORY_BUDGET,
    };
    return this.item(spec, args.key);
  }

  /**
   * Creates the item, failing with AlreadyExistsError when the key is there: the service answers 409 or 400 then
   * (U10), so on either the item is read first. Never repeated.
   */
  async createItem(args: WriteSortedMapItemArgs, opts: CallOptions = {}): Promise<SortedMapItem> {
    const path = this.itemsPath(args);
    nameSegment(args.key, 'item key');
    const spec: RequestSpec = {
      method: 'POST',
      access: writes(args.universeId),
      path,
      query: { id: args.key },
      headers: JSON_HEADERS,
      body: writeBody(args),
      retry: 'never',
      signal: opts.signal,
      budget: MEMORY_BUDGET,
    };
    try {
      return await this.item(spec, args.key);
    } catch (error) {
      if (!(error instanceof ConflictError || error instanceof InvalidArgumentError)) throw error;
      if (!(await this.current(args, opts))) throw error;
      throw new AlreadyExistsError(`The item already exists. (${error.status}${error.code ? ` ${error.code}` : ''})`, {
        status: error.status,
        code: error.code,
        details: error.details,
      });
    }
  }

  /**
   * Replaces the item: value, sort key and ttl. NotFoundError when it is missing (unless allowMissing);
   * EtagMismatchError when `etag` no longer matches.
   */
  async updateItem(args: UpdateSortedMapItemArgs, opts: CallOptions = {}): Promise<SortedMapItem> {
    const spec: RequestSpec = {
      method: 'PATCH',
      access: writes(args.universeId),
      path: this.itemPath(args),
      query: { allowMissing: args.allowMissing || undefined },
      headers: JSON_HEADERS,
      body: writeBody(args),
      retry: 'unapplied',
      signal: opts.signal,
      budget: MEMORY_BUDGET,
    };
    return this.item(spec, args.key).catch((error: unknown) => this.conflict(error, args, opts));
  }

  /** A missing item counts as deleted (U11); EtagMismatchError when `etag` no longer matches. */
  async deleteItem(args: DeleteSortedMapItemArgs, opts: CallOptions = {}): Promise<void> {
    await this.http
      .request({
        method: 'DELETE',
        access: writes(args.universeId),
        path: this.itemPath(args),
        query: { etag: args.etag },
        retry: 'idempotent',
        signal: opts.signal,
        budget: MEMORY_BUDGET,
      })
      .catch(notFoundAs(undefined))
      .catch(asQuotaExceeded)
      .catch((error: unknown) => this.conflict(error, args, opts));
  }

  private item(spec: RequestSpec, key: string): Promise<SortedMapItem> {
    return this.http.json(spec, sortedMapItemFor(key)).catch(asQuotaExceeded);
  }

  /** The item as it is now; undefined when it is missing or cannot be read (the first failure says more). */
  private current(args: SortedMapItemArgs, opts: CallOptions): Promise<SortedMapItem | undefined> {
    return this.getItem(args, opts).catch((e: unknown) => {
      if (opts.signal?.aborted) throw e;
      return undefined;
    });
  }

  /** A 409 or 412 of a conditional write becomes EtagMismatchError with the item re-read; the rest as they are. */
  private async conflict(
    error: unknown,
    args: SortedMapItemArgs & { etag?: string },
    opts: CallOptions,
  ): Promise<never> {
    if (args.etag === undefined || !(error instanceof ConflictError || error instanceof PreconditionFailedError)) {
      throw error;
    }
    const mismatch = new EtagMismatchError(
      'The item changed since it was read (its etag no longer matches): read it again, then decide. ' +
        `(${error.status}${error.code ? ` ${error.code}` : ''})`,
      { status: error.status, code: error.code, details: error.details },
    );
    mismatch.afterLostAnswer = error.afterLostAnswer;
    mismatch.current = await this.current(args, opts);
    throw mismatch;
  }
}
