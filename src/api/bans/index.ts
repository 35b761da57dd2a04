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
