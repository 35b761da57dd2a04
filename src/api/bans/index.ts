// Bans of many users: lists as moderators bring them, and durations as people write them.
export {
  describeDuration,
  DurationError,
  formatDuration,
  fromServiceDuration,
  MAX_DURATION_SECONDS,
  parseDuration,
  type DurationProblem,
} from './duration';
export {
  BAN_LIST_COLUMNS,
  MAX_DISPLAY_REASON,
  MAX_PRIVATE_REASON,
  parseBanList,
  readUserId,
  type BanList,
  type BanListProblem,
  type BanListRow,
} from './list';
export {
  countChanges,
  describeTarget,
  holds,
  isWrite,
  planBans,
  planUnbanEverywhere,
  SKIPPED_CHANGES,
  targetKey,
  type BanAction,
  type BanChange,
  type BanDefaults,
  type BanPlan,
  type BanState,
  type BanTarget,
  type PlanBansArgs,
  type UnbanEverywhereArgs,
} from './plan';
export {
  applyBans,
  UPDATES_PER_SECOND,
  USER_UPDATES_PER_MINUTE,
  type ApplyBansOptions,
  type ApplyBansResult,
  type ApplyProgress,
  type BanFailure,
  type BanJournal,
  readBanJournal,
} from './apply';
export { BAN_PLAN_FORMAT, banPlanText, BanPlanFileError, readBanPlanText, type BanPlanFile } from './planFile';
export { RUN_MATCH_MARGIN_MS, runEntries, runWindow, type RunWindow } from './runs';
