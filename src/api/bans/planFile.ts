// A ban plan as a file (`universe-explorer.bans/1`): what the command line's `bans ban-many` and `bans
// unban-everywhere`, the editor's Ban Users from a List… and Unban Everywhere…, and the agents' plan tools write, and
// what `applyBans` runs. Its journal lies beside it (`<plan>.journal`). Read back strictly: a plan is a list of
// writes, so a file edited by hand into something else is refused, not guessed at.
import * as z from 'zod/mini';
import type { BanListProblem } from './list';
import type { BanPlan } from './plan';

export const BAN_PLAN_FORMAT = 'universe-explorer.bans/1';

export interface BanPlanFile extends BanPlan {
  format: typeof BAN_PLAN_FORMAT;
  /** Lines of the list that were not used, and why. */
  problems: BanListProblem[];
  /** Unban everywhere: users banned nowhere. */
  clear?: number[];
  /** What the run is, in the user's words (`Raid 26 Nov`), shown with its log entries. */
  label?: string;
}

/** The file's schema, built on its first use (built when the extension loaded, it took about 2 ms of activation). */
let schema: ReturnType<typeof planFileSchema> | undefined;

function planFileSchema() {
  const id = z.number().check(z.int(), z.positive());
  const target = z.object({ universeId: id, placeId: z.optional(id) });
  const state = z.looseObject({
    active: z.boolean(),
    duration: z.optional(z.nullable(z.string())),
    startTime: z.optional(z.string()),
    displayReason: z.string(),
    privateReason: z.string(),
    excludeAltAccounts: z.boolean(),
    inherited: z.boolean(),
  });
  const change = z.enum(['new', 'longer', 'shorter', 'changed', 'lift', 'same', 'notBanned', 'inherited']);
  const write = z.object({
    active: z.boolean(),
    durationSeconds: z.optional(z.nullable(id)),
    displayReason: z.optional(z.string()),
    privateReason: z.optional(z.string()),
    excludeAltAccounts: z.optional(z.boolean()),
  });
  const action = z.object({
    n: z.number().check(z.int(), z.nonnegative()),
    userId: id,
    target,
    change,
    now: z.optional(state),
    write: z.optional(write),
    line: z.optional(z.number()),
  });
  return z.object({
    format: z.literal(BAN_PLAN_FORMAT),
    kind: z.enum(['ban', 'unban']),
    targets: z.array(target),
    actions: z.array(action),
    planned: z.string(),
    problems: z.array(z.object({ line: z.number(), text: z.string(), reason: z.string() })),
    clear: z.optional(z.array(id)),
    label: z.optional(z.string()),
  });
}

export class BanPlanFileError extends Error {}

/** The file's text: one action a line, so a diff or a `grep` of a plan reads well. */
export function banPlanText(plan: BanPlanFile): string {
  const { actions, ...head } = plan;
  const lines = actions.map((a) => `  ${JSON.stringify(a)}`);
  return `${JSON.stringify(head, null, 1).replace(/\n}$/, `,\n "actions": [\n${lines.join(',\n')}\n ]\n}`)}\n`;
}

/** Reads a plan file's text; a BanPlanFileError says why it is not one. */
export function readBanPlanText(text: string): BanPlanFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new BanPlanFileError(`it is not JSON (${(error as Error).message})`);
  }
  if ((json as { format?: unknown } | null)?.format !== BAN_PLAN_FORMAT)
    throw new BanPlanFileError(`it is not a ban plan (format ${BAN_PLAN_FORMAT})`);
  const read = (schema ??= planFileSchema()).safeParse(json);
  if (!read.success) {
    const issue = read.error.issues[0];
    throw new BanPlanFileError(`the plan is damaged at ${issue.path.join('.') || 'its top'}: ${issue.message}`);
  }
  const plan = read.data as BanPlanFile;
  if (plan.actions.some((a, i) => a.n !== i))
    throw new BanPlanFileError('the plan is damaged: its actions are out of order');
  return plan;
}
