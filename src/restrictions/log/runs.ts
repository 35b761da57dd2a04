// The ban runs a restriction log panel groups its entries by (host side): the universe's known runs, read again on
// refresh and when the store says a run changed, and which loaded entry each run wrote. The service keeps no run
// id: entries are found from each run's plan and journal (runEntries).
import {
  readBanJournal,
  RUN_MATCH_MARGIN_MS,
  runEntries,
  runWindow,
  type BanJournal,
  type BanPlan,
  type RestrictionLog,
} from '../../api';
import type { UniverseAddress } from '../../core/universe';
import type { BanRun, BanRuns } from '../runs/store';
import type { LogRunInfo } from './groups';

export interface MatchRun {
  id: string;
  plan: BanPlan;
  journal: BanJournal;
}

/** Which run wrote each entry of `logs` (its id, or undefined); an entry two runs claim is the first run's. */
export function matchRuns(
  runs: readonly MatchRun[],
  universeId: number,
  logs: readonly RestrictionLog[],
): (string | undefined)[] {
  const ids: (string | undefined)[] = logs.map(() => undefined);
  for (const run of runs) for (const i of runEntries(run.plan, run.journal, universeId, logs)) ids[i] ??= run.id;
  return ids;
}

function journalOf(run: BanRun): BanJournal {
  try {
    return readBanJournal(run.journalFile);
  } catch {
    return { done: new Map(), failed: new Map(), keys: new Map() };
  }
}

function infoOf(run: BanRun, journal: BanJournal): LogRunInfo {
  const { first, last } = runWindow(journal);
  const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
  return {
    id: run.id,
    kind: run.plan.kind,
    label: run.plan.label?.trim() || undefined,
    users: new Set(run.plan.actions.map((a) => a.userId)).size,
    targets: run.plan.targets.length,
    first: iso(first),
    last: iso(last),
  };
}

/** A panel's runs: its universe's, newest first. */
export class LogRuns {
  private known: (MatchRun & { info: LogRunInfo })[] = [];
  private matched: { logs: readonly RestrictionLog[]; length: number; ids: (string | undefined)[] } | undefined;

  constructor(
    private readonly store: BanRuns,
    private readonly target: UniverseAddress,
  ) {}

  get infos(): LogRunInfo[] {
    return this.known.map((r) => r.info);
  }

  has(id: string): boolean {
    return this.known.some((r) => r.id === id);
  }

  /** Reads the runs and their journals again. */
  async reload(): Promise<void> {
    const runs = await this.store.list(this.target.connectionId, this.target.universeId);
    this.known = runs.map((run) => {
      const journal = journalOf(run);
      return { id: run.id, plan: run.plan, journal, info: infoOf(run, journal) };
    });
    this.matched = undefined;
  }

  /** The run of each entry loaded (the pager's list, which only grows until it is replaced). */
  of(logs: readonly RestrictionLog[]): (string | undefined)[] {
    if (this.matched?.logs !== logs || this.matched.length !== logs.length)
      this.matched = { logs, length: logs.length, ids: matchRuns(this.known, this.target.universeId, logs) };
    return this.matched.ids;
  }

  /** Whether older pages may hold entries of the run: the oldest loaded is not before its first write (less the margin). */
  needsOlder(id: string, logs: readonly RestrictionLog[]): boolean {
    const first = this.known.find((r) => r.id === id)?.info.first;
    if (!first) return false;
    const oldest = logs.at(-1);
    return !oldest || Date.parse(oldest.createTime) >= Date.parse(first) - RUN_MATCH_MARGIN_MS;
  }

  /** The export's Run column: the run's label, or its id; "" for an entry of no run. */
  csvName(id: string | undefined): string {
    const info = this.known.find((r) => r.id === id)?.info;
    return info ? (info.label ?? info.id) : '';
  }
}
