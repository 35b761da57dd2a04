// Import… as a reviewed operation: the dry run (planImport: create, overwrite, skip, invalid per line) in a review
// panel, then the import itself, whose result the panel shows: each line written, skipped or failed (with why). The
// planned actions and the failures live in the operation's folder, not next to the file imported.
import fs = require('node:fs');
import { planImport, type ImportMode, type ImportPlan, type ImportPlanAction, type ImportResult } from '../../api';
import { isCancel } from '../../core/errors';
import { formatBytes } from '../../core/format';
import type { Review, ReviewHandler, ReviewItem, ReviewPanel } from '../../core/review/panel';
import type { Tone } from '../../core/review/protocol';
import { confirmProductionBulk } from '../../core/confirmWrite';
import { t } from '../../core/text';
import { count, runBulk } from '../commands/bulk';
import type { DataStoresContext } from '../commands/context';
import type { StoreRef } from '../listState';
import type { Operation } from './operations';
import { headingOf } from './planReview';
import { exportFiles, operationHandler, universeWhere, type OperationReview } from './reviewFlow';

interface ImportItem extends ReviewItem {
  line: number;
}

const lines = (n: number): string => (n === 1 ? t`${count(n)} line` : t`${count(n)} lines`);
const failuresOf = (ctx: DataStoresContext, op: Operation) => `${ctx.operations.planFile(op)}.failures.ndjson`;

const PLANNED: Record<ImportPlanAction['action'], { label: () => string; tone: Tone }> = {
  create: { label: () => t`create`, tone: 'add' },
  overwrite: { label: () => t`overwrite`, tone: 'change' },
  skip: { label: () => t`skip`, tone: 'skip' },
  invalid: { label: () => t`invalid`, tone: 'fail' },
};

function itemOf(a: ImportPlanAction): ImportItem {
  return {
    line: a.line,
    key: a.key,
    scope: a.scope,
    kind: a.action,
    bytes: a.action === 'invalid' ? undefined : a.bytes,
    version: t`line ${a.line}`,
    note: a.action === 'skip' ? t`already there` : a.reason,
    opens: false,
  };
}

/** The planned actions, kept with the operation (one JSON line each) so its review can be opened again. */
async function keepPlan(ctx: DataStoresContext, op: Operation, plan: ImportPlan): Promise<void> {
  const text = plan.actions.map((a) => `${JSON.stringify(a)}\n`).join('');
  await fs.promises.writeFile(
    ctx.operations.planFile(op),
    `${JSON.stringify({ importPlan: { mode: plan.mode } })}\n${text}`,
  );
}

async function readPlan(ctx: DataStoresContext, op: Operation): Promise<ImportPlanAction[]> {
  const text = await fs.promises.readFile(ctx.operations.planFile(op), 'utf8');
  return text
    .split('\n')
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as ImportPlanAction);
}

function planReview(op: Operation, where: string, plan: ImportPlan): Review {
  const c = plan.counts;
  const total = c.create + c.overwrite + c.skip + c.invalid;
  return {
    title: t`Import into ${op.datastoreName}`,
    ...headingOf(op, where),
    phase: 'plan',
    summary: t`${count(c.create)} to create, ${count(c.overwrite)} to overwrite, ${count(c.skip)} to skip (already there), ${count(c.invalid)} invalid (${lines(total)}); ${formatBytes(c.bytes)} to write.`,
    notes: [
      op.importMode === 'createOnly'
        ? t`Create Only: a key that exists is left alone, also one created by someone else before the import reaches it.`
        : t`Overwrite: an existing key gets the line's value; a line without attributes or user ids keeps the key's own.`,
      ...(c.invalid ? [t`Invalid lines are not sent; the result lists them with the failed ones.`] : []),
    ],
    kinds: (Object.keys(PLANNED) as ImportPlanAction['action'][]).map((id) => ({
      id,
      label: PLANNED[id].label(),
      tone: PLANNED[id].tone,
    })),
    items: plan.actions.map(itemOf),
    buttons: [
      { id: 'apply', label: t`Import`, primary: true },
      { id: 'export', label: t`Export Plan…` },
      { id: 'cancel', label: t`Cancel`, title: t`Close without writing anything; the plan is removed` },
    ],
  };
}

/** The result: the planned lines as they came out (failures from the failures file), with the import's own counts. */
async function resultReview(ctx: DataStoresContext, op: Operation): Promise<Review> {
  const failed = new Map<number, string>();
  try {
    for (const text of (await fs.promises.readFile(failuresOf(ctx, op), 'utf8')).split('\n')) {
      if (!text.trim()) continue;
      const f = JSON.parse(text) as { line?: number; error?: string };
      if (typeof f.line === 'number') failed.set(f.line, String(f.error));
    }
  } catch {
    // no failures file: nothing failed
  }
  const upTo = op.importLine ?? Infinity;
  const items = (await readPlan(ctx, op)).map((a): ImportItem => {
    const item = itemOf(a);
    const error = failed.get(a.line);
    if (error !== undefined) return { ...item, kind: 'failed', note: error };
    if (a.line > upTo) return { ...item, kind: 'notRun' };
    return { ...item, kind: a.action === 'skip' ? 'skipped' : 'written' };
  });
  const by = (kind: string) => items.filter((i) => i.kind === kind).length;
  const stopped = by('notRun') > 0;
  return {
    title: t`Import into ${op.datastoreName}`,
    ...headingOf(op, universeWhere(ctx, op)),
    phase: 'result',
    summary: op.outcome ?? '',
    notes: [
      ...(stopped ? [t`Continue imports the lines not run.`] : []),
      ...(by('failed') ? [t`Failed lines are listed with their error: fix them in the file and import it again.`] : []),
    ],
    kinds: [
      { id: 'written', label: t`written`, tone: 'change' },
      { id: 'skipped', label: t`skipped`, tone: 'skip' },
      { id: 'failed', label: t`failed`, tone: 'fail' },
      ...(by('notRun') ? [{ id: 'notRun', label: t`not run`, tone: 'skip' as Tone }] : []),
    ],
    items,
    buttons: [
      ...(stopped ? [{ id: 'continue', label: t`Continue`, primary: true }] : []),
      { id: 'export', label: t`Export Files…` },
      { id: 'close', label: t`Close` },
    ],
  };
}

const counted = (r: ImportResult | { written: number; skipped: number; failed: number }): string =>
  t`${count(r.written)} written, ${count(r.skipped)} skipped (already there), ${count(r.failed)} failed`;

/** Runs the import (or the rest of it after a stop), then shows its result in the panel. */
async function apply(ctx: DataStoresContext, op: Operation, panel: ReviewPanel, file: string): Promise<void> {
  const name = op.datastoreName;
  if (!(await confirmProductionBulk(ctx.ui, op, t`import ${op.importFile ?? ''} into ${name}`))) return;
  const fromLine = op.state === 'planned' ? 1 : (op.importLine ?? 0) + 1;
  ctx.operations.update(op, { state: 'stopped', applied: new Date().toISOString() });
  panel.busy(t`Running: the notification shows the progress and can cancel it.`);
  let failure: unknown;
  try {
    const result = await runBulk(ctx, {
      title: t`Importing ${op.importFile ?? ''} into ${name}`,
      connectionId: op.connectionId,
      start: { written: 0, skipped: 0, failed: 0, lastLine: 0 },
      handled: (c) => c.written + c.skipped + c.failed,
      run: (opts) =>
        ctx.timeMachine.import(
          op,
          { file, mode: op.importMode ?? 'createOnly', fromLine, failuresFile: failuresOf(ctx, op) },
          {
            ...opts,
            onProgress: (p) => {
              op.importLine = p.lastLine;
              opts.onProgress?.(p);
            },
          },
        ),
      stopped: (c) =>
        t`Import into ${name} stopped after line ${count(c.lastLine)}: ${counted(c)}. Continue in its review finishes it.`,
    });
    ctx.operations.update(op, {
      state: 'applied',
      importLine: result.lastLine,
      outcome: t`Imported ${op.importFile ?? ''} into ${name}: ${counted(result)}.`,
    });
  } catch (error) {
    ctx.operations.update(op, { outcome: t`The import into ${name} stopped after line ${count(op.importLine ?? 0)}.` });
    if (!isCancel(error)) failure = error;
  }
  try {
    // Busy until the result shows, so Import cannot start twice.
    if (!panel.isDisposed) panel.show(await resultReview(ctx, op));
  } finally {
    panel.busy(undefined);
  }
  if (failure) throw failure;
}

function handlerFor(ctx: DataStoresContext, op: Operation, file: string): ReviewHandler {
  const run = (panel: ReviewPanel) => apply(ctx, op, panel, file);
  return operationHandler(ctx, op, { apply: run, continue: run, export: async () => exportFiles(ctx, op) });
}

/** Plans the import of `file` into the store and opens its review; a cancel or failure leaves no operation. */
export async function planImportReview(
  ctx: DataStoresContext,
  store: StoreRef,
  file: string,
  input: string,
  mode: ImportMode,
): Promise<OperationReview> {
  const { connectionId, universeId, datastoreName } = store;
  const op = ctx.operations.create({
    kind: 'import',
    connectionId,
    universeId,
    datastoreName,
    what: datastoreName,
    importFile: input,
    importPath: file,
    importMode: mode,
  });
  let plan: ImportPlan;
  try {
    plan = await ctx.ui.progress(
      t`Planning the import of ${input} into ${datastoreName}`,
      async (signal) => {
        const client = await ctx.model.client(store);
        const planned = await planImport(
          client,
          { universeId, datastoreName, api: ctx.model.apiVersion(store) },
          file,
          mode,
          { signal },
        );
        await keepPlan(ctx, op, planned);
        return planned;
      },
      { delayMs: 500 },
    );
  } catch (error) {
    ctx.operations.remove(op);
    throw error;
  }
  const panel = ctx.openReview(planReview(op, universeWhere(ctx, op), plan), handlerFor(ctx, op, file));
  return { op, panel };
}

/** Opens the result of an import that ran. */
export async function reopenImport(ctx: DataStoresContext, op: Operation): Promise<OperationReview> {
  const review = await resultReview(ctx, op);
  return { op, panel: ctx.openReview(review, handlerFor(ctx, op, op.importPath ?? '')) };
}
