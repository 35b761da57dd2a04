// Bulk work on data stores: export, import and the import's dry run through one rate-limit-aware scheduler.
export { exportDataStore, type ExportArgs, type ExportCounts, type ExportResult } from './export';
export {
  importDataStore,
  ImportStoppedError,
  type ImportArgs,
  type ImportCounts,
  type ImportMode,
  type ImportResult,
} from './import';
export {
  planImport,
  type ImportAction,
  type ImportPlan,
  type ImportPlanAction,
  type ImportPlanCounts,
  type ImportPlanStore,
} from './importPlan';
export { describeHeader, failuresFileFor, parseHeaderLine, type ExportHeader } from './ndjson';
export { StoppedError, type BulkOptions } from './progress';
export { listAhead, orderedMap, Scheduler, type ListAheadOptions, type SchedulerOptions } from './scheduler';
