// What Restore to Time…, Undo…, Copy Differences… and Put Back… share: the run of a plan under one cancellable
// notification (count, rate, time left), what each is called, and the headers of plan and audit files chosen by hand.
// The review of a plan and of its result is src/datastores/operations/.
import fs = require('node:fs');
import { RestoreStoppedError, type RestoreCounts, type RestorePlanHeader, type RestoreResult } from '../../api';
import { isCancel, reason } from '../../core/errors';
import { t } from '../../core/text';
import type { StoreRef } from '../listState';
import { count, duration, runBulk } from './bulk';
import type { DataStoresContext } from './context';

/** A plan to run: a restore to a moment, the undo of one, or a copy of another store's differences. */
export interface PlanRun {
  store: StoreRef;
  /** The store and its selection: `Players (scope global)`. */
  what: string;
  planFile: string;
  /** A restore: the moment, in local time. */
  when?: string;
  /** An undo: the audit file of the restore it puts back. */
  undoOf?: string;
  /** A copy: what it copies from (`Players (scope global) of Staging`, `backup.ndjson`). */
  copyOf?: string;
  /** A put-back: the audit file whose raced deletes it re-creates. */
  putBackOf?: string;
  /** An erase: the user whose data it erases (`what` names the store). */
  eraseOf?: number;
  /** A plan reviewed from a file, without a moment: the file's name. */
  planOf?: string;
}

/** The first line of a plan or audit file: its header object under `name`, or undefined. */
function headerOf(file: string, name: string): Record<string, unknown> | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const buffer = Buffer.alloc(64 * 1024);
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    const parsed = JSON.parse(buffer.subarray(0, read).toString('utf8').split('\n')[0]) as Record<string, unknown>;
    const header = parsed?.[name];
    return typeof header === 'object' && header !== null && !Array.isArray(header)
      ? (header as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export function planHeader(planFile: string): RestorePlanHeader | undefined {
  const header = headerOf(planFile, 'restorePlan');
  return typeof header?.datastoreName === 'string' ? (header as unknown as RestorePlanHeader) : undefined;
}

export function auditHeader(
  auditFile: string,
): { universeId: number | string; datastoreName: string; plan?: string } | undefined {
  const header = headerOf(auditFile, 'restoreAudit');
  return typeof header?.datastoreName === 'string'
    ? (header as { universeId: number | string; datastoreName: string; plan?: string })
    : undefined;
}

/** `scope global, keys starting with "p", user 1234`. */
export function whereOf(selection: RestorePlanHeader['selection']): string {
  const parts = [selection.allScopes ? t`all scopes` : t`scope ${selection.scope ?? 'global'}`];
  if (selection.prefix) parts.push(t`keys starting with "${selection.prefix}"`);
  if (selection.userId !== undefined) parts.push(t`user ${selection.userId}`);
  if (selection.keys) parts.push(t`chosen keys`);
  return parts.join(', ');
}

const done = (c: RestoreCounts): number => c.written + c.recreated + c.deleted + c.skipped + c.failed + c.earlier;
/** A copy creates the keys only in its source; a restore or undo re-creates keys deleted since. */
const counts = (c: RestoreCounts, run: PlanRun): string =>
  run.copyOf
    ? t`${count(c.written)} written, ${count(c.recreated)} created, ${count(c.deleted)} deleted, ${count(c.skipped)} skipped, ${count(c.failed)} failed`
    : t`${count(c.written)} written, ${count(c.recreated)} re-created, ${count(c.deleted)} deleted, ${count(c.skipped)} skipped, ${count(c.failed)} failed`;

/** How to go on with a stopped run. */
const again = (): string => t`Continue in its review (Recent Operations) finishes it; Undo puts back what it did.`;

/** What a run of this kind is called while it runs, once it stopped, and once it is done. */
export function wording(run: PlanRun): { running: string; stopped: string; done: string } {
  if (run.eraseOf !== undefined)
    return {
      running: t`Erasing the data of ${run.what}`,
      stopped: t`The erase of the data of ${run.what}`,
      done: t`Erased the data of ${run.what}`,
    };
  if (run.putBackOf)
    return {
      running: t`Putting back what another writer wrote to ${run.what}`,
      stopped: t`The put-back of what another writer wrote to ${run.what}`,
      done: t`Put back what another writer wrote to ${run.what}`,
    };
  if (run.undoOf)
    return {
      running: t`Undoing the restore of ${run.what}`,
      stopped: t`The undo of the restore of ${run.what}`,
      done: t`Undid the restore of ${run.what}`,
    };
  if (run.copyOf)
    return {
      running: t`Copying the differences of ${run.copyOf} to ${run.what}`,
      stopped: t`The copy of the differences of ${run.copyOf} to ${run.what}`,
      done: t`Copied the differences of ${run.copyOf} to ${run.what}`,
    };
  if (run.planOf && !run.when)
    return {
      running: t`Applying ${run.planOf} to ${run.what}`,
      stopped: t`The run of ${run.planOf} on ${run.what}`,
      done: t`Applied ${run.planOf} to ${run.what}`,
    };
  return {
    running: t`Restoring ${run.what} to ${run.when ?? ''}`,
    stopped: t`The restore of ${run.what} to ${run.when ?? ''}`,
    done: t`Restored ${run.what} to ${run.when ?? ''}`,
  };
}

/** Runs the plan (or the rest of a stopped one) under a notification; `total`: the plan's actions. */
export async function runPlan(ctx: DataStoresContext, run: PlanRun, total: number): Promise<RestoreResult> {
  const words = wording(run);
  try {
    return await runBulk(ctx, {
      title: words.running,
      connectionId: run.store.connectionId,
      start: { written: 0, recreated: 0, deleted: 0, skipped: 0, failed: 0, earlier: 0 },
      handled: done,
      describe: (c) => {
        const left = Math.max(0, total - done(c));
        const rate = c.ratePerSecond;
        return rate > 0 && left > 0
          ? t`${count(done(c))} of ${count(total)} · ${count(rate)}/s · about ${duration((left / rate) * 1000)} left`
          : t`${count(done(c))} of ${count(total)} · ${count(rate)}/s`;
      },
      run: (opts) => ctx.timeMachine.runRestore(run.store, run.planFile, opts),
      stopped: (c) =>
        t`${words.stopped} stopped after ${count(done(c))} of ${count(total)} keys (${counts(c, run)}). ${again()}`,
    });
  } catch (error) {
    if (error instanceof RestoreStoppedError && !isCancel(error))
      throw new Error(t`${reason(error.cause)}. ${again()}`, { cause: error });
    throw error;
  }
}
