// Undo a restore: a plan that puts back what the audit file says the restore replaced, then its run.
import type { OpenApiClient } from '../client';
import type { EntryVersion } from '../schemas';
import { bulkRun, type BulkOptions } from '../bulk/progress';
import {
  objectLines,
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

/**
 * The dry run of an undo: a plan that puts back the versions the audit lines replaced, each conditioned on the
 * version the restore wrote (a key changed after the restore is skipped when run). A written value becomes a write
 * of the value before; a re-creation a delete; a delete a re-creation of the value before.
 */
export async function planUndo(
  client: OpenApiClient,
  auditFile: string,
  planFile = undoPlanFileFor(auditFile),
  opts: PlanOptions = {},
): Promise<RestorePlanSummary> {
  const started = Date.now();
  const { universeId, datastoreName } = await readAuditHeader(auditFile);
  await startPlanFile(planFile);
  const header: RestorePlanHeader = {
    universeId,
    datastoreName,
    selection: { keys: true },
    planned: new Date().toISOString(),
    undoOf: auditFile,
  };
  return bulkRun(client, opts, async (run) => {
    const lines = async function* (): AsyncGenerator<AuditLine> {
      const all: AuditLine[] = [];
      for await (const line of objectLines(auditFile)) all.push(line as unknown as AuditLine);
      yield* all.sort((x, y) => x.n - y.n);
    };
    const plan = async (l: AuditLine): Promise<RestoreAction | { gone: { scope: string; key: string } }> => {
      const address = { universeId, datastoreName, scope: l.scope, key: l.key };
      if (l.action === 'recreate') {
        return { n: 0, action: 'delete', scope: l.scope, key: l.key, now: l.written, bytes: 0 };
      }
      const before = { version: l.before } as EntryVersion;
      return writeAction(run, client, address, l.action === 'write' ? 'write' : 'recreate', before, l.written);
    };
    return writePlan(planFile, header, run.map(singles(lines()), plan), opts.rate, started);
  });
}

/** Undoes a restore from its audit file: planUndo, then runRestore of that plan. */
export async function undoRestore(
  client: OpenApiClient,
  auditFile: string,
  planFile = undoPlanFileFor(auditFile),
  opts: BulkOptions<RestoreCounts> = {},
): Promise<{ plan: RestorePlanSummary; result: RestoreResult }> {
  const { onProgress, ...rest } = opts;
  const plan = await planUndo(client, auditFile, planFile, rest);
  const result = await runRestore(client, planFile, { ...rest, onProgress });
  return { plan, result };
}
