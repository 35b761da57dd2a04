// The typed client of the Open API: restrictions (cloud v2), standard data stores (v1) and assets (v1).
import { AssetsApi } from './assets';
import { DataStoresApi } from './datastores';
import { Transport, type RateLimit, type TransportOptions } from './http';
import { RestrictionsApi } from './restrictions';

export type ClientOptions = TransportOptions;

export class OpenApiClient {
  readonly restrictions: RestrictionsApi;
  readonly datastores: DataStoresApi;
  readonly assets: AssetsApi;
  private readonly http: Transport;

  constructor(options: ClientOptions) {
    this.http = new Transport(options);
    this.restrictions = new RestrictionsApi(this.http);
    this.datastores = new DataStoresApi(this.http);
    this.assets = new AssetsApi(this.http);
  }

  /** The latest x-ratelimit-* figures seen on any response. */
  get rateLimit(): RateLimit | undefined {
    return this.http.rateLimit;
  }

  /** Releases the keep-alive connections. */
  close(): Promise<void> {
    return this.http.close();
  }
}

export {
  ApiError,
  AuthError,
  ConflictError,
  InvalidArgumentError,
  NetworkError,
  NotFoundError,
  OperationFailedError,
  OperationTimeoutError,
  PermissionDeniedError,
  PreconditionFailedError,
  RateLimitedError,
  ResponseShapeError,
  ServerError,
  TimeoutError,
} from './errors';
export {
  exportDataStore,
  failuresFileFor,
  importDataStore,
  orderedMap,
  Scheduler,
  type BulkOptions,
  type ExportArgs,
  type ExportCounts,
  type ExportResult,
  type ImportArgs,
  type ImportCounts,
  type ImportMode,
  type ImportResult,
  type SchedulerOptions,
} from './bulk';
export { MEDIA_TYPES, assetTypesFor, mediaTypeFor } from './assets';
export type { AssetFile, AssetType, AssetsApi, CreateAssetRequest, Creator, UpdateAssetRequest, WaitOptions } from './assets';
export type {
  DataStoresApi,
  Entry,
  EntryArgs,
  EntryKey,
  IncrementEntryArgs,
  ListDataStoresArgs,
  ListEntriesArgs,
  ListEntryVersionsArgs,
  SetEntryArgs,
} from './datastores';
export type { CallOptions, LogEvent, RateLimit, RetryOptions } from './http';
export type {
  GameJoinRestrictionInput,
  IdempotencyKey,
  ListLogsArgs,
  ListRestrictionsArgs,
  RestrictionsApi,
  UpdateRestrictionArgs,
} from './restrictions';
export type {
  Asset,
  AssetVersion,
  DataStore,
  EntryMetadata,
  EntryVersion,
  GameJoinRestriction,
  Operation,
  OperationStatus,
  RestrictionLog,
  UserRestriction,
} from './schemas';
