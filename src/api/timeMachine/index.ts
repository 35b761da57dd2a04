// The data-store time machine: an entry or a store as it was at a moment, and what changed since.
export { entryAt, newestVersions, readVersion, versionAt, type EntryAddress, type EntryAt } from './at';
export {
  changedKeys,
  compareWithTime,
  formatComparisonLine,
  statusOf,
  writeComparison,
  type CompareCounts,
  type CompareOptions,
  type CompareSelection,
  type CompareStatus,
  type CompareSummary,
  type KeyComparison,
} from './compare';
export {
  compareStores,
  type CompareSide,
  type CompareStoresOptions,
  type Difference,
  type FileSide,
  type LiveSide,
  type SideEntry,
  type StoresComparison,
  type StoresCounts,
  type StoresStatus,
  type StoresSummary,
} from './compareStores';
export { planCopy, type CopyOptions, type CopyPlanSummary } from './copy';
export {
  keyNamesUser,
  planErase,
  playerTie,
  type EraseLeftOut,
  type EraseLeftReason,
  type EraseOptions,
  type ErasePlanSummary,
  type EraseProgress,
  type EraseStore,
  type PlayerTie,
} from './erase';
export {
  eraseReceipt,
  type EraseReceipt,
  type EraseRemains,
  type ErasePlanned,
  type EraseStep,
  type ErasedKey,
  type EraseFailedKey,
  type NotErasedKey,
  type PutBackKey,
  type EraseReceiptOptions,
} from './eraseReceipt';
export {
  canonicalJson,
  fieldHistory,
  formatFieldPath,
  parseFieldPath,
  valueAtPath,
  type FieldChange,
  type FieldHistoryOptions,
  type FieldPath,
} from './fieldHistory';
export {
  checkMoment,
  KEEP_DAYS,
  MOMENT_PRESETS,
  momentBefore,
  parseMoment,
  readMoment,
  restorableSince,
  RETENTION_NOTE,
  type MomentForm,
  type MomentOptions,
} from './moment';
export { ratePerMinute } from '../rateLimit';
export { DEFAULT_RESTORE_RATE, estimateMs, type RestoreRate } from './restoreEstimate';
export {
  auditFileFor,
  bytesOf,
  objectLines,
  planActions as readPlanActions,
  putBackPlanFileFor,
  readAudit,
  readAuditHeader,
  readPlanHeader,
  recordOf,
  restoreFailuresFileFor,
  skippedFileFor,
  undoPlanFileFor,
  undoRecordOf,
  type AuditLine,
  type RestoreAction,
  type RestoreActionKind,
  type RestoreAuditHeader,
  type RestorePlanHeader,
  type SkippedKey,
  type SkipReason,
  type ValueRecord,
} from './restoreFormat';
export { planRestore, startPlanFile, writePlan, type PlanOptions, type RestorePlanSummary } from './restorePlan';
export { RestoreStoppedError, runRestore, type RestoreCounts, type RestoreResult } from './restoreRun';
export { planPutBack, planUndo, putBackRaced, racedDeletes, undoRestore } from './restoreUndo';
