// Restore to Time: a plan first (a dry run: what would be written, re-created or deleted, how many bytes, how long),
// then its run, every write conditioned on the version seen when planning, so a key someone changed meanwhile is
// skipped and listed, never overwritten. The plan holds the exact values to write (read when planning), so a run
// only writes. Its progress is its audit file (what was written) and its skipped file: a stopped run goes on where
// it stopped. The audit file is also what `undoRestore` puts back.
//
// Files, NDJSON, next to the plan `<plan>`:
// - `<plan>`: `{"restorePlan":{universeId, datastoreName, selection, time?, planned, undoOf?, copyOf?}}`, then one
//   action per key: `{n, action, scope, key, now, then?, bytes, raw?, attributes?, userIds?}` (raw: the exact JSON text).
// - `<plan>.audit.ndjson`: `{"restoreAudit":{universeId, datastoreName, plan}}`, then one line per write:
//   `{n, action, scope, key, before, written, found?, raced?}`.
// - `<plan>.skipped.ndjson`: `{n, action, scope, key, reason, current?}` per key left alone.
// - `<plan>.failures.ndjson`: `{n, action, scope, key, error}`, replaced each run (failed actions are tried again).
import { open, rm, stat, type FileHandle } from 'node:fs/promises';
import type { OpenApiClient } from '../client';
import { contentMd5, sameWrite } from '../datastores';
import { NotFoundError, PreconditionFailedError } from '../errors';
import type { RateLimit } from '../http';
import type { EntryMetadata, EntryVersion } from '../schemas';
import { LineWriter, readLines } from '../bulk/ndjson';
import {
  bulkRun,
  Progress,
  startRun,
  StoppedError,
  WINDOW_PER_SLOT,
  type BulkOptions,
  type BulkRun,
} from '../bulk/progress';
import { orderedMap } from '../bulk/scheduler';
import { newestVersions, readVersion, type EntryAddress } from './at';
import { compareWithTime, type CompareOptions, type CompareSelection, type KeyComparison } from './compare';

/** write: put back the value then (matchVersion = now); recreate: a key deleted since (exclusiveCreate); delete. */
export type RestoreActionKind = 'write' | 'recreate' | 'delete';

export interface RestoreAction {
  /** 1-based, in plan order. */
  n: number;
  action: RestoreActionKind;
  scope: string;
  key: string;
  /** The key's newest version when planned: live for write and delete, a deletion for recreate. */
  now: string;
  /** The version put back (write, recreate). */
  then?: string;
  /** Bytes of the value written (0 for a delete). */
  bytes: number;
  /** The exact JSON text written (write, recreate). */
  raw?: string;
  attributes?: Record<string, unknown>;
  userIds?: number[];
}

export interface RestorePlanHeader {
  universeId: number | string;
  datastoreName: string;
  selection: { scope?: string; allScopes?: boolean; prefix?: string; userId?: number; keys?: true };
  /** The moment restored (ISO); absent in an undo plan. */
  time?: string;
  planned: string;
  /** The audit file an undo plan puts back. */
  undoOf?: string;
  /** What a copy plan (planCopy) copies from: another store, or an export file. */
  copyOf?:
    { universeId: number | string; datastoreName: string; scope?: string; allScopes?: boolean } | { file: string };
}

/** Requests per minute (and write bytes per minute) the estimate assumes. */
export interface RestoreRate {
  /** Default 300, the documented per-universe limit of Set, Increment and Delete. */
  writesPerMinute?: number;
  /** Default 300, the documented per-universe limit of reads. */
  readsPerMinute?: number;
  /** Default 10 MB, the documented per-universe write throughput. */
  writeBytesPerMinute?: number;
}

export const DEFAULT_RESTORE_RATE: Required<RestoreRate> = {
  writesPerMinute: 300,
  readsPerMinute: 300,
  writeBytesPerMinute: 10 * 1024 * 1024,
};

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

export type SkipReason = 'changed' | 'exists' | 'deleted';

export interface SkippedKey {
  n: number;
  action: RestoreActionKind;
  scope: string;
  key: string;
  /** changed: not the version planned (write, delete); exists: a re-creation found the key; deleted: already gone. */
  reason: SkipReason;
  /** The version found, when known. */
  current?: string;
}

export interface AuditLine {
  n: number;
  action: RestoreActionKind;
  scope: string;
  key: string;
  /** The version the action replaced (a deletion for recreate). */
  before: string;
  /** The version the action made (a deletion for delete). */
  written: string;
  /** Already applied when this run came to it (a stopped run whose write went through), so not sent again. */
  found?: true;
  /** A delete whose version check passed, but the version it deleted was written in between (its `before`). */
  raced?: true;
}

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

export const auditFileFor = (plan: string): string => `${plan}.audit.ndjson`;
export const skippedFileFor = (plan: string): string => `${plan}.skipped.ndjson`;
export const restoreFailuresFileFor = (plan: string): string => `${plan}.failures.ndjson`;

/** Requests per minute from `x-ratelimit-limit` figures such as "300, 300;w=60"; undefined when unreadable. */
export function ratePerMinute(figures: RateLimit | undefined): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)(?:[^;]*;\s*w=(\d+(?:\.\d+)?))?/.exec(figures?.limit ?? '');
  if (!m) return undefined;
  const window = m[2] === undefined ? 60 : Number(m[2]);
  return window > 0 ? (Number(m[1]) * 60) / window : undefined;
}

/** How long a plan's requests and bytes take at `rate`: the slowest of the three limits. */
export function estimateMs(plan: { writes: number; reads: number; bytes: number }, rate: RestoreRate = {}): number {
  const r = { ...DEFAULT_RESTORE_RATE, ...rate };
  const minutes = Math.max(
    plan.writes / r.writesPerMinute,
    plan.reads / r.readsPerMinute,
    plan.bytes / r.writeBytesPerMinute,
  );
  return Math.round(minutes * 60_000);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isAbort = (error: unknown): boolean => error instanceof Error && error.name === 'AbortError';

function formatAction(a: RestoreAction): string {
  const { n, action, scope, key, now, then, bytes, raw, attributes, userIds } = a;
  return `${JSON.stringify({ n, action, scope, key, now, then, bytes, raw, attributes, userIds })}\n`;
}

/** An action line of a plan; throws an Error naming the line when it is not one. */
function parseAction(text: string, line: number): RestoreAction {
  let a: unknown;
  try {
    a = JSON.parse(text);
  } catch (error) {
    throw new Error(`Line ${line} of the plan is not valid JSON (${(error as Error).message})`, { cause: error });
  }
  const ok =
    isRecord(a) &&
    Number.isSafeInteger(a.n) &&
    ['write', 'recreate', 'delete'].includes(a.action as string) &&
    typeof a.scope === 'string' &&
    typeof a.key === 'string' &&
    typeof a.now === 'string' &&
    (a.action === 'delete' || (typeof a.raw === 'string' && typeof a.then === 'string'));
  if (!ok) throw new Error(`Line ${line} of the plan is not a restore action`);
  return a as unknown as RestoreAction;
}

/** The header of a plan file, or an Error saying it is not one. */
async function readHeader(planFile: string): Promise<RestorePlanHeader> {
  for await (const lines of readLines(planFile)) {
    const first = lines[0];
    let parsed: unknown;
    try {
      parsed = JSON.parse(first.text);
    } catch {
      break;
    }
    const h = isRecord(parsed) ? parsed.restorePlan : undefined;
    if (isRecord(h) && typeof h.datastoreName === 'string') return h as unknown as RestorePlanHeader;
    break;
  }
  throw new Error(`${planFile} is not a restore plan: its first line is no {"restorePlan":...} header`);
}

/** Every JSON object line of a file after its header, or none when the file does not exist. */
async function* objectLines(file: string): AsyncGenerator<Record<string, unknown>> {
  try {
    await stat(file);
  } catch {
    return;
  }
  for await (const lines of readLines(file)) {
    for (const line of lines) {
      if (!line.text.trim()) continue;
      const parsed: unknown = JSON.parse(line.text);
      if (isRecord(parsed) && typeof parsed.n === 'number') yield parsed;
    }
  }
}

/** Appends lines one at a time, each written before the next (a run that is killed keeps every line it wrote). */
class Appender {
  private handle?: FileHandle;
  private queue: Promise<void> = Promise.resolve();
  lines = 0;

  constructor(
    readonly file: string,
    private readonly header?: string,
  ) {}

  write(line: string): Promise<void> {
    this.lines++;
    const next = this.queue.then(async () => {
      if (!this.handle) {
        const fresh = !(await stat(this.file).catch(() => undefined))?.size;
        this.handle = await open(this.file, 'a');
        if (fresh && this.header) await this.handle.appendFile(this.header);
      }
      await this.handle.appendFile(line);
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.handle?.close();
  }
}

/** A plan's actions as the plan file is read, in batches. */
async function* planActions(planFile: string, signal: AbortSignal): AsyncGenerator<RestoreAction[]> {
  for await (const lines of readLines(planFile, signal)) {
    yield lines.filter((l) => l.number > 1 && l.text.trim() !== '').map((l) => parseAction(l.text, l.number));
  }
}

/** Lines from a stream of single items, for orderedMap. */
async function* singles<T>(items: AsyncIterable<T>): AsyncGenerator<T[]> {
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
async function writeAction(
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
      if (c.status === 'created') {
        return { n: 0, action: 'delete', scope: c.scope, key: c.key, now: c.now!.version, bytes: 0 };
      }
      return writeAction(run, client, address, c.status === 'changed' ? 'write' : 'recreate', c.then!, c.now!.version);
    };
    const window = run.scheduler.concurrency * WINDOW_PER_SLOT;
    return writePlan(planFile, header, orderedMap(singles(differing()), window, plan), opts.rate, started);
  });
  return { ...summary, unchanged };
}

/** Whether the entry a 412 describes is exactly what the action writes: an earlier attempt of it went through. */
const isOurs = (current: EntryMetadata | undefined, a: RestoreAction): boolean =>
  a.raw !== undefined && sameWrite(current, contentMd5(a.raw), a);

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
  const header = await readHeader(planFile);
  const { universeId, datastoreName } = header;
  const auditFile = auditFileFor(planFile);
  const done = new Set<number>();
  for await (const line of objectLines(auditFile)) done.add(line.n as number);
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
    if (a.action !== 'delete') {
      try {
        const v = await scheduler.run(() =>
          client.datastores.setEntry(
            {
              universeId,
              datastoreName,
              scope: a.scope,
              entryKey: a.key,
              raw: a.raw,
              attributes: a.attributes,
              userIds: a.userIds,
              ...(a.action === 'write' ? { matchVersion: a.now } : { exclusiveCreate: true }),
            },
            call,
          ),
        );
        return { audit: { ...line, before: a.now, written: v.version } };
      } catch (error) {
        if (!(error instanceof PreconditionFailedError)) throw error;
        if (isOurs(error.current, a))
          return { audit: { ...line, before: a.now, written: error.current!.version, found: true } };
        if (a.action === 'write') return skip(error.current ? 'changed' : 'deleted', error.current?.version);
        return skip('exists', error.current?.version);
      }
    }
    // Delete Entry takes no condition: check the version just before, and look after at what was deleted.
    const head = await scheduler.run(() => newestVersions(client, address, 2, undefined, call));
    if (!head[0]) return skip('deleted');
    if (head[0].deleted) {
      if (head[1]?.version === a.now)
        return { audit: { ...line, before: a.now, written: head[0].version, found: true } };
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
    if (previous && previous.version !== a.now) result.raced = true;
    return { audit: result };
  };

  const act = async (run: BulkRun, a: RestoreAction): Promise<Outcome> => {
    let outcome: Outcome;
    try {
      outcome = await perform(run, a);
    } catch (error) {
      if (isAbort(error)) throw error;
      outcome = { error: (error as Error).message };
    }
    // Recorded as soon as it is known, so a stop right after keeps it.
    if ('audit' in outcome) await audit.write(`${JSON.stringify(outcome.audit)}\n`);
    else if ('skip' in outcome) await skipped.write(`${JSON.stringify(outcome.skip)}\n`);
    else {
      const { n, action, scope, key } = a;
      await failures.write(`${JSON.stringify({ n, action, scope, key, error: outcome.error })}\n`);
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
    const window = run.scheduler.concurrency * WINDOW_PER_SLOT;
    for await (const outcomes of orderedMap(toDo(run.signal), window, (a) => act(run, a))) {
      for (const o of outcomes) {
        if ('audit' in o) {
          counts[o.audit.action === 'write' ? 'written' : o.audit.action === 'recreate' ? 'recreated' : 'deleted']++;
          if (o.audit.raced) raced.push(o.audit);
        } else if ('skip' in o) {
          counts.skipped++;
          skippedKeys.push(o.skip);
        } else counts.failed++;
      }
      progress.tick();
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

/** The plan file an undo writes by default: next to the restored plan. */
export const undoPlanFileFor = (auditFile: string): string =>
  `${auditFile.replace(/\.audit\.ndjson$/, '')}.undo.ndjson`;

/** The audit file's header, or an Error saying it is not one. */
async function readAuditHeader(auditFile: string): Promise<{ universeId: number | string; datastoreName: string }> {
  for await (const lines of readLines(auditFile)) {
    try {
      const parsed: unknown = JSON.parse(lines[0].text);
      const h = isRecord(parsed) ? parsed.restoreAudit : undefined;
      if (isRecord(h) && typeof h.datastoreName === 'string') {
        return h as { universeId: number | string; datastoreName: string };
      }
    } catch {
      // said below
    }
    break;
  }
  throw new Error(`${auditFile} is not a restore audit: its first line is no {"restoreAudit":...} header`);
}

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
    const window = run.scheduler.concurrency * WINDOW_PER_SLOT;
    return writePlan(planFile, header, orderedMap(singles(lines()), window, plan), opts.rate, started);
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
