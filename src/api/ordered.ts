// Ordered data stores through cloud v2 (open-api-ordered-memory.md §2, decisions of §9): whole-number values under
// keys of one scope, listed by value, with no versions, metadata or etags. Reads are repeated like every read; of the
// writes, Delete always (a missing key counts as deleted, U21), Update only when the service says it did not apply an
// attempt (a blind repeat could undo another writer's change), Create and Increment never (a repeat could create
// twice, or add twice).
import { writes } from './access';
import { AlreadyExistsError, InvalidArgumentError, notFoundAs } from './errors';
import { jsonBody, seg, type CallOptions, type RequestSpec, type Transport } from './http';
import { pagePromise, type PagePromise } from './paging';
import { OrderedEntrySchema, OrderedListSchema } from './schemasMemory';

export interface OrderedStoreArgs {
  universeId: number | string;
  datastoreName: string;
  /** Default `global`; ordered stores have no "every scope". */
  scope?: string;
}

export interface OrderedEntryArgs extends OrderedStoreArgs {
  entryKey: string;
}

export interface OrderedEntry {
  key: string;
  value: number;
}

export interface ListOrderedEntriesArgs extends OrderedStoreArgs {
  /** By value; default ascending. Ties come in no promised order (U23). */
  order?: 'asc' | 'desc';
  /** Only values from `min` to `max`, both inclusive. */
  min?: number;
  max?: number;
  /** Page size, 1 to 100; default 100 (the service's is 10). */
  limit?: number;
  cursor?: string;
}

export interface SetOrderedEntryArgs extends OrderedEntryArgs {
  value: number;
}

/** `allowMissing`: create the key when it is missing. */
export interface UpdateOrderedEntryArgs extends SetOrderedEntryArgs {
  allowMissing?: boolean;
}

export interface IncrementOrderedEntryArgs extends OrderedEntryArgs {
  amount: number;
}

/** The budgets ordered stores count apart, shared with game servers (§2.6). */
export const ORDERED_BUDGET = {
  read: 'ordered-read',
  write: 'ordered-write',
  list: 'ordered-list',
  remove: 'ordered-remove',
} as const;

export const MAX_ORDERED_PAGE = 100;
/** The engine's limit, the stricter of the two documented (U20). */
export const MAX_ORDERED_KEY_BYTES = 50;

/** A value the service keeps exactly: a whole number a double holds (U19, U22). */
function whole(n: number, what: string): number {
  if (!Number.isSafeInteger(n)) {
    throw new RangeError(`The ${what} must be a whole number from -(2^53 - 1) to 2^53 - 1, got ${n}`);
  }
  return n;
}

function keySegment(key: string): string {
  const bytes = Buffer.byteLength(key, 'utf8');
  if (bytes < 1 || bytes > MAX_ORDERED_KEY_BYTES) {
    throw new RangeError(
      `An ordered data store key must be 1 to ${MAX_ORDERED_KEY_BYTES} bytes of UTF-8, got ${bytes}`,
    );
  }
  return seg(key);
}

/** `entry >= min && entry <= max`, tokens one space apart (§2.4). */
function valueFilter(min: number | undefined, max: number | undefined): string | undefined {
  if (min !== undefined && max !== undefined && whole(max, 'highest value') < whole(min, 'lowest value')) {
    throw new RangeError(`The highest value (${max}) is below the lowest (${min})`);
  }
  const parts = [];
  if (min !== undefined) parts.push(`entry >= ${whole(min, 'lowest value')}`);
  if (max !== undefined) parts.push(`entry <= ${whole(max, 'highest value')}`);
  return parts.join(' && ') || undefined;
}

function pageSize(limit: number | undefined): number {
  return Math.min(MAX_ORDERED_PAGE, Math.max(1, Math.floor(limit ?? MAX_ORDERED_PAGE) || 1));
}

export class OrderedDataStoresApi {
  constructor(private readonly http: Transport) {}

  private entriesPath(args: OrderedStoreArgs): string {
    if (args.datastoreName === '') throw new TypeError('The ordered data store name is empty');
    const store = `ordered-data-stores/${seg(args.datastoreName)}/scopes/${seg(args.scope || 'global')}`;
    return `/cloud/v2/universes/${seg(args.universeId)}/${store}/entries`;
  }

  private entryPath(args: OrderedEntryArgs): string {
    return `${this.entriesPath(args)}/${keySegment(args.entryKey)}`;
  }

  /** Entries by value, a page at a time; iterated with `for await`, every entry of every page. */
  listEntries(args: ListOrderedEntriesArgs, opts: CallOptions = {}): PagePromise<OrderedEntry> {
    return pagePromise(async (pageToken) => {
      const query = {
        maxPageSize: pageSize(args.limit),
        pageToken,
        orderBy: args.order === 'desc' ? 'value desc' : undefined,
        filter: valueFilter(args.min, args.max),
      };
      const page = await this.http.json(
        {
          method: 'GET',
          access: 'read',
          path: this.entriesPath(args),
          query,
          retry: 'idempotent',
          signal: opts.signal,
          budget: ORDERED_BUDGET.list,
        },
        OrderedListSchema,
      );
      return {
        items: page.orderedDataStoreEntries.map((e) => ({ key: e.id, value: e.value })),
        next: page.nextPageToken,
      };
    }, args.cursor);
  }

  /** NotFoundError when the key is missing. */
  async getEntry(args: OrderedEntryArgs, opts: CallOptions = {}): Promise<OrderedEntry> {
    const spec: RequestSpec = {
      method: 'GET',
      access: 'read',
      path: this.entryPath(args),
      retry: 'idempotent',
      signal: opts.signal,
      budget: ORDERED_BUDGET.read,
    };
    return this.entry(spec, args.entryKey);
  }

  /**
   * Creates the key, failing if it exists: the service answers 400 then, so on a 400 the key is read, and
   * AlreadyExistsError is thrown when it is there. Never repeated.
   */
  async createEntry(args: SetOrderedEntryArgs, opts: CallOptions = {}): Promise<OrderedEntry> {
    const path = this.entriesPath(args);
    keySegment(args.entryKey); // the key goes in the query, checked as a path key is
    const spec: RequestSpec = {
      method: 'POST',
      access: writes(args.universeId),
      path,
      query: { id: args.entryKey },
      ...jsonBody({ value: whole(args.value, 'value') }),
      retry: 'never',
      signal: opts.signal,
      budget: ORDERED_BUDGET.write,
    };
    try {
      return await this.entry(spec, args.entryKey);
    } catch (error) {
      if (!(error instanceof InvalidArgumentError)) throw error;
      const there = await this.getEntry(args, opts).then(
        () => true,
        (e: unknown) => {
          if (opts.signal?.aborted) throw e;
          return false; // not there, or not readable: the service's own message says more
        },
      );
      if (!there) throw error;
      throw new AlreadyExistsError(`The entry already exists. (${error.status}${error.code ? ` ${error.code}` : ''})`, {
        status: error.status,
        code: error.code,
        details: error.details,
      });
    }
  }

  /** Sets the value; with allowMissing a missing key is created, else NotFoundError. */
  async updateEntry(args: UpdateOrderedEntryArgs, opts: CallOptions = {}): Promise<OrderedEntry> {
    return this.entry(
      {
        method: 'PATCH',
        access: writes(args.universeId),
        path: this.entryPath(args),
        query: { allowMissing: args.allowMissing || undefined },
        ...jsonBody({ value: whole(args.value, 'value') }),
        retry: 'unapplied',
        signal: opts.signal,
        budget: ORDERED_BUDGET.write,
      },
      args.entryKey,
    );
  }

  /** Adds `amount` (a missing key is created holding it) and gives the new value. Never repeated. */
  async incrementEntry(args: IncrementOrderedEntryArgs, opts: CallOptions = {}): Promise<OrderedEntry> {
    return this.entry(
      {
        method: 'POST',
        access: writes(args.universeId),
        path: `${this.entryPath(args)}:increment`,
        ...jsonBody({ amount: whole(args.amount, 'amount') }),
        retry: 'never',
        signal: opts.signal,
        budget: ORDERED_BUDGET.write,
      },
      args.entryKey,
    );
  }

  /** Deletes at once, with no way back; a missing key counts as deleted (U21). */
  async deleteEntry(args: OrderedEntryArgs, opts: CallOptions = {}): Promise<void> {
    await this.http
      .request({
        method: 'DELETE',
        access: writes(args.universeId),
        path: this.entryPath(args),
        retry: 'idempotent',
        signal: opts.signal,
        budget: ORDERED_BUDGET.remove,
      })
      .catch(notFoundAs(undefined));
  }

  private async entry(spec: RequestSpec, key: string): Promise<OrderedEntry> {
    const body = await this.http.json(spec, OrderedEntrySchema);
    return { key: body.id ?? key, value: body.value };
  }
}
