// Bulk work on data stores: export and import through one rate-limit-aware scheduler.
export { exportDataStore, type ExportArgs, type ExportCounts, type ExportResult } from './export';
export {
  failuresFileFor,
  importDataStore,
  type ImportArgs,
  type ImportCounts,
  type ImportMode,
  type ImportResult,
} from './import';
export type { BulkOptions } from './progress';
export { orderedMap, Scheduler, type SchedulerOptions } from './scheduler';
