// The client: one transport shared by every group of calls.
import { AssetsApi } from './assets';
import { DataStoresApi } from './datastores';
import { DataStoresV2Api } from './datastoresV2';
import { Transport, type RateLimit, type TransportOptions } from './http';
import { SortedMapsApi } from './memoryMaps';
import { QueuesApi } from './memoryQueues';
import { MemoryStoresApi } from './memoryStores';
import { OrderedDataStoresApi } from './ordered';
import { RestrictionsApi } from './restrictions';

export type ClientOptions = TransportOptions;

export class OpenApiClient {
  readonly restrictions: RestrictionsApi;
  readonly datastores: DataStoresApi;
  /** The same data stores through cloud v2. */
  readonly datastoresV2: DataStoresV2Api;
  readonly assets: AssetsApi;
  readonly orderedDataStores: OrderedDataStoresApi;
  /** Memory stores: sorted maps, queues, and the flush of them all. */
  readonly sortedMaps: SortedMapsApi;
  readonly queues: QueuesApi;
  readonly memoryStores: MemoryStoresApi;
  private readonly http: Transport;

  constructor(options: ClientOptions) {
    this.http = new Transport(options);
    this.restrictions = new RestrictionsApi(this.http);
    this.datastores = new DataStoresApi(this.http);
    this.datastoresV2 = new DataStoresV2Api(this.http);
    this.assets = new AssetsApi(this.http);
    this.orderedDataStores = new OrderedDataStoresApi(this.http);
    this.sortedMaps = new SortedMapsApi(this.http);
    this.queues = new QueuesApi(this.http);
    this.memoryStores = new MemoryStoresApi(this.http);
  }

  /** The latest x-ratelimit-* figures seen on any response. */
  get rateLimit(): RateLimit | undefined {
    return this.http.rateLimit;
  }

  /** The latest figures of a rate budget (a BUDGET of datastoresV2.ts); with none, those of any response. */
  rateLimitOf(budget: string | undefined): RateLimit | undefined {
    return this.http.rateLimitOf(budget);
  }

  /** Releases the keep-alive connections. */
  close(): Promise<void> {
    return this.http.close();
  }
}
