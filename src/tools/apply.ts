// apply_plan: the one tool that writes to the service, and only what a plan tool planned. Restore plans run through
// runRestore (each write conditioned on the version planned, audited, a second run going on where one stopped); a
// ban plan writes the restriction only if it is still as read; a plan of bans of many users runs through applyBans
// (paced, journaled beside its file). The face decides whether each universe may be written.
import fsp = require('node:fs/promises');
import path = require('node:path');
import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod/mini';
import {
  applyBans,
  BanPlanFileError,
  isAbort,
  objectLines,
  readBanPlanText,
  runRestore,
  StoppedError,
  type ApplyProgress,
  type BanPlanFile,
  type OpenApiClient,
  type RestoreResult,
} from '../api';
import { readOf } from './planBans';
import { clientFor } from './planBansMany';
import { readPlan, type BanPlan, type PlanFolder } from './plans';
import { about, failure, tool, ToolError, type Tool, type ToolContext } from './types';

/** Skipped keys a result lists; the skip files hold them all. */
const SKIPS_SHOWN = 20;

async function applyRestore(client: OpenApiClient, folder: PlanFolder, parts: string[], ctx: ToolContext) {
  const totals = { written: 0, recreated: 0, deleted: 0, skipped: 0, failed: 0, earlier: 0 };
  const skippedKeys: { scope: string; key: string; action: string; reason: string }[] = [];
  const files = { auditFiles: [] as string[], skipFiles: [] as string[], failureFiles: [] as string[] };
  let allSkipped = 0;
  for (const part of parts) {
    const file = path.join(folder.dir, path.basename(part));
    let result: RestoreResult;
    try {
      result = await runRestore(client, file, { signal: ctx.signal });
    } catch (error) {
      if (error instanceof StoppedError && !isAbort(error)) throw failure(`cannot apply ${file}`, error.cause);
      throw failure(`cannot apply ${file}`, error);
    }
    for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += result[k];
    files.auditFiles.push(result.auditFile);
    if (result.failuresFile) files.failureFiles.push(result.failuresFile);
    if (result.skippedFile) {
      files.skipFiles.push(result.skippedFile);
      // Every key the runs of this plan left alone, not only this run's.
      for await (const line of objectLines(result.skippedFile)) {
        allSkipped++;
        if (skippedKeys.length < SKIPS_SHOWN) {
          const { scope, key, action, reason } = line as Record<string, string>;
          skippedKeys.push({ scope, key, action, reason });
        }
      }
    }
  }
  return {
    written: totals.written + totals.recreated + totals.deleted,
    skipped: totals.skipped,
    failed: totals.failed,
    earlier: totals.earlier,
    byAction: { write: totals.written, recreate: totals.recreated, delete: totals.deleted },
    skippedKeys,
    more: allSkipped - skippedKeys.length,
    ...files,
    note:
      (allSkipped
        ? 'Skipped keys were changed by someone else after the plan was made and were left alone; plan again to ' +
          'include them. '
        : '') +
      (totals.failed ? 'Failed writes are listed in the failure files: apply the plan again to retry them. ' : '') +
      'The audit files keep what each write replaced, so the run can be undone.',
  };
}

/** A ban plan applied: written when the restriction is as read, else skipped. A second apply answers the first. */
async function applyBan(client: OpenApiClient, folder: PlanFolder, universe: string, ban: BanPlan, ctx: ToolContext) {
  const done = path.join(folder.dir, 'applied.json');
  const earlier = await fsp.readFile(done, 'utf8').catch(() => undefined);
  if (earlier !== undefined) return { ...(JSON.parse(earlier) as object), earlier: 1, written: 0 };
  const address = { universeId: universe, placeId: ban.place, userId: ban.user };
  const who = `user ${ban.user} in ${ban.place ? `place ${ban.place} of ` : ''}universe ${universe}`;
  try {
    const current = await client.restrictions.get(address, { signal: ctx.signal });
    const now = readOf(current.gameJoinRestriction);
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(now)), JSON.parse(JSON.stringify(ban.read)))) {
      const skipFile = path.join(folder.dir, 'skipped.json');
      const skipped = { user: ban.user, reason: 'changed', read: ban.read, now, at: new Date().toISOString() };
      await fsp.writeFile(skipFile, `${JSON.stringify(skipped, null, 2)}\n`);
      return {
        written: 0,
        skipped: 1,
        failed: 0,
        skipFile,
        now,
        note: `the restriction of ${who} changed since the plan was made, so it was left alone: plan again`,
      };
    }
    const after = await client.restrictions.update(
      { ...address, gameJoinRestriction: ban.write, updateMask: 'gameJoinRestriction' },
      { signal: ctx.signal },
    );
    const result = { written: 1, skipped: 0, failed: 0, restriction: readOf(after.gameJoinRestriction) };
    await fsp.writeFile(done, `${JSON.stringify({ ...result, at: new Date().toISOString() }, null, 2)}\n`);
    return { ...result, note: 'The restriction log keeps a record of the change.' };
  } catch (error) {
    throw failure(`cannot apply the plan to ${who}`, error);
  }
}

/** Failures a result lists; the journal holds them all. */
const FAILURES_SHOWN = 20;

/** A plan's ban plan file, read strictly. */
async function readBansFile(folder: PlanFolder, name: string): Promise<{ file: string; plan: BanPlanFile }> {
  const file = path.join(folder.dir, path.basename(name));
  try {
    return { file, plan: readBanPlanText(await fsp.readFile(file, 'utf8')) };
  } catch (error) {
    const why = error instanceof BanPlanFileError ? error.message : (error as NodeJS.ErrnoException).code;
    throw new ToolError(`the plan ${folder.planId} is damaged (${String(why)}): make it again`);
  }
}

/** Every universe the plan writes to: its targets' and its actions'. */
const universesOf = (plan: BanPlanFile): string[] => [
  ...new Set([...plan.targets, ...plan.actions.map((a) => a.target)].map((t) => String(t.universeId))),
];

/** Bans of many users applied: paced under the service's limits, each write journaled, none sent twice. */
async function applyBanMany(
  client: OpenApiClient,
  folder: PlanFolder,
  file: string,
  plan: BanPlanFile,
  ctx: ToolContext,
) {
  const journalFile = `${file}.journal`;
  const onProgress = (p: ApplyProgress) => ctx.progress?.(p.done + p.failed, p.toWrite);
  const result = await applyBans(client, plan, { journalFile, signal: ctx.signal, onProgress }).catch(
    (error: unknown) => {
      throw failure(`cannot apply the plan ${folder.planId}`, error);
    },
  );
  const failures = result.failures.slice(0, FAILURES_SHOWN).map((f) => ({
    user: String(f.userId),
    where: f.where,
    reason: f.reason,
  }));
  return {
    written: result.written,
    earlier: result.earlier,
    skipped: result.skipped,
    failed: result.failures.length,
    failures,
    moreFailures: result.failures.length - failures.length,
    journalFile,
    note:
      (result.earlier ? `${result.earlier} writes were done by an earlier apply and not sent again. ` : '') +
      (result.skipped ? `${result.skipped} were skipped by the plan (already as asked). ` : '') +
      (result.failures.length ? 'Apply the plan again to retry the failed writes. ' : '') +
      'The restriction log keeps a record of each change.',
  };
}

const applyPlan = tool({
  name: 'apply_plan',
  title: 'Apply a plan',
  description:
    'Runs a plan made by a plan_* tool: the only tool that writes to the service, and only when the person running ' +
    'this server allowed writes to every universe the plan writes to (else it refuses and says how to allow it). ' +
    'Entry and single-ban writes are conditioned on what the plan read: a key or restriction changed since is ' +
    'skipped and listed, never overwritten; entry writes are audited (what each replaced is kept for undo). Bans of ' +
    "many users are written as planned, paced at the service's limits (a long list takes minutes). Applying the " +
    'same plan again goes on where a stopped run ended and sends nothing twice. Returns written, skipped and ' +
    'failed counts and the files that list them.',
  kind: 'apply',
  input: z.object({
    planId: about(z.string().check(z.minLength(1)), 'the planId a plan tool returned'),
  }),
  async run({ planId }, ctx) {
    const plan = await readPlan(ctx.plansDir, planId);
    const { manifest } = plan;
    const bans = manifest.bansFile === undefined ? undefined : await readBansFile(plan, manifest.bansFile);
    for (const universe of bans ? [manifest.universe, ...universesOf(bans.plan)] : [manifest.universe]) {
      const refusal = await ctx.refuseApply(universe);
      if (refusal !== undefined) throw new ToolError(refusal);
    }
    const others = bans ? universesOf(bans.plan).filter((u) => u !== manifest.universe) : [];
    const client = await clientFor(ctx, manifest.universe, others);
    const head = { planId, universe: manifest.universe, summary: manifest.summary };
    if (bans) return { ...head, ...(await applyBanMany(client, plan, bans.file, bans.plan, ctx)) };
    if (manifest.ban) return { ...head, ...(await applyBan(client, plan, manifest.universe, manifest.ban, ctx)) };
    if (!manifest.parts?.length) throw new ToolError(`the plan ${planId} holds nothing to apply: make it again`);
    return { ...head, ...(await applyRestore(client, plan, manifest.parts, ctx)) };
  },
});

export const APPLY_TOOLS: Tool[] = [applyPlan];
