// A ban run as the review panel shows it: the plan (per user and target what changes, counts that add up) and the
// result (written, failed with the service's reason, not written yet), and the result as a CSV file.
import {
  formatDuration,
  fromServiceDuration,
  readBanJournal,
  isWrite,
  type BanAction,
  type BanChange,
  type BanState,
} from '../../api';
import type { Review, ReviewItem } from '../../core/review/panel';
import type { Tone } from '../../core/review/protocol';
import { t } from '../../core/text';
import { localTime } from '../../core/time';
import type { BanRun } from '../runs/store';

/** How a run names a target: in full (`place 1234 of universe 123 (Demo)`), or short for a row (`place 1234`). */
export type Describe = (target: BanAction['target'], full?: boolean) => string;

const changeLabels = (): Record<BanChange, string> => ({
  new: t`new ban`,
  longer: t`longer ban`,
  shorter: t`shorter ban`,
  changed: t`other reasons`,
  lift: t`lift`,
  same: t`skipped: same ban`,
  notBanned: t`skipped: not banned`,
  inherited: t`skipped: universe's ban`,
});

const TONES: Record<BanChange, Tone> = {
  new: 'add',
  longer: 'change',
  shorter: 'change',
  changed: 'change',
  lift: 'remove',
  same: 'skip',
  notBanned: 'skip',
  inherited: 'skip',
};

const COLUMNS = () => ({
  key: t`User`,
  scope: t`Where`,
  kind: t`Change`,
  bytes: '',
  version: t`Now`,
  note: t`Writes`,
  search: t`Search users`,
});

const howLong = (seconds: number | null | undefined): string =>
  seconds === null || seconds === undefined ? t`permanent` : formatDuration(seconds);

/** What a target holds now, in a few words. */
export function describeState(s: BanState | undefined): string {
  if (!s?.active) return t`not banned`;
  const how = howLong(fromServiceDuration(s.duration ?? undefined) ?? null);
  const own = s.inherited ? t`the universe's ban, ${how}` : t`banned, ${how}`;
  return [own, s.privateReason].filter(Boolean).join(' · ');
}

/**
 * When a timed ban written over one the target holds ends: the service counts a ban's duration from when it became
 * active and keeps that start while it stays active, so a shorter duration can end it at once. Undefined for a new ban.
 */
export function endOf(a: BanAction): number | undefined {
  const seconds = a.write?.active ? a.write.durationSeconds : undefined;
  const start = a.now?.active && !a.now.inherited && a.now.startTime ? Date.parse(a.now.startTime) : NaN;
  return seconds === null || seconds === undefined || Number.isNaN(start) ? undefined : start + seconds * 1000;
}

/** Whether the write ends the ban it replaces at once (see endOf). */
export const endsAtOnce = (a: BanAction, planned: string): boolean => (endOf(a) ?? Infinity) <= Date.parse(planned);

/** What a write sends, in a few words. */
export function describeWrite(a: BanAction, planned: string): string {
  const w = a.write;
  if (!w) return '';
  if (!w.active) return t`lift the ban`;
  const end = endOf(a);
  const how =
    end === undefined
      ? howLong(w.durationSeconds)
      : endsAtOnce(a, planned)
        ? t`${howLong(w.durationSeconds)} from its start ${localTime(a.now?.startTime)}: ends at once`
        : t`${howLong(w.durationSeconds)}, ends ${localTime(end)}`;
  const shown = w.displayReason ? t`shown: ${w.displayReason}` : '';
  const alts = w.excludeAltAccounts ? t`not alt accounts` : '';
  return [how, w.privateReason, shown, alts].filter(Boolean).join(' · ');
}

export const usersWord = (n: number): string => (n === 1 ? t`1 user` : t`${n.toLocaleString()} users`);

const usersOf = (run: BanRun) => new Set(run.plan.actions.map((a) => a.userId)).size + (run.plan.clear?.length ?? 0);

function direction(run: BanRun, describe: Describe, source: string | undefined): string {
  const ids = new Set([...run.plan.actions.map((a) => a.userId), ...(run.plan.clear ?? [])]);
  const users = ids.size === 1 ? t`user ${[...ids][0]}` : usersWord(ids.size);
  const where = run.plan.targets.map((x) => describe(x, true)).join(', ');
  const from = source && ids.size > 1 ? t`${users} from ${source}` : users;
  return run.plan.label ? t`${run.plan.label}: ${from} → ${where}` : t`${from} → ${where}`;
}

/** The plan: one row per user and target, and the users an unban found banned nowhere. */
export function planReview(run: BanRun, describe: Describe, source?: string): Review {
  const { plan } = run;
  const labels = changeLabels();
  const items: ReviewItem[] = plan.actions.map((a) => ({
    key: String(a.userId),
    scope: describe(a.target),
    kind: a.change,
    version: describeState(a.now),
    note: a.write ? describeWrite(a, plan.planned) : undefined,
  }));
  for (const userId of plan.clear ?? [])
    items.push({
      key: String(userId),
      scope: t`anywhere found`,
      kind: 'notBanned',
      note: t`banned nowhere`,
      opens: false,
    });
  const writes = plan.actions.filter(isWrite).length;
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.kind, (counts.get(item.kind) ?? 0) + 1);
  const parts = [...counts].map(([kind, n]) => `${n.toLocaleString()} ${labels[kind as BanChange]}`);
  const notes = plan.problems.slice(0, 5).map((p) => t`Line ${p.line} not used: ${p.reason} (${p.text}).`);
  if (plan.problems.length > 5)
    notes.push(t`${plan.problems.length - 5} more lines not used: Export Plan… lists them.`);
  notes.push(
    t`Apply writes at the share of the service's limit set in universeExplorer.bulk.budgetShare (10 a second per universe, 2 a minute per user); a run stopped can be resumed and writes nothing twice.`,
  );
  const verb = plan.kind === 'ban' ? t`Ban` : t`Unban`;
  return {
    title: plan.kind === 'ban' ? t`Ban ${usersWord(usersOf(run))}` : t`Unban ${usersWord(usersOf(run))}`,
    heading: plan.kind === 'ban' ? t`Ban users from a list` : t`Unban everywhere`,
    direction: direction(run, describe, source),
    phase: 'plan',
    summary: t`${items.length} rows: ${parts.join(', ')}. ${writes} to write.`,
    notes,
    kinds: (Object.keys(labels) as BanChange[]).map((id) => ({ id, label: labels[id], tone: TONES[id] })),
    items,
    buttons: [
      ...(writes ? [{ id: 'apply', label: t`${verb} (${writes})`, primary: true }] : []),
      { id: 'export', label: t`Export Plan…` },
      { id: 'cancel', label: t`Cancel` },
    ],
    columns: COLUMNS(),
    opens: t`the user's player page`,
  };
}

export type Outcome = 'written' | 'failed' | 'pending' | 'skipped';

export interface ActionOutcome {
  action: BanAction;
  outcome: Outcome;
  /** The failure's reason, or the skip's. */
  reason?: string;
}

/** Each action's outcome, from the run's journal. */
export function outcomes(run: BanRun): ActionOutcome[] {
  const journal = readBanJournal(run.journalFile);
  const labels = changeLabels();
  return run.plan.actions.map((action) => {
    if (!isWrite(action)) return { action, outcome: 'skipped', reason: labels[action.change] };
    if (journal.done.has(action.n)) return { action, outcome: 'written' };
    const failed = journal.failed.get(action.n);
    return failed === undefined ? { action, outcome: 'pending' } : { action, outcome: 'failed', reason: failed };
  });
}

/** The result: each action's outcome; `said` is the sentence of this run (how many it wrote, or why it stopped). */
export function resultReview(run: BanRun, describe: Describe, said: string): Review {
  const all = outcomes(run);
  const n = (o: Outcome) => all.filter((x) => x.outcome === o).length;
  const [written, failed, pending, skipped] = [n('written'), n('failed'), n('pending'), n('skipped')];
  const items: ReviewItem[] = all.map(({ action, outcome, reason }) => ({
    key: String(action.userId),
    scope: describe(action.target),
    kind: outcome,
    version: describeState(action.now),
    note: outcome === 'failed' || outcome === 'skipped' ? reason : describeWrite(action, run.plan.planned),
  }));
  const left = failed + pending;
  return {
    title:
      run.plan.kind === 'ban'
        ? t`Banned: ${run.plan.label ?? usersWord(usersOf(run))}`
        : t`Unbanned: ${usersWord(usersOf(run))}`,
    heading: run.plan.kind === 'ban' ? t`Ban users from a list: result` : t`Unban everywhere: result`,
    direction: direction(run, describe, undefined),
    phase: 'result',
    summary: t`${said} ${written} written, ${failed} failed, ${pending} not written yet, ${skipped} skipped (of ${all.length}).`,
    notes: left
      ? [t`Resume writes what is left (failures again): what was written is not sent twice.`]
      : [t`The restriction log shows this run's entries as one group.`],
    kinds: [
      { id: 'written', label: t`written`, tone: 'add' },
      { id: 'failed', label: t`failed`, tone: 'fail' },
      { id: 'pending', label: t`not written yet`, tone: 'skip' },
      { id: 'skipped', label: t`skipped`, tone: 'skip' },
    ],
    items,
    buttons: [
      ...(left
        ? [
            {
              id: 'apply',
              label: failed && !pending ? t`Retry Failed (${failed})` : t`Resume (${left})`,
              primary: true,
            },
          ]
        : []),
      { id: 'exportCsv', label: t`Export Results as CSV…` },
      { id: 'log', label: t`Show in Restriction Log` },
      { id: 'close', label: t`Close` },
    ],
    columns: { ...COLUMNS(), kind: t`Outcome`, version: t`Before` },
    opens: t`the user's player page`,
  };
}

/** The result as CSV rows (English header and words, like the log's export: a file read by tools). */
export function resultRows(run: BanRun): { header: string[]; rows: (string | number | boolean)[][] } {
  const header = [
    'User',
    'Universe',
    'Place',
    'Change',
    'Outcome',
    'Reason',
    'Duration',
    'Display reason',
    'Private reason',
  ];
  const rows = outcomes(run).map(({ action: a, outcome, reason }) => [
    a.userId,
    a.target.universeId,
    a.target.placeId ?? '',
    a.change,
    outcome,
    reason ?? '',
    a.write?.active
      ? a.write.durationSeconds === null || a.write.durationSeconds === undefined
        ? 'permanent'
        : `${a.write.durationSeconds}s`
      : '',
    a.write?.displayReason ?? '',
    a.write?.privateReason ?? '',
  ]);
  return { header, rows };
}
