// universe-explorer restore: plan putting a store back as it was at a time (a file, nothing written), apply a plan
// (every write conditioned on the version planned), or plan the undo of an applied plan from its audit.
import fsp = require('node:fs/promises');
import {
  auditFileFor,
  objectLines,
  planRestore,
  planUndo,
  readPlanHeader,
  runRestore,
  StoppedError,
  undoPlanFileFor,
  type RestorePlanSummary,
  type RestoreResult,
  type SkippedKey,
} from '../../api';
import type { Command, Context } from '../command';
import { connect, describeStore, failure, momentOf, requireStore, storeOf } from '../connect';
import { CONNECTION, OUTPUT, STORE, text } from '../options';
import { EXIT, UsageError, type ExitCode } from '../output';
import { count, listed } from './words';

const duration = (ms: number): string =>
  ms < 60_000 ? `${Math.max(1, Math.round(ms / 1000))} s` : `${Math.round(ms / 60_000)} min`;

/** The keys every run of the plan left alone (its skipped file), not only this run's. */
async function skippedByAllRuns(file: string | undefined): Promise<SkippedKey[]> {
  const keys: SkippedKey[] = [];
  if (file) for await (const line of objectLines(file)) keys.push(line as unknown as SkippedKey);
  return keys;
}

/** `PlayerData-restore-20261126T180105.ndjson` in the working folder. */
const defaultPlanFile = (store: string): string =>
  `${store.replace(/[^A-Za-z0-9_-]/g, '_')}-restore-${new Date().toISOString().replace(/[-:]|\.\d+Z$/g, '')}.ndjson`;

/** A plan file that must be there, with its header. */
async function planHeaderOf(file: string) {
  const stat = await fsp.stat(file).catch(() => undefined);
  if (!stat?.isFile()) throw new UsageError(`${file} is not a file: check the plan's path`);
  return readPlanHeader(file).catch((error: Error) => {
    throw new UsageError(`${error.message}: give a plan written by universe-explorer restore`);
  });
}

function reportPlan(ctx: Context, s: RestorePlanSummary): void {
  ctx.out.say(
    `Planned ${count(s.write, 'write')}, ${count(s.recreate, 're-creation')}, ${count(s.delete, 'delete')} ` +
      `(${s.unchanged.toLocaleString('en-US')} unchanged)` +
      `${s.writes ? `; about ${duration(s.estimateMs)} to apply` : ''}. Nothing was written.`,
  );
  if (s.gone.length) {
    ctx.out.say(`${count(s.gone.length, 'key')} could not be planned (its version then is no longer kept):`);
    for (const l of listed(s.gone, (g) => `${g.scope}/${g.key}`)) ctx.out.say(l);
  }
  ctx.out.say(`Plan: ${s.planFile}`);
  ctx.out.say(`Apply it with: universe-explorer restore --apply ${s.planFile}`);
}

const planJson = (s: RestorePlanSummary) => ({
  plan: s.planFile,
  write: s.write,
  recreate: s.recreate,
  delete: s.delete,
  unchanged: s.unchanged,
  gone: s.gone,
  bytes: s.bytes,
  estimateMs: s.estimateMs,
  ms: s.ms,
});

async function plan(ctx: Context): Promise<ExitCode> {
  const store = storeOf(ctx.values);
  const time = momentOf(ctx.values, 'to');
  const prefix = text(ctx.values, 'prefix');
  const file = text(ctx.values, 'out') ?? defaultPlanFile(store.store);
  const { client, universe } = await connect(ctx);
  const what = `${describeStore(store)} of universe ${universe}`;
  let summary: RestorePlanSummary;
  ctx.out.progress(`Planning the restore of ${what}…`);
  try {
    await requireStore(client, universe, store.store, ctx.signal);
    summary = await planRestore(
      client,
      { universeId: universe, datastoreName: store.store, scope: store.scope, allScopes: store.allScopes, prefix },
      time,
      file,
      { signal: ctx.signal, now: new Date() },
    );
  } catch (error) {
    throw failure(`cannot plan the restore of ${what} to ${time.toISOString()}`, error);
  }
  ctx.out.say(`Restore of ${what} to ${time.toISOString()}:`);
  reportPlan(ctx, summary);
  return ctx.out.finish(
    {
      action: 'plan',
      universe,
      store: store.store,
      ...(store.allScopes ? { allScopes: true } : { scope: store.scope }),
      ...(prefix ? { prefix } : {}),
      time: time.toISOString(),
      ...planJson(summary),
    },
    summary.gone.length ? EXIT.partly : EXIT.done,
  );
}

async function apply(ctx: Context, file: string): Promise<ExitCode> {
  const header = await planHeaderOf(file);
  const { client, universe } = await connect(ctx, String(header.universeId));
  const what = `${file} (${header.datastoreName} of universe ${universe})`;
  let result: RestoreResult;
  try {
    result = await runRestore(client, file, {
      signal: ctx.signal,
      onProgress: (p) => ctx.out.progress(`Applying ${file}: ${count(p.written + p.recreated + p.deleted, 'write')}`),
    });
  } catch (error) {
    if (error instanceof StoppedError && error.name !== 'AbortError')
      throw failure(`cannot apply ${what}`, error.cause);
    if (error instanceof StoppedError) ctx.out.note(`Stopped; apply the same plan again to go on where it stopped.`);
    throw failure(`cannot apply ${what}`, error);
  }
  const { written, recreated, deleted, skipped, failed, earlier, ms } = result;
  const skippedKeys = await skippedByAllRuns(result.skippedFile);
  ctx.out.say(
    `Applied ${what}: ${written} written, ${recreated} re-created, ${deleted} deleted, ${skipped} skipped, ` +
      `${failed} failed${earlier ? ` (${earlier} done by an earlier run)` : ''}.`,
  );
  if (skippedKeys.length) {
    ctx.out.say('Skipped (changed by someone else since the plan was made, so left alone):');
    for (const l of listed(skippedKeys, (k) => `${k.scope}/${k.key}: ${k.reason}`)) ctx.out.say(l);
  }
  if (failed) ctx.out.say(`Failures are in ${result.failuresFile}: apply the plan again to retry them.`);
  ctx.out.say(`Audit (what was replaced, for undo): ${result.auditFile}`);
  return ctx.out.finish(
    {
      action: 'apply',
      universe,
      store: header.datastoreName,
      plan: file,
      written,
      recreated,
      deleted,
      skipped,
      failed,
      earlier,
      skippedKeys: skippedKeys.map(({ scope, key, action, reason, current }) => ({
        scope,
        key,
        action,
        reason,
        current,
      })),
      auditFile: result.auditFile,
      ...(result.skippedFile ? { skippedFile: result.skippedFile } : {}),
      ...(result.failuresFile ? { failuresFile: result.failuresFile } : {}),
      ms,
    },
    skippedKeys.length || failed ? EXIT.partly : EXIT.done,
  );
}

async function undo(ctx: Context, applied: string): Promise<ExitCode> {
  const header = await planHeaderOf(applied);
  const audit = auditFileFor(applied);
  if (!(await fsp.stat(audit).catch(() => undefined))?.size) {
    throw new UsageError(`${applied} was never applied (no ${audit}): there is nothing to undo`);
  }
  const file = text(ctx.values, 'out') ?? undoPlanFileFor(audit);
  const { client, universe } = await connect(ctx, String(header.universeId));
  let summary: RestorePlanSummary;
  try {
    summary = await planUndo(client, audit, file, { signal: ctx.signal });
  } catch (error) {
    throw failure(`cannot plan the undo of ${applied}`, error);
  }
  ctx.out.say(`Undo of ${applied} (${header.datastoreName} of universe ${universe}):`);
  reportPlan(ctx, summary);
  return ctx.out.finish(
    { action: 'undo', universe, store: header.datastoreName, undoOf: applied, ...planJson(summary) },
    summary.gone.length ? EXIT.partly : EXIT.done,
  );
}

export const restoreCommand: Command = {
  name: 'restore',
  summary: 'plan putting a store back as it was at a time; --apply <plan> writes it; --undo <plan> plans its undo',
  usage: [
    '--universe <id> --store <name> [--scope <scope> | --all-scopes] --to <time> [--out <plan>] [options]',
    '--apply <plan> [options]',
    '--undo <plan> [--out <plan>] [options]',
  ],
  about:
    'With --to, compares the store with the time and writes a plan (nothing is written to the store): one action a ' +
    'line, each with the version it is conditioned on and the exact value it writes. With --apply, runs a plan: a ' +
    'key someone changed since it was planned is skipped and listed, never overwritten; what each write replaced is ' +
    'kept in <plan>.audit.ndjson. Applying the same plan again goes on where a stopped run ended. With --undo, plans ' +
    'putting back what an applied plan replaced (apply that plan with --apply). Times: 2024-01-15T10:00:00Z, ' +
    '"2024-01-15 10:00" (this machine\'s zone), "3 hours ago", 24h, yesterday 18:00; the service keeps versions ' +
    'for 30 days.',
  options: [
    ['Connection (--universe is read from the plan with --apply and --undo)', CONNECTION],
    ['Store', STORE],
    [
      'Plan',
      {
        to: { type: 'string', value: '<time>', help: 'the time the store is put back to' },
        prefix: { type: 'string', value: '<text>', help: 'only keys that start with this' },
        out: {
          type: 'string',
          value: '<plan>',
          help: 'the plan file written (default <store>-restore-<time>.ndjson here; for --undo <plan>.undo.ndjson)',
        },
        apply: { type: 'string', value: '<plan>', help: 'run this plan' },
        undo: { type: 'string', value: '<plan>', help: 'plan the undo of this applied plan' },
      },
    ],
    ['Output', OUTPUT],
  ],
  json:
    '  plan and undo: {"command":"restore","exitCode":0,"action":"plan"|"undo","universe":"123456","store":"…",\n' +
    '   "scope":"global","time":"…","plan":"<file>","write":3,"recreate":1,"delete":0,"unchanged":96,\n' +
    '   "gone":[{"scope":"global","key":"k"}],"bytes":2048,"estimateMs":800,"ms":310}\n' +
    '  apply: {"command":"restore","exitCode":3,"action":"apply","universe":"123456","store":"…","plan":"<file>",\n' +
    '   "written":2,"recreated":1,"deleted":0,"skipped":1,"failed":0,"earlier":0,\n' +
    '   "skippedKeys":[{"scope":"global","key":"k","action":"write","reason":"changed","current":"<version>"}],\n' +
    '   (skipped, written, …: this run; skippedKeys: every key the runs of this plan left alone)\n' +
    '   "auditFile":"…","skippedFile":"…","failuresFile":"…","ms":900}',
  exits:
    '3: --apply left keys alone (changed since the plan; listed, by this run or an earlier one) or some writes ' +
    'failed; a plan left keys out whose ' +
    'version then is no longer kept.',
  examples: [
    'universe-explorer restore --universe 123456 --store PlayerData --to "3 hours ago" --out rollback.ndjson',
    'universe-explorer restore --apply rollback.ndjson',
    'universe-explorer restore --undo rollback.ndjson && universe-explorer restore --apply rollback.ndjson.undo.ndjson',
  ],
  async run(ctx) {
    const applying = text(ctx.values, 'apply');
    const undoing = text(ctx.values, 'undo');
    if (applying !== undefined || undoing !== undefined) {
      const given = ['to', 'store', 'scope', 'all-scopes', 'prefix'].filter((o) => ctx.values[o] !== undefined);
      if (applying !== undefined && undoing !== undefined) throw new UsageError('--apply and --undo go apart');
      if (given.length) {
        throw new UsageError(
          `--${given[0]} does not go with --${applying ? 'apply' : 'undo'}: the plan names its store`,
        );
      }
      if (applying !== undefined && ctx.values.out !== undefined)
        throw new UsageError('--out does not go with --apply');
      return applying !== undefined ? apply(ctx, applying) : undo(ctx, undoing!);
    }
    return plan(ctx);
  },
};
