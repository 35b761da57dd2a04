// A ban run in one review panel: the plan (Apply, Export Plan…, Cancel), Apply paced under the service's limits with
// a notification that shows progress and cancels, then the result (Resume or Retry Failed, Export Results as CSV…,
// Show in Restriction Log, Close). A plan made here and closed unapplied is removed; a run stopped (Cancel, a
// closed window) is listed by Resume Ban Run… and goes on where it stopped.
import fsp = require('node:fs/promises');
import path = require('node:path');
import vscode = require('vscode');
import { isWrite } from '../../api';
import { confirmProductionBulk } from '../../core/confirmWrite';
import { toCsv } from '../../core/csv';
import { fileStamp, workspaceFile } from '../../core/files';
import { isCancel, reason } from '../../core/errors';
import type { ReviewHandler, ReviewPanel } from '../../core/review/panel';
import { settings } from '../../core/settings';
import { t } from '../../core/text';
import type { RestrictionsContext } from '../commands/context';
import { runProgress, type BanRun } from '../runs/store';
import { planReview, resultReview, resultRows, type Describe } from './review';
import { describeBanTarget } from './targets';

const describer =
  (ctx: RestrictionsContext, run: BanRun): Describe =>
  (target, full) =>
    full
      ? describeBanTarget(ctx.connections, run.connectionId, target)
      : target.placeId === undefined
        ? t`universe ${target.universeId}`
        : t`place ${target.placeId}`;

/** Opens a run: its plan when nothing was written yet, else its result. */
export function openRun(ctx: RestrictionsContext, run: BanRun, source?: string): ReviewPanel {
  const progress = runProgress(run);
  const started = progress.done > 0 || progress.failed > 0;
  const review = started
    ? resultReview(run, describer(ctx, run), t`Stopped before the end.`)
    : planReview(run, describer(ctx, run), source);
  let applied = started;
  const handler: ReviewHandler = {
    button: async (id, panel) => {
      switch (id) {
        case 'apply':
          applied = true;
          return apply(ctx, run, panel);
        case 'export':
          return exportPlan(ctx, run);
        case 'exportCsv':
          return exportResult(ctx, run);
        case 'log':
          return showLog(ctx, run);
        default:
          return panel.dispose();
      }
    },
    // A row opens the user's player page, in the universe of the row's target.
    open: async (item) => {
      const action = run.plan.actions.find((a) => String(a.userId) === item.key);
      const universeId = action?.target.universeId ?? run.plan.targets[0]?.universeId;
      return vscode.commands.executeCommand('universeExplorer.showPlayer', {
        connectionId: run.connectionId,
        universeId,
        userId: item.key,
      });
    },
    closed: () => {
      if (!applied) void ctx.runs.remove(run);
    },
  };
  return ctx.openReview(review, handler);
}

/** How many writes of a universe a second the run may make: the share of the limit the settings give bulk work. */
const budgetShare = () => settings().bulkBudgetShare;

async function apply(ctx: RestrictionsContext, run: BanRun, panel: ReviewPanel): Promise<void> {
  const universes = [...new Set(run.plan.targets.map((x) => x.universeId))];
  const verb = run.plan.kind === 'ban' ? t`ban` : t`unban`;
  const users = new Set(run.plan.actions.map((a) => a.userId)).size;
  for (const universeId of universes) {
    const u = { connectionId: run.connectionId, universeId };
    if (!(await confirmProductionBulk(ctx.ui, u, t`${verb} ${users} users`))) return;
  }
  const total = run.plan.actions.filter(isWrite).length;
  panel.busy(t`Writing: the notification shows the progress and can cancel it.`);
  let said: string;
  let failure: unknown;
  try {
    const result = await ctx.ui.progress(
      run.plan.kind === 'ban' ? t`Banning ${users} users` : t`Unbanning ${users} users`,
      (signal, report) =>
        ctx.model.applyBans(run.connectionId, run.plan, {
          journalFile: run.journalFile,
          signal,
          budgetShare: budgetShare(),
          onProgress: (p) => {
            const done = total - p.toWrite + p.done + p.failed;
            report(t`${done} of ${total} written`);
            panel.busy(t`Writing: ${done} of ${total}. The notification can cancel it.`);
          },
        }),
      { delayMs: 0 },
    );
    said = result.failures.length
      ? t`This run wrote ${result.written} and ${result.failures.length} failed (the service's reason is in each row).`
      : t`This run wrote ${result.written}.`;
  } catch (error) {
    said = isCancel(error) ? t`Cancelled: Resume goes on where it stopped.` : t`Stopped by an error: ${reason(error)}`;
    if (!isCancel(error)) failure = error;
  } finally {
    panel.busy(undefined);
    ctx.runs.wrote(run);
  }
  if (!panel.isDisposed) panel.show(resultReview(run, describer(ctx, run), said));
  if (failure) throw failure;
}

async function exportPlan(ctx: RestrictionsContext, run: BanRun): Promise<vscode.Uri | undefined> {
  const uri = await ctx.ui.saveDialog({
    title: t`Export the plan`,
    saveLabel: t`Export`,
    filters: { [t`Ban plans`]: ['json'] },
    defaultUri: workspaceFile(`${run.plan.kind}-plan`, fileStamp(new Date(run.plan.planned)), 'json'),
  });
  if (!uri) return undefined;
  await vscode.workspace.fs.writeFile(uri, await fsp.readFile(run.file));
  void ctx.ui.info(t`Exported the plan to ${path.basename(uri.fsPath)}: apply it with universe-explorer bans apply.`);
  return uri;
}

async function exportResult(ctx: RestrictionsContext, run: BanRun): Promise<vscode.Uri | undefined> {
  const uri = await ctx.ui.saveDialog({
    title: t`Export the result as CSV`,
    saveLabel: t`Export`,
    filters: { [t`CSV files`]: ['csv'] },
    defaultUri: workspaceFile(`${run.plan.kind}-result`, fileStamp(new Date(run.plan.planned)), 'csv'),
  });
  if (!uri) return undefined;
  const { header, rows } = resultRows(run);
  await vscode.workspace.fs.writeFile(uri, Buffer.from(toCsv(header, rows), 'utf8'));
  void ctx.ui.info(t`Exported ${rows.length} rows to ${path.basename(uri.fsPath)}.`);
  return uri;
}

async function showLog(ctx: RestrictionsContext, run: BanRun): Promise<unknown> {
  const universeId = run.plan.targets[0]?.universeId;
  if (universeId === undefined) return undefined;
  return ctx.logs.show({ connectionId: run.connectionId, universeId }, undefined, run.id);
}
