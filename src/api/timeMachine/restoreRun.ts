// Restore to Time, the run of a plan: every write conditioned on the version seen when planning, so a key someone
// changed meanwhile is skipped and listed, never overwritten. Its progress is its audit file (what was written) and
// its skipped file: a stopped run goes on where it stopped. The audit file is also what an undo puts back: each line
// keeps the value the action replaced (from the plan, or read just after a raced delete).
import { rm, stat } from 'node:fs/promises';
import type { OpenApiClient } from '../client';
import { contentMd5, sameWrite } from '../datastores';
import { isAbort, NotFoundError, PreconditionFailedError } from '../errors';
import type { EntryMetadata } from '../schemas';
import { Progress, startRun, StoppedError, type BulkOptions, type BulkRun } from '../bulk/progress';
import { newestVersions, readVersion } from './at';
import {
  Appender,
  auditFileFor,
  bytesOf,
  objectLines,
  planActions,
  readAudit,
  readPlanHeader,
  recordOf,
  restoreFailuresFileFor,
  skippedFileFor,
  type AuditLine,
  type RestoreAction,
  type SkippedKey,
  type SkipReason,
} from './restoreFormat';

export interface RestoreCounts {
  written: number;
  recreated: number;
  deleted: number;
  skipped: number;
  failed: number;
  /** Actions done by an earlier run of the plan (in its audit or skipped file), left alone. */
  earlier: number;
}

export interface RestoreResult extends RestoreCounts {
  ms: number;
  auditFile: string;
  /** Keys skipped by this run (all runs: the skipped file). */
  skippedKeys: SkippedKey[];
  /** Deletes that met another writer between their check and the delete (see AuditLine.raced). */
  raced: AuditLine[];
  skippedFile?: string;
  failuresFile?: string;
}

/** What a run that stopped before the end of its plan rejects with; `result` says what it had done. */
export const RestoreStoppedError = StoppedError;
export type RestoreStoppedError = StoppedError<RestoreResult>;

/** Whether the entry a 412 describes is exactly what the action writes: an earlier attempt of it went through. */
const isOurs = (current: EntryMetadata | undefined, a: RestoreAction): boolean =>
  a.action !== 'delete' && sameWrite(current, contentMd5(bytesOf(a)), a);

type Outcome = { audit: AuditLine } | { skip: SkippedKey } | { error: string };

/**
 * Runs a plan: each action conditioned as planned (write: matchVersion; recreate: exclusiveCreate; delete: a version
 * check just before it), paced like import. A key not as planned is skipped and listed, never written. Every write
 * is appended to the audit file as it is done; a second run of the same plan leaves alone what the audit and
 * skipped files already hold. A stop rejects with RestoreStoppedError (name AbortError for a cancel).
 */
export async function runRestore(
  client: OpenApiClient,
  planFile: string,
  opts: BulkOptions<RestoreCounts> = {},
): Promise<RestoreResult> {
  const header = await readPlanHeader(planFile);
  const { universeId, datastoreName } = header;
  const auditFile = auditFileFor(planFile);
  const done = new Set<number>();
  for await (const line of readAudit(auditFile)) done.add(line.n);
  for await (const line of objectLines(skippedFileFor(planFile))) done.add(line.n as number);

  const audit = new Appender(
    auditFile,
    `${JSON.stringify({ restoreAudit: { universeId, datastoreName, plan: planFile } })}\n`,
  );
  const skipped = new Appender(skippedFileFor(planFile));
  await rm(restoreFailuresFileFor(planFile), { force: true });
  const failures = new Appender(restoreFailuresFileFor(planFile));
  const progress = new Progress<RestoreCounts>(
    { written: 0, recreated: 0, deleted: 0, skipped: 0, failed: 0, earlier: 0 },
    (c) => c.written + c.recreated + c.deleted + c.skipped + c.failed,
    opts.onProgress,
  );
  const skippedKeys: SkippedKey[] = [];
  const raced: AuditLine[] = [];

  const perform = async ({ signal, scheduler }: BulkRun, a: RestoreAction): Promise<Outcome> => {
    const call = { signal };
    const address = { universeId, datastoreName, scope: a.scope, key: a.key };
    const line = { n: a.n, action: a.action, scope: a.scope, key: a.key };
    const skip = (reason: SkipReason, current?: string): Outcome => ({ skip: { ...line, reason, current } });
    // A write or delete that went through replaced `now`: what it held, read when planned, goes into the audit.
    const kept = (l: AuditLine): Outcome => ({ audit: a.replaces ? { ...l, replaced: a.replaces } : l });
    if (a.action !== 'delete') {
      try {
        const v = await scheduler.run(() =>
          client.datastores.setEntry(
            {
              universeId,
              datastoreName,
              scope: a.scope,
              entryKey: a.key,
              raw: bytesOf(a),
              attributes: a.attributes,
              userIds: a.userIds,
              ...(a.action === 'write' ? { matchVersion: a.now } : { exclusiveCreate: true }),
            },
            call,
          ),
        );
        return kept({ ...line, before: a.now, written: v.version });
      } catch (error) {
        if (!(error instanceof PreconditionFailedError)) throw error;
        if (isOurs(error.current, a))
          return kept({ ...line, before: a.now, written: error.current!.version, found: true });
        if (a.action === 'write') return skip(error.current ? 'changed' : 'deleted', error.current?.version);
        return skip('exists', error.current?.version);
      }
    }
    // Delete Entry takes no condition: check the version just before, and look after at what was deleted.
    const head = await scheduler.run(() => newestVersions(client, address, 2, undefined, call));
    if (!head[0]) return skip('deleted');
    if (head[0].deleted) {
      if (head[1]?.version === a.now) return kept({ ...line, before: a.now, written: head[0].version, found: true });
      return skip('deleted', head[0].version);
    }
    if (head[0].version !== a.now) return skip('changed', head[0].version);
    try {
      await scheduler.run(() => client.datastores.deleteEntry({ ...address, entryKey: a.key }, call));
    } catch (error) {
      if (error instanceof NotFoundError) return skip('deleted');
      throw error;
    }
    const after = await scheduler.run(() => newestVersions(client, address, 3, undefined, call));
    const i = after.findIndex((v) => v.deleted);
    const [tomb, previous] = [after[i], after[i + 1]];
    const result: AuditLine = { ...line, before: previous?.version ?? a.now, written: tomb?.version ?? '' };
    if (!previous || previous.version === a.now) return kept(result);
    // Raced: keep the other writer's value now, while the history still holds it (an hour's last write is the tomb).
    result.raced = true;
    const theirs = await scheduler
      .run(() => readVersion(client, address, previous, call))
      .catch((error: unknown) => {
        if (isAbort(error)) throw error;
        return undefined; // Undo and Put Back read the history instead
      });
    return { audit: theirs ? { ...result, replaced: recordOf(theirs) } : result };
  };

  const act = async (run: BulkRun, a: RestoreAction): Promise<Outcome> => {
    let outcome: Outcome;
    try {
      outcome = await perform(run, a);
    } catch (error) {
      if (isAbort(error)) throw error;
      outcome = { error: (error as Error).message };
    }
    // Recorded as soon as it is known, so a stop right after keeps it, with when (an erase's receipt says it).
    const at = new Date().toISOString();
    if ('audit' in outcome) {
      outcome.audit.at = at;
      await audit.write(`${JSON.stringify(outcome.audit)}\n`);
    } else if ('skip' in outcome) {
      outcome.skip.at = at;
      await skipped.write(`${JSON.stringify(outcome.skip)}\n`);
    } else {
      const { n, action, scope, key } = a;
      await failures.write(`${JSON.stringify({ n, action, scope, key, error: outcome.error, at })}\n`);
    }
    return outcome;
  };

  const counts = progress.counts;
  const toDo = async function* (signal: AbortSignal): AsyncGenerator<RestoreAction[]> {
    for await (const batch of planActions(planFile, signal)) {
      counts.earlier += batch.filter((a) => done.has(a.n)).length;
      yield batch.filter((a) => !done.has(a.n));
    }
  };

  let stop: Error | undefined;
  const run = startRun(client, opts);
  try {
    for await (const outcomes of run.map(toDo(run.signal), (a) => act(run, a), { progress })) {
      for (const o of outcomes) {
        if ('audit' in o) {
          counts[o.audit.action === 'write' ? 'written' : o.audit.action === 'recreate' ? 'recreated' : 'deleted']++;
          if (o.audit.raced) raced.push(o.audit);
        } else if ('skip' in o) {
          counts.skipped++;
          skippedKeys.push(o.skip);
        } else counts.failed++;
      }
    }
  } catch (error) {
    stop = error as Error;
  } finally {
    run.end();
    await Promise.all([audit.close(), skipped.close(), failures.close()]);
  }
  const ms = progress.end();
  const result: RestoreResult = {
    ...counts,
    ms,
    auditFile,
    skippedKeys,
    raced,
    skippedFile: (await stat(skipped.file).catch(() => undefined)) ? skipped.file : undefined,
    failuresFile: failures.lines ? failures.file : undefined,
  };
  if (stop) throw new StoppedError(stop, result, 'RestoreStoppedError');
  return result;
}
