// Undo a restore: a plan that puts back what the audit file says the restore replaced, then its run. Put Back: the
// same for the raced deletes only, which removed a value another writer wrote after the version check.
import type { OpenApiClient } from '../client';
import type { EntryVersion } from '../schemas';
import { bulkRun, type BulkOptions } from '../bulk/progress';
import {
  bytesOf,
  putBackPlanFileFor,
  readAudit,
  readAuditHeader,
  undoPlanFileFor,
  type AuditLine,
  type RestoreAction,
  type RestorePlanHeader,
} from './restoreFormat';
import {
  singles,
  startPlanFile,
  writeAction,
  writePlan,
  type PlanOptions,
  type RestorePlanSummary,
} from './restorePlan';
import { runRestore, type RestoreCounts, type RestoreResult } from './restoreRun';

/** The action that puts back what an audit line replaced, from the line's record when it has one. */
function fromRecord(l: AuditLine, kind: 'write' | 'recreate'): RestoreAction | undefined {
  const r = l.replaced;
  if (!r) return undefined;
  const bytes = Buffer.byteLength(bytesOf(r));
  const value = r.raw !== undefined ? { raw: r.raw } : { base64: r.base64 };
  return {
    n: 0,
    action: kind,
    scope: l.scope,
    key: l.key,
    now: l.written,
    then: l.before,
    bytes,
    ...value,
    attributes: r.attributes,
    userIds: r.userIds,
  };
}

/** Writes a plan that puts back what the audit lines `chosen` replaced. */
async function planFromAudit(
  client: OpenApiClient,
  auditFile: string,
  planFile: string,
  opts: PlanOptions,
  chosen: (l: AuditLine) => boolean,
  of: Pick<RestorePlanHeader, 'undoOf' | 'putBackOf'>,
): Promise<RestorePlanSummary> {
  const started = Date.now();
  const { universeId, datastoreName } = await readAuditHeader(auditFile);
  await startPlanFile(planFile);
  const header: RestorePlanHeader = {
    universeId,
    datastoreName,
    selection: { keys: true },
    planned: new Date().toISOString(),
    ...of,
  };
  return bulkRun(client, opts, async (run) => {
    // In file order, one line at a time: a line may hold a value of up to 4 MiB.
    const lines = async function* (): AsyncGenerator<AuditLine> {
      for await (const line of readAudit(auditFile, run.signal)) if (chosen(line)) yield line;
    };
    const plan = async (l: AuditLine): Promise<RestoreAction | { gone: { scope: string; key: string } }> => {
      const address = { universeId, datastoreName, scope: l.scope, key: l.key };
      if (l.action === 'recreate') {
        return { n: 0, action: 'delete', scope: l.scope, key: l.key, now: l.written, bytes: 0 };
      }
      const kind = l.action === 'write' ? 'write' : 'recreate';
      // An audit without the record (older, or a read that failed) falls back to the history.
      const before = { version: l.before } as EntryVersion;
      return fromRecord(l, kind) ?? writeAction(run, client, address, kind, before, l.written);
    };
    return writePlan(planFile, header, run.map(singles(lines()), plan), opts.rate, started);
  });
}

/**
 * The dry run of an undo: a plan that puts back what the audit lines replaced, each conditioned on the version the
 * restore wrote (a key changed after the restore is skipped when run). A written value becomes a write of the value
 * before; a re-creation a delete; a delete a re-creation of the value before. The value before comes from the audit
 * line's record; an audit without one is read back from the history.
 */
export function planUndo(
  client: OpenApiClient,
  auditFile: string,
  planFile = undoPlanFileFor(auditFile),
  opts: PlanOptions = {},
): Promise<RestorePlanSummary> {
  return planFromAudit(client, auditFile, planFile, opts, () => true, { undoOf: auditFile });
}

/**
 * The dry run of a put-back: for each raced delete of the audit (it removed a version another writer wrote after
 * the check), a re-creation of that version's value, attributes and user ids, only while the key is still deleted.
 */
export function planPutBack(
  client: OpenApiClient,
  auditFile: string,
  planFile = putBackPlanFileFor(auditFile),
  opts: PlanOptions = {},
): Promise<RestorePlanSummary> {
  return planFromAudit(client, auditFile, planFile, opts, (l) => l.raced === true, { putBackOf: auditFile });
}

/** The raced deletes of an audit file: each with the version it removed (`before`) and the deletion (`written`). */
export async function racedDeletes(auditFile: string, signal?: AbortSignal): Promise<AuditLine[]> {
  const raced: AuditLine[] = [];
  for await (const line of readAudit(auditFile, signal)) if (line.raced) raced.push(line);
  return raced;
}

/** Plans from an audit file with `plan`, then runs that plan; progress is the run's. */
async function planThenRun(
  plan: (client: OpenApiClient, auditFile: string, planFile: string, opts: PlanOptions) => Promise<RestorePlanSummary>,
  client: OpenApiClient,
  auditFile: string,
  planFile: string,
  opts: BulkOptions<RestoreCounts>,
): Promise<{ plan: RestorePlanSummary; result: RestoreResult }> {
  const { onProgress, ...rest } = opts;
  const planned = await plan(client, auditFile, planFile, rest);
  const result = await runRestore(client, planFile, { ...rest, onProgress });
  return { plan: planned, result };
}

/** Undoes a restore from its audit file: planUndo, then runRestore of that plan. */
export function undoRestore(
  client: OpenApiClient,
  auditFile: string,
  planFile = undoPlanFileFor(auditFile),
  opts: BulkOptions<RestoreCounts> = {},
): Promise<{ plan: RestorePlanSummary; result: RestoreResult }> {
  return planThenRun(planUndo, client, auditFile, planFile, opts);
}

/** Puts back what the raced deletes of a restore removed: planPutBack, then runRestore of that plan. */
export function putBackRaced(
  client: OpenApiClient,
  auditFile: string,
  planFile = putBackPlanFileFor(auditFile),
  opts: BulkOptions<RestoreCounts> = {},
): Promise<{ plan: RestorePlanSummary; result: RestoreResult }> {
  return planThenRun(planPutBack, client, auditFile, planFile, opts);
}
