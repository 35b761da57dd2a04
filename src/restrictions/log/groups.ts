// The restriction log's ban run groups, for the host and the page alike: the stretches of rows one run wrote, and
// how a run reads in its header, the Run filter and the export. No vscode and no DOM here.
import { t } from '../../core/text';
import { localTime, timeOfDay } from '../../core/time';

/** A ban run of the universe, as the log shows it. Label and ids come from a plan file: shown as text only. */
export interface LogRunInfo {
  id: string;
  kind: 'ban' | 'unban';
  /** What the run is, in the user's words. */
  label?: string;
  users: number;
  targets: number;
  /** ISO times of the first and last write answered; absent while nothing was written. */
  first?: string;
  last?: string;
}

/** A stretch of contiguous rows of one run: rows `start` to `end` (exclusive). */
export interface RunStretch {
  run: string;
  start: number;
  end: number;
}

/** Each contiguous stretch of rows of the same run, in order; rows of no run are in none. */
export function runStretches(rows: readonly { run?: string }[]): RunStretch[] {
  const stretches: RunStretch[] = [];
  rows.forEach((row, i) => {
    const last = stretches.at(-1);
    if (row.run === undefined) return;
    if (last && last.run === row.run && last.end === i) last.end = i + 1;
    else stretches.push({ run: row.run, start: i, end: i + 1 });
  });
  return stretches;
}

const count = (n: number): string => n.toLocaleString('en-US');

/** `27 Nov 2026, 10:32–10:36` (the day once when both are on it). */
function span(first: string, last: string): string {
  const [day] = localTime(first).split(', ');
  const [lastDay] = localTime(last).split(', ');
  return day === lastDay ? `${localTime(first)}–${timeOfDay(last)}` : `${localTime(first)}–${localTime(last)}`;
}

/** `Ban run · Raid 27 Nov · 1,000 users at 4 targets · 27 Nov 2026, 10:32–10:36`. */
export function runTitle(run: LogRunInfo): string {
  const parts = [run.kind === 'ban' ? t`Ban run` : t`Unban run`];
  if (run.label) parts.push(run.label);
  const users = run.users === 1 ? t`1 user` : t`${count(run.users)} users`;
  parts.push(run.targets === 1 ? t`${users} at 1 target` : t`${users} at ${count(run.targets)} targets`);
  parts.push(run.first && run.last ? span(run.first, run.last) : t`nothing written yet`);
  return parts.join(' · ');
}

/** The header of a run's stretch: its title and how many of its entries the stretch holds. */
export function runHeader(run: LogRunInfo, entries: number): string {
  return `${runTitle(run)} · ${entries === 1 ? t`1 entry here` : t`${count(entries)} entries here`}`;
}
