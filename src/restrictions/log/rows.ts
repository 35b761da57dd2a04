// A restriction log entry as the panel's rows and the CSV export show it. No vscode and no DOM here.
import type { RestrictionLog } from '../../api';
import { toCsv, type CsvValue } from '../../core/csv';
import { describeDuration } from '../../core/duration';
import { t } from '../../core/text';
import { logActions, type LogAction } from './action';
import type { LogRow } from './protocol';

/** The export's header stays English, like its values: a file to be read by tools. */
export const CSV_HEADER = [
  'Time',
  'User',
  'Place',
  'Moderator',
  'Active',
  'Duration',
  'Display reason',
  'Private reason',
  'Exclude alt accounts',
  'Action',
  'Run',
];

/** The CSV's words for an action: English, like its header. */
const CSV_ACTION: Record<LogAction, string> = { ban: 'Ban', edit: 'Edit', lift: 'Lift' };

const id = (name: string) => name.replace(/^(users|places)\//, '');

/** The moderator's user id, or `script` (what the row or the CSV says) for a game server script. */
function moderator(log: RestrictionLog, script = 'game server script'): string {
  if (log.moderator.platformUser) return id(log.moderator.platformUser);
  return log.moderator.gameServerScript ? script : '';
}

/** `action`: what the entry did, from `logActions` over the entries loaded. */
export function toRow(log: RestrictionLog, action: LogAction): LogRow {
  return {
    time: log.createTime,
    action,
    user: id(log.user),
    place: id(log.place),
    moderator: moderator(log, t`game server script`),
    active: log.active,
    duration: log.active ? describeDuration(log.duration) : '',
    displayReason: log.displayReason,
    privateReason: log.privateReason,
    excludeAltAccounts: log.excludeAltAccounts,
  };
}

/** The CSV keeps the service's own duration (`604800s`), so the file can be read back exactly. */
function csvRow(log: RestrictionLog, action: LogAction, run: string): CsvValue[] {
  const duration = log.active ? (log.duration ?? 'permanent') : '';
  const r = toRow(log, action);
  return [
    r.time,
    r.user,
    r.place,
    moderator(log),
    r.active,
    duration,
    r.displayReason,
    r.privateReason,
    r.excludeAltAccounts,
    CSV_ACTION[action],
    run,
  ];
}

/** The action of each entry loaded (newest first), each read against the same user's entry before it. */
const actionsOf = (logs: readonly RestrictionLog[]): LogAction[] =>
  logActions(logs.map((l) => ({ ...l, user: id(l.user), place: id(l.place) })));

/** The rows of the entries loaded, newest first, each with the run that wrote it. */
export function rowsOf(logs: readonly RestrictionLog[], runs: readonly (string | undefined)[]): LogRow[] {
  const actions = actionsOf(logs);
  return logs.map((log, i) => (runs[i] ? { ...toRow(log, actions[i]), run: runs[i] } : toRow(log, actions[i])));
}

/** The CSV of the entries `shown` (places in `logs`): actions read over every entry, the run's name per entry. */
export function logCsv(
  logs: readonly RestrictionLog[],
  shown: readonly number[],
  runName: (i: number) => string,
): string {
  const actions = actionsOf(logs);
  return toCsv(
    CSV_HEADER,
    shown.map((i) => csvRow(logs[i], actions[i], runName(i))),
  );
}
