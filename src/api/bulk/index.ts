// Bulk work on data stores: export and import through one rate-limit-aware scheduler.
export { exportDataStore, type ExportArgs, type ExportCounts, type ExportResult } from './export';
export {
  importDataStore,
  ImportStoppedError,
  type ImportArgs,
  type ImportCounts,
  type ImportMode,
  type ImportResult,
} from './import';
export { failuresFileFor, type ExportHeader } from './ndjson';
export { StoppedError, type BulkOptions } from './progress';
export { orderedMap, Scheduler, type SchedulerOptions } from './scheduler';
