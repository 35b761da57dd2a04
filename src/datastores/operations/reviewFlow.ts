// A plan from planning to its result, in one review panel: the plan is written to the operation's folder, the panel
// shows it (Apply, Export Plan…, Cancel), Apply runs it under the usual notification and the panel becomes its result
// (Continue, Undo…, Put Back…, Export Files…). Cancel or closing an unapplied plan removes it.
import fs = require('node:fs');
import path = require('node:path');
import vscode = require('vscode');
import { auditFileFor, type RestorePlanSummary } from '../../api';
import { confirmProductionBulk } from '../../core/confirmWrite';
import { isCancel } from '../../core/errors';
import type { ReviewHandler, ReviewPanel } from '../../core/review/panel';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { fileStamp, workspaceFile } from '../../core/files';
import { localPath, ndjsonFilters } from '../commands/bulk';
import type { DataStoresContext } from '../commands/context';
import { runPlan, wording, type PlanRun } from '../commands/restorePlan';
import { diffTitle, entryUri } from '../editor/uris';
import type { StoreRef } from '../listState';
import type { Operation } from './operations';
import { planItems, planReview, resultItems, resultReview, type PlanItem } from './planReview';
import { planValueUri } from './planValues';

export interface OperationReview {
  op: Operation;
  panel: ReviewPanel;
}

type PlanSummary = RestorePlanSummary & { extra?: number };

/** The universe as a review names it: `Demo Universe on Local Sandbox`. */
export function universeWhere(ctx: DataStoresContext, ref: StoreRef): string {
  const connection = ctx.connections.get(ref.connectionId);
  const universe = connection?.universes.find((u) => u.id === ref.universeId);
  const name = universe?.name ?? t`universe ${ref.universeId}`;
  return connection ? t`${name} on ${connection.name}` : name;
}

/** The run of an operation, as the run's notification and messages name it. */
function runOf(ctx: DataStoresContext, op: Operation): PlanRun {
  return {
    store: op,
    what: op.what,
    planFile: ctx.operations.planFile(op),
    when: op.when,
    undoOf: op.kind === 'undo' ? op.auditOf : undefined,
    copyOf: op.copyOf,
    putBackOf: op.kind === 'putBack' ? op.auditOf : undefined,
    planOf: op.planOf,
  };
}

/** What there is nothing to do for, said instead of an empty review. */
function nothingToDo(op: Operation, summary: PlanSummary): string {
  if (op.kind === 'undo') return t`Nothing to undo: the restore of ${op.what} holds no write that can be put back.`;
  if (op.kind === 'putBack')
    return t`Nothing to put back: the versions the raced deletes removed are no longer kept (${summary.gone.length}).`;
  if (op.kind === 'copy') return t`Nothing to copy: ${op.what} holds what ${op.copyOf ?? ''} holds.`;
  if (op.planOf && !op.when) return t`Nothing to apply: ${op.planOf} holds no write for ${op.what}.`;
  return t`Nothing to restore: ${op.what} is as it was at ${op.when ?? ''}.`;
}

/**
 * Plans a new operation into its folder (under a cancellable progress) and opens its review. A plan with nothing to
 * do, a cancel and a failure leave no operation behind.
 */
export async function planAndReview(
  ctx: DataStoresContext,
  fields: Omit<Operation, 'id' | 'planned' | 'state'>,
  title: string,
  plan: (planFile: string, signal: AbortSignal) => Promise<PlanSummary>,
): Promise<OperationReview | undefined> {
  const op = ctx.operations.create(fields);
  let summary: PlanSummary;
  let items: PlanItem[];
  try {
    [summary, items] = await ctx.ui.progress(
      title,
      async (signal) => {
        const s = await plan(ctx.operations.planFile(op), signal);
        return [s, await planItems(ctx.operations.planFile(op), signal)] as const;
      },
      { delayMs: 500 },
    );
  } catch (error) {
    ctx.operations.remove(op);
    throw error;
  }
  if (!items.length) {
    ctx.operations.remove(op);
    void ctx.ui.info(nothingToDo(op, summary));
    return undefined;
  }
  const panel = ctx.openReview(planReview(op, universeWhere(ctx, op), items, summary), handlerFor(ctx, op));
  return { op, panel };
}

/** Opens the review of an operation that ran: each action's outcome, from its files. */
export async function reopen(ctx: DataStoresContext, op: Operation): Promise<OperationReview> {
  const review = await resultOf(ctx, op);
  return { op, panel: ctx.openReview(review, handlerFor(ctx, op)) };
}

async function resultOf(ctx: DataStoresContext, op: Operation) {
  const items = await ctx.ui.progress(
    t`Reading the operation on ${op.what}`,
    (signal) => resultItems(ctx.operations.planFile(op), signal),
    { delayMs: 500 },
  );
  return resultReview(op, universeWhere(ctx, op), items, op.outcome ?? t`Ran`);
}

/**
 * The handler of an operation's review: its buttons (Apply and Continue run it), Cancel and Close close it, and a plan
 * closed unapplied is removed.
 */
export function operationHandler(
  ctx: DataStoresContext,
  op: Operation,
  buttons: Record<string, (panel: ReviewPanel) => Promise<unknown>>,
  open: ReviewHandler['open'] = async () => undefined,
): ReviewHandler {
  return {
    button: async (id, panel) => {
      if (id === 'cancel' || id === 'close') return panel.dispose();
      return Object.hasOwn(buttons, id) ? buttons[id](panel) : undefined;
    },
    open,
    closed: () => {
      if (op.state === 'planned') ctx.operations.remove(op);
    },
  };
}

function handlerFor(ctx: DataStoresContext, op: Operation): ReviewHandler {
  const run = (panel: ReviewPanel) => apply(ctx, op, panel);
  return operationHandler(
    ctx,
    op,
    {
      apply: run,
      continue: run,
      export: async () => (op.state === 'planned' ? exportPlan(ctx, op) : exportFiles(ctx, op)),
      undo: async () => startUndo(ctx, op, auditFileFor(ctx.operations.planFile(op))),
      putBack: async () => startPutBack(ctx, op),
    },
    (item) => openItem(op, item as PlanItem),
  );
}

/**
 * Runs (or continues) the plan; the panel then shows the result, also after a cancel or a failure part way. The panel
 * stays busy (its buttons wait) until the result is shown, so Apply cannot start the run twice.
 */
async function apply(ctx: DataStoresContext, op: Operation, panel: ReviewPanel): Promise<void> {
  const run = runOf(ctx, op);
  if (!(await confirmProductionBulk(ctx.ui, op, wording(run).running))) return;
  const total = panel.current.items.filter((i) => (i as PlanItem).n > 0).length;
  ctx.operations.update(op, { state: 'stopped', applied: new Date().toISOString() });
  panel.busy(t`Running: the notification shows the progress and can cancel it.`);
  let failure: unknown;
  try {
    try {
      const result = await runPlan(ctx, run, total);
      ctx.operations.update(op, { state: result.failed ? 'stopped' : 'applied', outcome: wording(run).done });
      if (op.kind === 'undo' && !result.failed) markUndone(ctx, op);
    } catch (error) {
      ctx.operations.update(op, { outcome: t`${wording(run).stopped} stopped` });
      if (!isCancel(error)) failure = error;
    }
    await showResult(ctx, op, panel);
  } finally {
    panel.busy(undefined);
  }
  if (failure) throw failure;
}

/** The restore or copy an applied undo put back, so it offers no Undo again. */
function markUndone(ctx: DataStoresContext, undo: Operation): void {
  const undone = ctx.operations.list(undo).find((o) => auditFileFor(ctx.operations.planFile(o)) === undo.auditOf);
  if (undone) ctx.operations.update(undone, { undoneBy: undo.id });
}

async function showResult(ctx: DataStoresContext, op: Operation, panel: ReviewPanel): Promise<void> {
  if (!panel.isDisposed) panel.show(await resultOf(ctx, op));
}

/** Undo… of a restore or copy: its own plan, in a review of its own. */
export function startUndo(
  ctx: DataStoresContext,
  of: Pick<Operation, 'connectionId' | 'universeId' | 'datastoreName' | 'what' | 'when'>,
  auditFile: string,
): Promise<OperationReview | undefined> {
  const { connectionId, universeId, datastoreName, what, when } = of;
  return planAndReview(
    ctx,
    { kind: 'undo', connectionId, universeId, datastoreName, what, when, auditOf: auditFile },
    t`Planning the undo of the restore of ${what}`,
    (planFile, signal) => ctx.timeMachine.planUndo(of, auditFile, planFile, signal),
  );
}

/** Put Back…: re-creates the values a run's raced deletes removed, reviewed first. */
function startPutBack(ctx: DataStoresContext, op: Operation): Promise<OperationReview | undefined> {
  const auditFile = auditFileFor(ctx.operations.planFile(op));
  const { connectionId, universeId, datastoreName, what } = op;
  return planAndReview(
    ctx,
    { kind: 'putBack', connectionId, universeId, datastoreName, what, auditOf: auditFile },
    t`Planning the put-back of what another writer wrote to ${what}`,
    (planFile, signal) => ctx.timeMachine.planPutBack(op, auditFile, planFile, signal),
  );
}

/** A row's difference: the key now against the value the plan writes (a delete: the key now). */
async function openItem(op: Operation, item: PlanItem): Promise<void> {
  const address = { ...op, scope: item.scope, key: item.key };
  const value = planValueUri(op.id, item.n, item.key);
  if (item.action === 'delete') {
    await vscode.window.showTextDocument(entryUri(address), { preview: true });
    return;
  }
  if (item.action === 'recreate' && op.state === 'planned') {
    await vscode.window.showTextDocument(value, { preview: true });
    return;
  }
  const title = diffTitle(item.key, t`current`, t`the plan's value`);
  await vscode.commands.executeCommand('vscode.diff', entryUri(address), value, title, { preview: true });
}

/** Export Plan…: a copy of the plan file where the user chooses (the only way a plan reaches the workspace). */
async function exportPlan(ctx: DataStoresContext, op: Operation): Promise<string | undefined> {
  const uri = await ctx.ui.saveDialog({
    title: t`Export the plan on ${op.what}`,
    saveLabel: t`Export`,
    filters: ndjsonFilters(),
    defaultUri: workspaceFile(op.datastoreName, `${op.kind}-plan-${fileStamp(new Date(op.planned))}`),
  });
  if (!uri) return undefined;
  const file = localPath(uri);
  await fs.promises.copyFile(ctx.operations.planFile(op), file);
  void ctx.ui.info(t`Exported the plan on ${op.what} to ${path.basename(file)}.`);
  return file;
}

/** Export Files…: the plan with its audit, skipped and failure lists, into a folder the user chooses. */
export async function exportFiles(ctx: DataStoresContext, op: Operation): Promise<string[] | undefined> {
  const [folder] = required(
    await ctx.ui.openDialog({
      title: t`Export the files of the operation on ${op.what} to a folder`,
      openLabel: t`Export Here`,
      canSelectFiles: false,
      canSelectFolders: true,
      canSelectMany: false,
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    }),
  );
  const dir = localPath(folder);
  const baseOf = (store: string) =>
    `${store.replace(/[\\/:*?"<>|]/g, '_')}-${op.kind}-${fileStamp(new Date(op.planned))}`;
  // An erase keeps one plan a store, each in a folder of its own.
  const sources =
    op.kind === 'erase'
      ? (op.stores ?? []).map((store, i) => ({ from: path.dirname(ctx.operations.storePlanFile(op, i)), store }))
      : [{ from: ctx.operations.folder(op), store: op.datastoreName }];
  const written: string[] = [];
  for (const { from, store } of sources)
    for (const name of await fs.promises.readdir(from)) {
      if (!name.startsWith('plan.ndjson')) continue;
      const target = path.join(dir, `${baseOf(store)}${name.slice('plan'.length)}`);
      await fs.promises.copyFile(path.join(from, name), target);
      written.push(target);
    }
  void ctx.ui.info(t`Exported ${written.map((f) => path.basename(f)).join(', ')}.`);
  return written;
}
