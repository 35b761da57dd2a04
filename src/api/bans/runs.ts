// Which restriction log entries a run of a ban plan wrote. The service keeps no run id, so an entry is the run's when
// it names a user and place the run wrote, does what the write did (ban or lift), and was logged near when the run's
// journal says the write was answered, and records what the write sent. Clocks differ between this machine and the
// service: a margin absorbs it.
import type { RestrictionLog } from '../schemas';
import type { BanJournal } from './apply';
import { fromServiceDuration } from './duration';
import type { BanPlan } from './plan';

/** How far a log entry's time may be from the journal's time of the write. */
export const RUN_MATCH_MARGIN_MS = 5 * 60_000;

export interface RunWindow {
  /** The earliest and latest write answered (ms), or undefined when nothing was written. */
  first?: number;
  last?: number;
  written: number;
}

/** When the run wrote (from its journal). */
export function runWindow(journal: BanJournal): RunWindow {
  let first: number | undefined;
  let last: number | undefined;
  for (const at of journal.done.values()) {
    const t = at === undefined ? NaN : Date.parse(at);
    if (Number.isNaN(t)) continue;
    first = first === undefined ? t : Math.min(first, t);
    last = last === undefined ? t : Math.max(last, t);
  }
  return { first, last, written: journal.done.size };
}

const idOf = (name: string): string => name.replace(/^(users|places)\//, '');

interface Written {
  active: boolean;
  at: number;
  durationSeconds: number | null;
  displayReason: string;
  privateReason: string;
}

/** Whether the log entry records what the write sent. */
const records = (w: Written, log: RestrictionLog): boolean =>
  w.active === log.active &&
  (!w.active ||
    ((fromServiceDuration(log.duration ?? undefined) ?? null) === w.durationSeconds &&
      log.displayReason === w.displayReason &&
      log.privateReason === w.privateReason));

/**
 * The entries of `logs` the run wrote in `universeId` (their places in `logs`): per write, the entry that records
 * what it sent, at the same user and place, nearest to when the journal says it was answered (within the margin).
 */
export function runEntries(
  plan: BanPlan,
  journal: BanJournal,
  universeId: number,
  logs: readonly RestrictionLog[],
): Set<number> {
  const writes = new Map<string, Written[]>();
  for (const a of plan.actions) {
    const at = Date.parse(journal.done.get(a.n) ?? '');
    if (a.target.universeId !== universeId || !a.write || Number.isNaN(at)) continue;
    const key = `${a.userId}/${a.target.placeId ?? ''}`;
    const w = a.write;
    writes.set(key, [
      ...(writes.get(key) ?? []),
      {
        active: w.active,
        at,
        durationSeconds: w.durationSeconds ?? null,
        displayReason: w.displayReason ?? '',
        privateReason: w.privateReason ?? '',
      },
    ]);
  }
  const taken = new Set<number>();
  const byKey = new Map<string, number[]>();
  logs.forEach((log, i) => {
    const key = `${idOf(log.user)}/${idOf(log.place)}`;
    if (writes.has(key)) byKey.set(key, [...(byKey.get(key) ?? []), i]);
  });
  for (const [key, found] of writes) {
    for (const w of found) {
      let best: number | undefined;
      let distance = RUN_MATCH_MARGIN_MS;
      for (const i of byKey.get(key) ?? []) {
        const d = Math.abs(Date.parse(logs[i].createTime) - w.at);
        if (taken.has(i) || d > distance || !records(w, logs[i])) continue;
        best = i;
        distance = d;
      }
      if (best !== undefined) taken.add(best);
    }
  }
  return taken;
}
