// apply_plan: the one tool that writes to the service, and only what a plan tool planned. Restore plans run through
// runRestore (each write conditioned on the version planned, audited, a second run going on where one stopped); a
// ban plan writes the restriction only if it is still as read. The face decides whether a universe may be written.
import fsp = require('node:fs/promises');
import path = require('node:path');
import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod/mini';
import { isAbort, objectLines, runRestore, StoppedError, type OpenApiClient, type RestoreResult } from '../api';
import { readOf } from './planBans';
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

const applyPlan = tool({
  name: 'apply_plan',
  title: 'Apply a plan',
  description:
    'Runs a plan made by a plan_* tool: the only tool that writes to the service, and only when the person running ' +
    "this server allowed writes to the plan's universe (else it refuses and says how to allow it). Each write is " +
    'conditioned on what the plan read: a key or restriction changed since is skipped and listed, never ' +
    'overwritten. Entry writes are audited (what each replaced is kept for undo), and applying the same plan again ' +
    'goes on where a stopped run ended. Returns written, skipped and failed counts and the files that list them.',
  kind: 'apply',
  input: z.object({
    planId: about(z.string().check(z.minLength(1)), 'the planId a plan tool returned'),
  }),
  async run({ planId }, ctx) {
    const plan = await readPlan(ctx.plansDir, planId);
    const { manifest } = plan;
    const refusal = await ctx.refuseApply(manifest.universe);
    if (refusal !== undefined) throw new ToolError(refusal);
    const client = await ctx.client(manifest.universe);
    const head = { planId, universe: manifest.universe, summary: manifest.summary };
    if (manifest.ban) return { ...head, ...(await applyBan(client, plan, manifest.universe, manifest.ban, ctx)) };
    if (!manifest.parts?.length) throw new ToolError(`the plan ${planId} holds nothing to apply: make it again`);
    return { ...head, ...(await applyRestore(client, plan, manifest.parts, ctx)) };
  },
});

export const APPLY_TOOLS: Tool[] = [applyPlan];
