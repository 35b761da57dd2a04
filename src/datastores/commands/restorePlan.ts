// What Restore to Time…, Undo a Restore… and Copy Differences… share: the dry run asked as a modal question, the run under one
// cancellable notification (count, rate, time left), and the summary with the skipped keys, the audit and Undo, and
// the deletes that raced another writer, with Put Back.
import { runFollowUp } from '../../core/commands';
import * as fs from 'node:fs';
import * as path from 'node:path';
import vscode = require('vscode');
import {
  auditFileFor,
  putBackPlanFileFor,
  RestoreStoppedError,
  undoPlanFileFor,
  type RestoreCounts,
  type RestorePlanHeader,
  type RestorePlanSummary,
  type RestoreResult,
} from '../../api';
import { isCancel, reason } from '../../core/errors';
import { formatBytes } from '../../core/format';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import type { StoreRef } from '../listState';
import { count, duration, runBulk, seconds } from './bulk';
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
}

/** Skipped keys named in the summary; the skipped file lists them all. */
const SKIPPED_NAMED = 10;
/** Raced keys named in the summary; the log lists them all. */
const RACED_NAMED = 5;

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

/** Whether the audit of a plan holds writes: the run it holds has begun. */
export const begun = (planFile: string): boolean =>
  (fs.statSync(auditFileFor(planFile), { throwIfNoEntry: false })?.size ?? 0) > 0;

/** `scope global, keys starting with "p", user 1234`. */
export function whereOf(selection: RestorePlanHeader['selection']): string {
  const parts = [selection.allScopes ? t`all scopes` : t`scope ${selection.scope ?? 'global'}`];
  if (selection.prefix) parts.push(t`keys starting with "${selection.prefix}"`);
  if (selection.userId !== undefined) parts.push(t`user ${selection.userId}`);
  if (selection.keys) parts.push(t`chosen keys`);
  return parts.join(', ');
}

/** Actions in a plan file: its lines after the header. */
export async function planLength(planFile: string): Promise<number> {
  let lines = 0;
  let last = 10;
  for await (const chunk of fs.createReadStream(planFile) as AsyncIterable<Buffer>) {
    for (const byte of chunk) if (byte === 10) lines++;
    if (chunk.length) last = chunk[chunk.length - 1];
  }
  if (last !== 10) lines++;
  return Math.max(0, lines - 1);
}

const actions = (s: RestorePlanSummary): number => s.write + s.recreate + s.delete;
const done = (c: RestoreCounts): number => c.written + c.recreated + c.deleted + c.skipped + c.failed + c.earlier;
const keys = (n: number): string => (n === 1 ? t`${count(n)} key` : t`${count(n)} keys`);
/** A copy creates the keys only in its source; a restore or undo re-creates keys deleted since. */
const counts = (c: RestoreCounts, run: PlanRun): string =>
  run.copyOf
    ? t`${count(c.written)} written, ${count(c.recreated)} created, ${count(c.deleted)} deleted, ${count(c.skipped)} skipped, ${count(c.failed)} failed`
    : t`${count(c.written)} written, ${count(c.recreated)} re-created, ${count(c.deleted)} deleted, ${count(c.skipped)} skipped, ${count(c.failed)} failed`;

/** How to go on with a stopped run. */
function again(run: PlanRun): string {
  if (run.putBackOf)
    return t`Choose Put Back again, or run Undo a Restore… on ${path.basename(run.putBackOf)}, which puts these keys back too.`;
  return run.undoOf
    ? t`Run Undo a Restore… on the same audit file (${path.basename(run.undoOf)}) and choose Continue to finish it.`
    : t`Run Restore to Time… on ${run.store.datastoreName} with the same plan file (${path.basename(run.planFile)}) and choose Continue to finish it.`;
}

const open = (file: string) => vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });

/** The dry run as a modal question; true when the user confirms. "Open Plan" opens the plan and runs nothing. */
export async function confirmPlan(
  ctx: DataStoresContext,
  run: PlanRun,
  summary: RestorePlanSummary & { extra?: number },
): Promise<boolean> {
  if (!actions(summary)) {
    void ctx.ui.info(
      run.undoOf
        ? t`Nothing to undo: ${path.basename(run.undoOf)} holds no write that can be put back.`
        : run.copyOf
          ? t`Nothing to copy: ${run.what} holds what ${run.copyOf} holds (${keys(summary.unchanged)} the same).`
          : t`Nothing to restore: ${run.what} is as it was at ${run.when ?? ''} (${keys(summary.unchanged)} unchanged).`,
    );
    return false;
  }
  const [size, time] = [formatBytes(summary.bytes), duration(summary.estimateMs)];
  const dry = run.copyOf
    ? t`${count(summary.write)} written, ${count(summary.recreate)} created, ${count(summary.delete)} deleted, ${size}, about ${time} at the current rate limit`
    : t`${count(summary.write)} written, ${count(summary.recreate)} re-created, ${count(summary.delete)} deleted, ${size}, about ${time} at the current rate limit`;
  const question = run.undoOf
    ? t`Undo the restore of ${run.what}? ${dry}. Each write is conditioned on the version the restore wrote: a key changed since is skipped and listed.`
    : run.copyOf
      ? t`Copy the differences of ${run.copyOf} to ${run.what}? ${dry}. Each write is conditioned on the version seen now: a key someone changes meanwhile is skipped and listed.`
      : t`Restore ${run.what} to ${run.when ?? ''}? ${dry}. Each write is conditioned on the version seen now: a key someone changes meanwhile is skipped and listed.`;
  const go = run.undoOf ? t`Undo` : run.copyOf ? t`Copy` : t`Restore`;
  const openPlan = t`Open Plan`;
  const gone = summary.gone.length;
  const details = [
    gone
      ? run.copyOf
        ? t`${keys(gone)} deleted from ${run.copyOf} since the comparison are left out of the plan (${path.basename(run.planFile)}).`
        : t`${keys(gone)} whose version then is no longer kept are left out of the plan (${path.basename(run.planFile)}).`
      : t`The plan is ${path.basename(run.planFile)}.`,
  ];
  if (summary.extra) details.push(t`${keys(summary.extra)} only in ${run.what} are left alone.`);
  const detail = details.join(' ');
  const answer = await ctx.ui.warn(question, { modal: true, detail }, go, openPlan);
  if (answer === openPlan) await open(run.planFile);
  return answer === go;
}

/** What a run of this kind is called while it runs, once it stopped, and once it is done. */
function wording(run: PlanRun): { running: string; stopped: string; done: string } {
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
  return {
    running: t`Restoring ${run.what} to ${run.when ?? ''}`,
    stopped: t`The restore of ${run.what} to ${run.when ?? ''}`,
    done: t`Restored ${run.what} to ${run.when ?? ''}`,
  };
}

/** Runs the plan (or the rest of a stopped one) under a notification; `total`: the plan's actions. */
async function runPlan(ctx: DataStoresContext, run: PlanRun, total: number): Promise<RestoreResult> {
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
        t`${words.stopped} stopped after ${count(done(c))} of ${count(total)} keys (${counts(c, run)}). ${again(run)}`,
    });
  } catch (error) {
    if (error instanceof RestoreStoppedError && !isCancel(error))
      throw new Error(t`${reason(error.cause)}. ${again(run)}`, { cause: error });
    throw error;
  }
}

function named(some: { scope: string; key: string }[], most = SKIPPED_NAMED): string {
  const scopes = new Set(some.map((k) => k.scope)).size > 1 || some.some((k) => k.scope !== 'global');
  const names = some.slice(0, most).map((k) => (scopes ? `${k.scope}/${k.key}` : k.key));
  const more = some.length - names.length;
  return more > 0 ? t`${names.join(', ')} and ${count(more)} more` : names.join(', ');
}

/** The summary of a run: counts, the keys skipped, and Open Skipped, Undo (a restore) and Open Audit. */
function showResult(ctx: DataStoresContext, run: PlanRun, result: RestoreResult): string {
  const parts = [t`${wording(run).done}: ${counts(result, run)} in ${seconds(result.ms)}.`];
  if (result.earlier) parts.push(t`${keys(result.earlier)} were done by an earlier run.`);
  if (result.skippedKeys.length)
    parts.push(t`Skipped as changed since the plan, never overwritten: ${named(result.skippedKeys)}.`);
  const raced = result.raced;
  if (raced.length)
    parts.push(
      t`${keys(raced.length)} met another writer between the version check and the delete, so the delete removed that writer's value: ${named(raced, RACED_NAMED)}. Put Back re-creates those values where the key is still deleted; the versions lost are in the log.`,
    );
  if (result.failuresFile)
    parts.push(t`The failed keys and their errors are in ${path.basename(result.failuresFile)}. ${again(run)}`);
  const text = parts.join(' ');
  ctx.log.info(text);
  for (const l of raced)
    ctx.log.info(
      t`Raced delete of ${l.scope}/${l.key}: it removed version ${l.before}, written by another writer after the version check (the deletion is ${l.written}).`,
    );
  const openSkipped = t`Open Skipped`;
  const undo = t`Undo`;
  const putBack = t`Put Back`;
  const openAudit = t`Open Audit`;
  const audit = fs.existsSync(result.auditFile);
  const buttons = [
    ...(raced.length ? [putBack] : []),
    ...(result.skippedFile ? [openSkipped] : []),
    ...(!run.undoOf && !run.putBackOf && begun(run.planFile) ? [undo] : []),
    ...(audit ? [openAudit] : []),
  ];
  const shown =
    result.skipped || result.failed || raced.length ? ctx.ui.warn(text, {}, ...buttons) : ctx.ui.info(text, ...buttons);
  void shown.then((choice) =>
    runFollowUp(
      ctx,
      'universeExplorer.undoRestore',
      choice === putBack ? t`put back what another writer wrote` : t`undo the restore`,
      async () => {
        if (choice === openSkipped && result.skippedFile) await open(result.skippedFile);
        if (choice === openAudit) await open(result.auditFile);
        if (choice === undo) await undoFromAudit(ctx, run.store, result.auditFile, run.what);
        if (choice === putBack) await putBackRaced(ctx, run.store, result.auditFile, run.what);
      },
    ),
  );
  return text;
}

/**
 * Put Back in a summary: re-creates the values a run's raced deletes removed, each only while its key is still
 * deleted. The button was the question, so it runs at once; a stopped put-back is continued.
 */
export async function putBackRaced(
  ctx: DataStoresContext,
  store: StoreRef,
  auditFile: string,
  what: string,
): Promise<RestoreResult | undefined> {
  const run: PlanRun = { store, what, planFile: putBackPlanFileFor(auditFile), putBackOf: auditFile };
  if (begun(run.planFile)) return runAndShow(ctx, run, await planLength(run.planFile));
  const summary = await ctx.ui.progress(
    t`Planning the put-back of what another writer wrote to ${what}`,
    (signal) => ctx.timeMachine.planPutBack(store, auditFile, signal),
    { delayMs: 500 },
  );
  if (!actions(summary)) {
    void ctx.ui.warn(
      t`Nothing to put back: the versions the raced deletes removed are no longer kept (${keys(summary.gone.length)}).`,
      {},
    );
    return undefined;
  }
  return runAndShow(ctx, run, actions(summary));
}

/** Runs a plan the user confirmed (or continues one), then shows its summary. */
export async function runAndShow(ctx: DataStoresContext, run: PlanRun, total: number): Promise<RestoreResult> {
  const result = await runPlan(ctx, run, total);
  showResult(ctx, run, result);
  return result;
}

/**
 * Undoes a restore from its audit file: its dry run as a modal question, then its run. An undo that was stopped
 * (its plan's audit holds writes) is continued when the user says so.
 */
export async function undoFromAudit(
  ctx: DataStoresContext,
  store: StoreRef,
  auditFile: string,
  what: string,
): Promise<RestoreResult | undefined> {
  const run: PlanRun = { store, what, planFile: undoPlanFileFor(auditFile), undoOf: auditFile };
  if (begun(run.planFile)) {
    required(
      await ctx.ui.pick([{ label: t`Continue`, description: t`put back the keys the stopped undo has not` }], {
        title: t`The undo of ${path.basename(auditFile)} has begun (${path.basename(auditFileFor(run.planFile))})`,
      }),
    );
    return runAndShow(ctx, run, await planLength(run.planFile));
  }
  const summary = await ctx.ui.progress(
    t`Planning the undo of the restore of ${what}`,
    (signal) => ctx.timeMachine.planUndo(store, auditFile, signal),
    { delayMs: 500 },
  );
  if (!(await confirmPlan(ctx, run, summary))) return undefined;
  return runAndShow(ctx, run, actions(summary));
}

export const planActions = actions;
