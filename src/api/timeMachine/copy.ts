// "Copy to…": compare two stores (compareStores), then plan what makes the target hold the source's entries, as a
// restore plan for the TARGET store (the format of restoreFormat.ts, its header saying `copyOf` what), so runRestore runs
// it with the same conditions, pacing, audit and resumption, and undoRestore undoes it from its audit.
// - different: `write` of the source's exact value, attributes and user ids, conditioned on the target's version
//   seen (`now`); `then` is the source's version (another store's: only a record).
// - onlySource: `recreate`, run with exclusiveCreate, which creates a key that never was as well as one deleted;
//   `now` is "" (no live version on the target), which the audit keeps as `before`.
// - onlyTarget: `delete` (checked against `now`, as planRestore's deletes) only with `deleteExtra`; else counted.
// - same: nothing (counted as `unchanged`).
// A live source is read once more per key to copy (compareStores does not keep values); an export file source's line
// comes with its comparison (compareSides).
import type { EntryKey } from '../datastores';
import { NotFoundError } from '../errors';
import type { EntryLine } from '../bulk/ndjson';
import { startRun, type BulkRun } from '../bulk/progress';
import {
  compareSides,
  type CompareSide,
  type CompareStoresOptions,
  type FileSide,
  type LiveSide,
  type StoresComparison,
} from './compareStores';
import type { RestoreAction, RestorePlanHeader } from './restoreFormat';
import type { RestoreRate } from './restoreEstimate';
import { startPlanFile, writePlan, type RestorePlanSummary } from './restorePlan';

export interface CopyOptions extends Omit<CompareStoresOptions, 'onProgress'> {
  /** Delete the target's keys the source does not have (default false: a copy only adds and overwrites). */
  deleteExtra?: boolean;
  rate?: RestoreRate;
}

export interface CopyPlanSummary extends RestorePlanSummary {
  /** Keys only the target has, left alone (without deleteExtra). */
  extra: number;
}

type Planned = RestoreAction | { gone: { scope: string; key: string } };

const isFile = (side: CompareSide): side is FileSide => 'file' in side;

/** A side's scope for a compared key: the key's own with all scopes, else the side's one scope. */
const scopeOf = (side: LiveSide, c: EntryKey): string => (side.allScopes ? c.scope : (side.scope ?? 'global'));

/**
 * The dry run of a copy: compares `source` with `target` and writes to `planFile` (replacing it) the plan that makes
 * the target hold the source's entries, to be run by `runRestore(targetClient, planFile)`. Returns the counts (same
 * keys as `unchanged`), bytes, requests and estimate. Refused when `<planFile>.audit.ndjson` holds an earlier run.
 */
export async function planCopy(
  source: CompareSide,
  target: LiveSide,
  planFile: string,
  opts: CopyOptions = {},
): Promise<CopyPlanSummary> {
  const started = Date.now();
  if (isFile(target as CompareSide)) throw new Error('A copy goes to a live store, not to a file');
  await startPlanFile(planFile);
  const header: RestorePlanHeader = {
    universeId: target.universeId,
    datastoreName: target.datastoreName,
    selection: {
      scope: target.allScopes ? undefined : (target.scope ?? 'global'),
      allScopes: target.allScopes || undefined,
      prefix: target.prefix,
    },
    planned: new Date().toISOString(),
    copyOf: isFile(source)
      ? { file: source.file }
      : {
          universeId: source.universeId,
          datastoreName: source.datastoreName,
          scope: source.allScopes ? undefined : (source.scope ?? 'global'),
          allScopes: source.allScopes || undefined,
        },
  };
  const run = startRun(isFile(source) ? target.client : source.client, opts);
  let [unchanged, extra] = [0, 0];
  try {
    const compared = compareSides(source, target, { ...opts, signal: run.signal });
    const toPlan = async function* (): AsyncGenerator<[StoresComparison, EntryLine | undefined][]> {
      for await (const { result: c, sourceLine } of compared) {
        if (c.status === 'same') unchanged++;
        else if (c.status === 'onlyTarget' && !opts.deleteExtra) extra++;
        else yield [[c, sourceLine]];
      }
    };
    const plan = ([c, line]: [StoresComparison, EntryLine | undefined]): Promise<Planned> =>
      planKey(run, source, target, c, line);
    const summary = await writePlan(planFile, header, run.map(toPlan(), plan), opts.rate, started);
    return { ...summary, unchanged, extra };
  } finally {
    run.end();
  }
}

async function planKey(
  run: BulkRun,
  source: CompareSide,
  target: LiveSide,
  c: StoresComparison,
  line: EntryLine | undefined,
): Promise<Planned> {
  const scope = scopeOf(target, c);
  if (c.status === 'onlyTarget') {
    return { n: 0, action: 'delete', scope, key: c.key, now: c.target!.version!, bytes: 0 };
  }
  let entry: { raw: string; attributes: Record<string, unknown>; userIds: number[]; version?: string } | undefined;
  if (isFile(source)) {
    entry = line && { raw: line.value, attributes: line.attributes, userIds: line.userIds, version: line.version };
  } else {
    try {
      const e = await run.scheduler.run(() =>
        source.client.datastores.getEntry(
          {
            universeId: source.universeId,
            datastoreName: source.datastoreName,
            scope: scopeOf(source, c),
            entryKey: c.key,
          },
          { signal: run.signal },
        ),
      );
      entry = { raw: e.raw.toString('utf8'), attributes: e.attributes, userIds: e.userIds, version: e.version };
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  if (!entry) return { gone: { scope, key: c.key } };
  return {
    n: 0,
    action: c.status === 'different' ? 'write' : 'recreate',
    scope,
    key: c.key,
    now: c.status === 'different' ? c.target!.version! : '',
    then: entry.version ?? '',
    bytes: Buffer.byteLength(entry.raw, 'utf8'),
    raw: entry.raw,
    attributes: entry.attributes,
    userIds: entry.userIds,
  };
}
