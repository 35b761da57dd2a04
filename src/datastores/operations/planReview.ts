// What the review panel shows of a restore-format plan (a restore, its undo, a copy, a put-back): the dry run's rows
// and counts before Apply, and after a run each action's outcome read from the audit, skipped and failure files.
import {
  auditFileFor,
  objectLines,
  readAudit,
  readPlanActions,
  restoreFailuresFileFor,
  skippedFileFor,
  type RestorePlanSummary,
} from '../../api';
import { formatBytes } from '../../core/format';
import type { Review, ReviewItem } from '../../core/review/panel';
import type { ReviewButton, Tone } from '../../core/review/protocol';
import { t } from '../../core/text';
import { count, duration } from '../commands/bulk';
import type { Operation } from './operations';

/** A row of a plan or its result: the action it stands for, so its diff can be opened. */
export interface PlanItem extends ReviewItem {
  n: number;
  action: 'write' | 'recreate' | 'delete' | 'gone';
  /** The key's version when planned (live, or a deletion for a re-create). */
  now?: string;
  /** The version put back. */
  then?: string;
}

const keys = (n: number): string => (n === 1 ? t`${count(n)} key` : t`${count(n)} keys`);

/** The heading and the direction in words, for an operation. */
export function headingOf(op: Operation, where: string): { heading: string; direction: string } {
  const store = t`${op.what} in ${where}`;
  switch (op.kind) {
    case 'restore':
      if (op.planOf && !op.when) return { heading: t`Apply a plan`, direction: t`${op.planOf} → ${store}` };
      return { heading: t`Restore to a time`, direction: t`${store} → as of ${op.when ?? ''}` };
    case 'undo':
      return { heading: t`Undo a restore`, direction: t`${store} → as before the restore` };
    case 'copy':
      return { heading: t`Copy differences`, direction: t`${op.copyOf ?? ''} → ${store}` };
    case 'putBack':
      return {
        heading: t`Put back another writer's values`,
        direction: t`${store} → the values the raced deletes removed`,
      };
    case 'import':
      return { heading: t`Import`, direction: t`${op.importFile ?? ''} → ${store}` };
    case 'erase':
      return { heading: t`Erase player data`, direction: t`${op.what} in ${(op.stores ?? []).join(', ')} of ${where}` };
  }
}

/** What Apply is called for each kind. */
export function applyLabel(op: Operation): string {
  const labels = { restore: t`Restore`, undo: t`Undo`, copy: t`Copy`, putBack: t`Put Back`, import: t`Import` };
  if (op.kind === 'restore' && op.planOf && !op.when) return t`Apply`;
  return op.kind === 'erase' ? t`Erase…` : labels[op.kind];
}

function kindsOf(op: Operation) {
  const copy = op.kind === 'copy';
  return {
    write: { label: copy ? t`overwrite` : t`write`, tone: 'change' as Tone },
    recreate: { label: copy ? t`create` : t`re-create`, tone: 'add' as Tone },
    delete: { label: t`delete`, tone: 'remove' as Tone },
  };
}

/** Every action of a plan file, as rows. */
export async function planItems(planFile: string, signal: AbortSignal): Promise<PlanItem[]> {
  const items: PlanItem[] = [];
  for await (const batch of readPlanActions(planFile, signal))
    for (const a of batch)
      items.push({
        n: a.n,
        key: a.key,
        scope: a.scope,
        kind: a.action,
        action: a.action,
        bytes: a.action === 'delete' ? undefined : a.bytes,
        version: a.action === 'recreate' ? t`none (create only)` : a.now,
        note: a.then ? t`puts back ${a.then}` : undefined,
        now: a.now,
        then: a.then,
      });
  return items;
}

/** The dry run: the plan's rows and counts, with Apply, Export Plan… and Cancel. */
export function planReview(
  op: Operation,
  where: string,
  items: PlanItem[],
  summary: RestorePlanSummary & { extra?: number },
): Review {
  const kinds = kindsOf(op);
  const gone: PlanItem[] = summary.gone.map((g, i) => ({
    n: -1 - i,
    key: g.key,
    scope: g.scope,
    kind: 'gone',
    action: 'gone',
    note: op.kind === 'copy' ? t`deleted from the source since the comparison` : t`its version then is no longer kept`,
    opens: false,
  }));
  const estimate = t`${formatBytes(summary.bytes)}, about ${duration(summary.estimateMs)} at the current rate limit`;
  const counted = [
    t`${count(summary.write)} to ${kinds.write.label}`,
    t`${count(summary.recreate)} to ${kinds.recreate.label}`,
    t`${count(summary.delete)} to ${kinds.delete.label}`,
    op.kind === 'copy' ? t`${count(summary.unchanged)} the same` : t`${count(summary.unchanged)} unchanged`,
  ];
  if (gone.length) counted.push(t`${count(gone.length)} left out`);
  const total = summary.write + summary.recreate + summary.delete + summary.unchanged + gone.length;
  const notes = [
    op.kind === 'undo'
      ? t`Each write is conditioned on the version the restore wrote: a key changed since is skipped and listed.`
      : t`Each write is conditioned on the version seen now: a key someone changes meanwhile is skipped and listed, never overwritten.`,
  ];
  if (op.kind === 'restore' || op.kind === 'copy')
    notes.push(
      t`The run keeps each value it replaces with this operation (Recent Operations), so Undo does not depend on the service's history; it is kept until you forget the operation.`,
    );
  if (summary.extra) notes.push(t`${keys(summary.extra)} only in the target are left alone.`);
  return {
    title: headingOf(op, where).heading,
    ...headingOf(op, where),
    phase: 'plan',
    summary: t`${counted.join(', ')} (${keys(total)}); ${estimate}.`,
    notes,
    kinds: [
      { id: 'write', ...kinds.write },
      { id: 'recreate', ...kinds.recreate },
      { id: 'delete', ...kinds.delete },
      {
        id: 'unchanged',
        label: op.kind === 'copy' ? t`the same` : t`unchanged`,
        tone: 'same',
        count: summary.unchanged,
      },
      ...(gone.length ? [{ id: 'gone', label: t`left out`, tone: 'skip' as Tone }] : []),
    ],
    items: [...items, ...gone],
    buttons: [
      { id: 'apply', label: applyLabel(op), primary: true },
      { id: 'export', label: t`Export Plan…` },
      { id: 'cancel', label: t`Cancel`, title: t`Close without writing anything; the plan is removed` },
    ],
  };
}

const SKIP_REASONS: Record<string, () => string> = {
  changed: () => t`changed since the plan, never overwritten`,
  exists: () => t`created by someone else since the plan`,
  deleted: () => t`already deleted`,
};

const DONE = { write: 'written', recreate: 'recreated', delete: 'deleted' } as const;

/** What each action of a plan came to, from the files its runs wrote. */
export async function resultItems(planFile: string, signal: AbortSignal): Promise<PlanItem[]> {
  const done = new Map<number, { kind: string; note?: string; version?: string }>();
  for await (const line of readAudit(auditFileFor(planFile), signal)) {
    const kind = line.raced ? 'raced' : line.found ? 'earlier' : DONE[line.action];
    const note = line.raced
      ? t`removed ${line.before}, written by another writer after the version check`
      : line.found
        ? t`the key already held this value`
        : undefined;
    done.set(line.n, { kind, note, version: line.written });
  }
  for await (const s of objectLines(skippedFileFor(planFile))) {
    const reason = SKIP_REASONS[String(s.reason)]?.() ?? String(s.reason);
    const current = typeof s.current === 'string' ? t`; now ${s.current}` : '';
    done.set(Number(s.n), { kind: 'skipped', note: `${reason}${current}` });
  }
  for await (const f of objectLines(restoreFailuresFileFor(planFile)))
    done.set(Number(f.n), { kind: 'failed', note: String(f.error) });
  const items = await planItems(planFile, signal);
  for (const item of items) {
    const outcome = done.get(item.n);
    item.kind = outcome?.kind ?? 'notRun';
    item.note = outcome?.note ?? item.note;
    if (outcome?.version) item.version = outcome.version;
  }
  return items;
}

/** After a run: what was done, skipped (why), failed (why) and not run, with Undo, Put Back, Continue and Export. */
export function resultReview(op: Operation, where: string, items: PlanItem[], done: string): Review {
  const copy = op.kind === 'copy';
  const by = new Map<string, number>();
  for (const i of items) by.set(i.kind, (by.get(i.kind) ?? 0) + 1);
  const n = (kind: string) => by.get(kind) ?? 0;
  const kinds = [
    { id: 'written', label: t`written`, tone: 'change' as Tone },
    { id: 'recreated', label: copy ? t`created` : t`re-created`, tone: 'add' as Tone },
    { id: 'deleted', label: t`deleted`, tone: 'remove' as Tone },
    { id: 'raced', label: t`raced`, tone: 'fail' as Tone },
    { id: 'earlier', label: t`already so`, tone: 'same' as Tone },
    { id: 'skipped', label: t`skipped`, tone: 'skip' as Tone },
    { id: 'failed', label: t`failed`, tone: 'fail' as Tone },
    { id: 'notRun', label: t`not run`, tone: 'skip' as Tone },
  ].filter((k) => n(k.id) || ['written', 'recreated', 'deleted', 'skipped', 'failed'].includes(k.id));
  const counted = kinds.map((k) => t`${count(n(k.id))} ${k.label}`).join(', ');
  const notes: string[] = [];
  if (n('raced'))
    notes.push(
      t`${keys(n('raced'))} met another writer between the version check and the delete, so the delete removed that writer's value. Put Back re-creates those values where the key is still deleted, while the service's history holds them (within the hour).`,
    );
  if (n('skipped'))
    notes.push(t`Skipped keys were changed by someone else since the plan: they were never overwritten.`);
  if (n('notRun') || n('failed'))
    notes.push(t`Continue runs the actions not run and tries the failed ones again; Undo puts back what was done.`);
  const buttons: ReviewButton[] = [];
  if (n('notRun') || n('failed')) buttons.push({ id: 'continue', label: t`Continue`, primary: true });
  if ((op.kind === 'restore' || op.kind === 'copy') && !op.undoneBy) {
    const wrote = n('written') + n('recreated') + n('deleted') + n('raced') + n('earlier');
    if (wrote) buttons.push({ id: 'undo', label: t`Undo…`, primary: !buttons.length });
  }
  if (n('raced')) buttons.push({ id: 'putBack', label: t`Put Back…` });
  buttons.push({ id: 'export', label: t`Export Files…` }, { id: 'close', label: t`Close` });
  return {
    title: headingOf(op, where).heading,
    ...headingOf(op, where),
    phase: 'result',
    summary: t`${done}: ${counted} (${keys(items.length)}).`,
    notes,
    kinds,
    items,
    buttons,
  };
}
