// The typed client of the Open API: restrictions (cloud v2), standard data stores (v1 and cloud v2), ordered data
// stores and memory stores (cloud v2) and assets (v1).
export { OpenApiClient, type ClientOptions } from './client';
export {
  AlreadyExistsError,
  ApiError,
  AuthError,
  ConflictError,
  EtagMismatchError,
  InvalidArgumentError,
  isAbort,
  NeedsV1Error,
  NetworkError,
  NotFoundError,
  notFoundAs,
  OperationFailedError,
  OperationTimeoutError,
  PermissionDeniedError,
  PreconditionFailedError,
  QuotaExceededError,
  RateLimitedError,
  ResponseShapeError,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
  UnsupportedError,
  WriteRefusedError,
} from './errors';
export { ASSETS, writes, type Access, type WriteGuard, type WriteTarget } from './access';
export {
  describeHeader,
  exportDataStore,
  failuresFileFor,
  importDataStore,
  ImportStoppedError,
  listAhead,
  orderedMap,
  parseHeaderLine,
  planImport,
  Scheduler,
  StoppedError,
  type BulkOptions,
  type ExportArgs,
  type ExportCounts,
  type ExportHeader,
  type ExportResult,
  type ImportAction,
  type ImportArgs,
  type ImportCounts,
  type ImportMode,
  type ImportPlan,
  type ImportPlanAction,
  type ImportPlanCounts,
  type ImportPlanStore,
  type ImportResult,
  type ListAheadOptions,
  type SchedulerOptions,
} from './bulk';
export { MEDIA_TYPES, assetTypesFor, mediaTypeFor } from './assets';
export type {
  AssetFile,
  AssetType,
  AssetsApi,
  CreateAssetRequest,
  Creator,
  UpdateAssetRequest,
  WaitOptions,
} from './assets';
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
export type { DataStoresV2Api } from './datastoresV2';
export type {
  CreateEntryArgs,
  DataStoreSummary,
  EntryContent,
  EntryMetadataV2Input,
  EntryRevision,
  IncrementEntryV2Args,
  ListDataStoresV2Args,
  ListEntriesV2Args,
  ListRevisionsArgs,
  Snapshot,
  StoreArgs,
  UpdateEntryArgs,
} from './datastoresV2Wire';
export {
  entryService,
  V1EntryService,
  V2EntryService,
  type ApiVersion,
  type EntryService,
  type ListStoresOptions,
} from './entryService';
export {
  MAX_ORDERED_KEY_BYTES,
  MAX_ORDERED_PAGE,
  type IncrementOrderedEntryArgs,
  type ListOrderedEntriesArgs,
  type OrderedDataStoresApi,
  type OrderedEntry,
  type OrderedEntryArgs,
  type OrderedStoreArgs,
  type SetOrderedEntryArgs,
  type UpdateOrderedEntryArgs,
} from './ordered';
export {
  MAX_SORTED_MAP_PAGE,
  type DeleteSortedMapItemArgs,
  type ListSortedMapArgs,
  type SortedMapArgs,
  type SortedMapBound,
  type SortedMapItemArgs,
  type SortedMapsApi,
  type UpdateSortedMapItemArgs,
  type WriteSortedMapItemArgs,
} from './memoryMaps';
export {
  MAX_QUEUE_READ,
  type AddQueueItemArgs,
  type DiscardQueueItemsArgs,
  type QueueArgs,
  type QueueRead,
  type QueuesApi,
  type ReadQueueArgs,
} from './memoryQueues';
export type {
  FlushArgs,
  FlushOperationArgs,
  FlushWaitOptions,
  MemoryStoresApi,
  MemoryStoreScope,
} from './memoryStores';
export { MAX_SECONDS as MAX_MEMORY_STORE_SECONDS, type MemoryStoreArgs } from './memoryWire';
export type { MemoryOperation, QueueItem, SortedMapItem } from './schemasMemory';
export { MAX_BODY_BYTES, type CallOptions, type LogEvent, type RateLimit, type RetryOptions } from './http';
export { MAX_ENTRY_BYTES } from './datastores';
export type { Page, PagePromise } from './paging';
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
export * from './timeMachine';
export * from './bans';
