// Restore to Time, the plan: a dry run of what would be written, re-created or deleted, how many bytes and how
// long. The plan holds the exact values to write (read when planning), so a run only writes.
import { rm, stat } from 'node:fs/promises';
import type { OpenApiClient } from '../client';
import type { EntryVersion } from '../schemas';
import { LineWriter } from '../bulk/ndjson';
import { bulkRun, type BulkRun } from '../bulk/progress';
import { readVersion, type EntryAddress } from './at';
import { compareWithTime, type CompareOptions, type CompareSelection, type KeyComparison } from './compare';
import { estimateMs, type RestoreRate } from './restoreEstimate';
import {
  auditFileFor,
  formatAction,
  recordOf,
  restoreFailuresFileFor,
  skippedFileFor,
  type RestoreAction,
  type RestoreActionKind,
  type RestorePlanHeader,
  undoRecordOf,
  type ValueRecord,
} from './restoreFormat';

export interface RestorePlanSummary extends Record<RestoreActionKind, number> {
  planFile: string;
  /** Selected keys that need nothing (the same version then and now). */
  unchanged: number;
  /** Keys whose version then could not be read any more (thinned or expired since it was listed): not planned. */
  gone: { scope: string; key: string }[];
  /** Bytes the writes send. */
  bytes: number;
  /** Requests the run makes: one per write, one per delete plus two version checks (reads). */
  writes: number;
  reads: number;
  /** How long the run takes at `rate`. */
  estimateMs: number;
  ms: number;
}

export interface PlanOptions extends Omit<CompareOptions, 'onProgress'> {
  rate?: RestoreRate;
}

/** Batches of one from a stream of single items, for a run's map. */
export async function* singles<T>(items: AsyncIterable<T>): AsyncGenerator<T[]> {
  for await (const item of items) yield [item];
}

/** Refuses to plan into a file whose audit holds an earlier restore (undo needs it); clears its other files. */
export async function startPlanFile(planFile: string): Promise<void> {
  const audit = await stat(auditFileFor(planFile)).catch(() => undefined);
  if (audit?.size) {
    throw new Error(
      `${auditFileFor(planFile)} holds the audit of an earlier restore (undo needs it): plan into another file, ` +
        'or move that one first',
    );
  }
  await rm(skippedFileFor(planFile), { force: true });
  await rm(restoreFailuresFileFor(planFile), { force: true });
}

/** Writes the plan's actions as they come, in order, and counts them into a summary. */
export async function writePlan(
  planFile: string,
  header: RestorePlanHeader,
  actions: AsyncIterable<(RestoreAction | { gone: { scope: string; key: string } })[]>,
  rate: RestoreRate | undefined,
  started: number,
): Promise<RestorePlanSummary> {
  const summary: RestorePlanSummary = {
    planFile,
    write: 0,
    recreate: 0,
    delete: 0,
    unchanged: 0,
    gone: [],
    bytes: 0,
    writes: 0,
    reads: 0,
    estimateMs: 0,
    ms: 0,
  };
  const out = await LineWriter.open(planFile, 'w');
  try {
    out.write(`${JSON.stringify({ restorePlan: header })}\n`);
    let n = 0;
    for await (const run of actions) {
      for (const a of run) {
        if ('gone' in a) {
          summary.gone.push(a.gone);
          continue;
        }
        a.n = ++n;
        out.write(formatAction(a));
        summary[a.action]++;
        summary.bytes += a.bytes;
        summary.writes++;
        if (a.action === 'delete') summary.reads += 2;
      }
      if (out.full) await out.flush();
    }
  } finally {
    await out.close();
  }
  summary.estimateMs = estimateMs(summary, rate);
  summary.ms = Date.now() - started;
  return summary;
}

/** An action that writes `version`'s value back, or `gone` when it cannot be read any more. */
export async function writeAction(
  run: BulkRun,
  client: OpenApiClient,
  address: EntryAddress & { scope: string },
  kind: 'write' | 'recreate',
  version: EntryVersion,
  now: string,
): Promise<RestoreAction | { gone: { scope: string; key: string } }> {
  const entry = await run.scheduler.run(() => readVersion(client, address, version, { signal: run.signal }));
  if (!entry) return { gone: { scope: address.scope, key: address.key } };
  const raw = entry.raw.toString('utf8');
  return {
    n: 0,
    action: kind,
    scope: address.scope,
    key: address.key,
    now,
    then: version.version,
    bytes: entry.raw.length,
    raw,
    attributes: entry.attributes,
    userIds: entry.userIds,
  };
}

/** What `version` holds now, for the run to keep as what it replaced; undefined when it cannot be read. */
async function replaced(
  run: BulkRun,
  client: OpenApiClient,
  address: EntryAddress & { scope: string },
  version: EntryVersion,
): Promise<ValueRecord | undefined> {
  const entry = await run.scheduler.run(() => readVersion(client, address, version, { signal: run.signal }));
  return entry && recordOf(entry);
}

/**
 * The dry run: compares the selection with `time` and writes the plan of what would put it back to `planFile`
 * (replacing it), reading the value then of every key to write. Returns the counts, bytes, requests and estimate.
 * Refused when `<planFile>.audit.ndjson` holds an earlier restore.
 */
export async function planRestore(
  client: OpenApiClient,
  selection: CompareSelection,
  time: Date,
  planFile: string,
  opts: PlanOptions = {},
): Promise<RestorePlanSummary> {
  const started = Date.now();
  await startPlanFile(planFile);
  const { universeId, datastoreName } = selection;
  const header: RestorePlanHeader = {
    universeId,
    datastoreName,
    selection: {
      scope: selection.allScopes ? undefined : (selection.scope ?? 'global'),
      allScopes: selection.allScopes || undefined,
      prefix: selection.prefix,
      userId: selection.userId,
      keys: selection.keys ? true : undefined,
    },
    time: time.toISOString(),
    planned: new Date().toISOString(),
    undoRecord: undoRecordOf(planFile),
  };
  let unchanged = 0;
  const summary = await bulkRun(client, opts, async (run) => {
    const compared = compareWithTime(client, selection, time, { ...opts, signal: run.signal });
    const differing = async function* (): AsyncGenerator<KeyComparison> {
      for await (const c of compared) {
        if (c.status === 'unchanged') unchanged++;
        else yield c;
      }
    };
    const plan = async (c: KeyComparison): Promise<RestoreAction | { gone: { scope: string; key: string } }> => {
      const address = { universeId, datastoreName, scope: c.scope, key: c.key };
      // What a write or delete replaces is read now and kept by the run: Undo then needs no version from history.
      const replaces = c.status === 'deleted' ? undefined : replaced(run, client, address, c.now!);
      if (c.status === 'created') {
        const a: RestoreAction = { n: 0, action: 'delete', scope: c.scope, key: c.key, now: c.now!.version, bytes: 0 };
        return { ...a, replaces: await replaces };
      }
      const kind = c.status === 'changed' ? 'write' : 'recreate';
      const [a, was] = await Promise.all([writeAction(run, client, address, kind, c.then!, c.now!.version), replaces]);
      return 'gone' in a ? a : { ...a, replaces: was };
    };
    return writePlan(planFile, header, run.map(singles(differing()), plan), opts.rate, started);
  });
  return { ...summary, unchanged };
}
