// What a restriction log entry did: Ban, Edit or Lift. A log entry is the restriction as it was after the change
// (docs/SERVICE.md, "Restrictions and the log"), with no field naming the change, so it is derived:
// - an active entry after the same user's earlier entry at the same place is an Edit when that one was still in force
//   (active, its duration not run out), else a Ban. With no earlier entry loaded (it may be on a page not loaded
//   yet), the entry's own `startTime` decides: the service keeps the start when an active restriction is edited, so
//   a start at the entry's own `createTime` (within a second) is a Ban and an earlier one an Edit;
// - an inactive entry after an active one is a Lift, after an inactive one an Edit; with no earlier entry loaded it
//   is taken as a Lift, the one way a person makes an entry inactive.
// No vscode and no DOM: the panel uses it and a plain unit test checks it.

/** The fields of a log entry the action is derived from. */
export interface LogFacts {
  user: string;
  place: string;
  createTime: string;
  active: boolean;
  startTime?: string;
  duration?: string;
}

export type LogAction = 'ban' | 'edit' | 'lift';

/** A start this close to the entry's time is the entry's own (the two are written apart on a real service). */
const SAME_MS = 1000;

/** Whether the restriction of `earlier` was still in force at `when` (a duration may have run out). */
function inForce(earlier: LogFacts, when: number): boolean {
  if (!earlier.active) return false;
  const seconds = earlier.duration === undefined ? NaN : Number(earlier.duration.replace(/s$/, ''));
  const start = Date.parse(earlier.startTime ?? earlier.createTime);
  return !Number.isFinite(seconds) || Number.isNaN(start) || start + seconds * 1000 > when;
}

/** The action of one entry, given the same user's entry before it at the same place, when it is loaded. */
export function logAction(entry: LogFacts, earlier: LogFacts | undefined): LogAction {
  const when = Date.parse(entry.createTime);
  if (entry.active) {
    if (earlier) return inForce(earlier, when) ? 'edit' : 'ban';
    const start = entry.startTime === undefined ? NaN : Date.parse(entry.startTime);
    return Number.isNaN(start) || Number.isNaN(when) || when - start < SAME_MS ? 'ban' : 'edit';
  }
  return earlier && !earlier.active ? 'edit' : 'lift';
}

/** The action of each entry of a log listed newest first, each read against the loaded entry before it. */
export function logActions(newestFirst: readonly LogFacts[]): LogAction[] {
  const last = new Map<string, LogFacts>();
  const actions: LogAction[] = new Array<LogAction>(newestFirst.length);
  for (let i = newestFirst.length - 1; i >= 0; i--) {
    const entry = newestFirst[i];
    const key = `${entry.user}\n${entry.place}`;
    actions[i] = logAction(entry, last.get(key));
    last.set(key, entry);
  }
  return actions;
}
