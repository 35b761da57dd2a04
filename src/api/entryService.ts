// One way for the editor to reach standard data stores, whichever API the connection speaks: v1 (client.datastores)
// or cloud v2 (client.datastoresV2). What only v2 can do (snapshots, deleting and undeleting stores) is an
// UnsupportedError on v1; a name v2 cannot carry in a path (a key with `/`) goes through v1 on a v2 connection.
// Conditional writes (matchVersion, exclusiveCreate) stay on client.datastores whatever the version (docs/SERVICE.md,
// "Cloud v2 differences"; U3), so this offers none.
import type { OpenApiClient } from './client';
import type { Entry, EntryKey } from './datastores';
import type { DataStoreSummary, ListEntriesV2Args, Snapshot } from './datastoresV2Wire';
import { NeedsV1Error, UnsupportedError } from './errors';
import type { CallOptions } from './http';
import { pagePromise, type Page, type PagePromise } from './paging';
import { entryAt, type EntryAddress } from './timeMachine/at';

export type ApiVersion = 'v1' | 'v2';

export interface ListStoresOptions {
  prefix?: string;
  /** v2 only: include stores deleted and not yet purged. */
  showDeleted?: boolean;
  limit?: number;
  cursor?: string;
}

export interface EntryService {
  readonly apiVersion: ApiVersion;
  /**
   * The entry as it was at `time`; undefined when the key did not exist or was deleted then. v1 needs two requests
   * (the version in effect, then its value), v2 one.
   */
  entryAt(address: EntryAddress, time: Date, opts?: CallOptions): Promise<Entry | undefined>;
  /** With each store's state; v1 never lists deleted stores, so there every store is active. */
  listStores(
    universeId: number | string,
    options?: ListStoresOptions,
    opts?: CallOptions,
  ): PagePromise<DataStoreSummary>;
  snapshot(universeId: number | string, opts?: CallOptions): Promise<Snapshot>;
  deleteStore(universeId: number | string, datastoreName: string, opts?: CallOptions): Promise<DataStoreSummary>;
  undeleteStore(universeId: number | string, datastoreName: string, opts?: CallOptions): Promise<DataStoreSummary>;
  /** v1 lists deleted keys whatever `showDeleted` says. */
  listKeys(args: ListEntriesV2Args, opts?: CallOptions): PagePromise<EntryKey>;
}

export function entryService(client: OpenApiClient, apiVersion: ApiVersion): EntryService {
  return apiVersion === 'v2' ? new V2EntryService(client) : new V1EntryService(client);
}

function v2Only(what: string): Promise<never> {
  return Promise.reject(
    new UnsupportedError(`${what} needs the v2 data stores API; this connection uses v1. Switch it to v2.`),
  );
}

export class V1EntryService implements EntryService {
  readonly apiVersion = 'v1';

  constructor(private readonly client: OpenApiClient) {}

  entryAt(address: EntryAddress, time: Date, opts: CallOptions = {}): Promise<Entry | undefined> {
    return entryAt(this.client, address, time, opts);
  }

  listStores(
    universeId: number | string,
    options: ListStoresOptions = {},
    opts: CallOptions = {},
  ): PagePromise<DataStoreSummary> {
    return pagePromise(
      async (cursor) => {
        const page = await this.client.datastores.listDataStores(
          { universeId, prefix: options.prefix, limit: options.limit, cursor },
          opts,
        );
        const items = page.items.map((s): DataStoreSummary => ({
          name: s.name,
          createdTime: s.createdTime,
          state: 'active',
        }));
        return { items, next: page.next };
      },
      options.cursor,
      'nextPageCursor',
    );
  }

  snapshot(): Promise<Snapshot> {
    return v2Only('A snapshot');
  }

  deleteStore(): Promise<DataStoreSummary> {
    return v2Only('Deleting a data store');
  }

  undeleteStore(): Promise<DataStoreSummary> {
    return v2Only('Undeleting a data store');
  }

  listKeys(args: ListEntriesV2Args, opts: CallOptions = {}): PagePromise<EntryKey> {
    return this.client.datastores.listEntries(args, opts);
  }
}

/** A v2 call, or its v1 twin when a name needs v1 (NeedsV1Error comes before anything is sent). */
function orV1<T>(v2: Promise<T>, v1: () => Promise<T>): Promise<T> {
  return v2.catch((error: unknown) => {
    if (error instanceof NeedsV1Error) return v1();
    throw error;
  });
}

export class V2EntryService implements EntryService {
  readonly apiVersion = 'v2';
  private readonly v1: V1EntryService;

  constructor(private readonly client: OpenApiClient) {
    this.v1 = new V1EntryService(client);
  }

  entryAt(address: EntryAddress, time: Date, opts: CallOptions = {}): Promise<Entry | undefined> {
    const { universeId, datastoreName, scope, key } = address;
    return orV1(
      this.client.datastoresV2.getEntryAt({ universeId, datastoreName, scope, entryKey: key, time }, opts),
      () => this.v1.entryAt(address, time, opts),
    );
  }

  listStores(
    universeId: number | string,
    options: ListStoresOptions = {},
    opts: CallOptions = {},
  ): PagePromise<DataStoreSummary> {
    return this.client.datastoresV2.listDataStores({ universeId, ...options }, opts);
  }

  snapshot(universeId: number | string, opts: CallOptions = {}): Promise<Snapshot> {
    return this.client.datastoresV2.snapshot(universeId, opts);
  }

  deleteStore(universeId: number | string, datastoreName: string, opts: CallOptions = {}): Promise<DataStoreSummary> {
    return this.client.datastoresV2.deleteDataStore({ universeId, datastoreName }, opts);
  }

  undeleteStore(universeId: number | string, datastoreName: string, opts: CallOptions = {}): Promise<DataStoreSummary> {
    return this.client.datastoresV2.undeleteDataStore({ universeId, datastoreName }, opts);
  }

  /** Page by page, each through v1 when the store or scope name needs it (its cursors are then v1's). */
  listKeys(args: ListEntriesV2Args, opts: CallOptions = {}): PagePromise<EntryKey> {
    return pagePromise(async (cursor): Promise<Page<EntryKey>> => {
      const page = { ...args, cursor };
      return orV1(this.client.datastoresV2.listEntries(page, opts), () => this.v1.listKeys(page, opts));
    }, args.cursor);
  }
}
