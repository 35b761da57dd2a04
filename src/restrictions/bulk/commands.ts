// Bans of many users: Ban Users from a List…, Unban Everywhere…, Review Ban Plan File… (a plan of the command line
// or an agent) and Resume Ban Run…. Each plans first (reads only), shows the plan in the review panel, and writes
// only on Apply there.
import vscode = require('vscode');
import { BAN_PLAN_FORMAT, type BanPlan } from '../../api';
import { pickConnection } from '../../core/prompts';
import { t } from '../../core/text';
import { localTime } from '../../core/time';
import { required } from '../../core/ui';
import { assertWritable, type UniverseAddress } from '../../core/universe';
import type { RestrictionsCommand, RestrictionsContext } from '../commands/context';
import { universeOf } from '../commands/scope';
import { RestrictionNode } from '../tree';
import { runProgress, type BanRun } from '../runs/store';
import { askDefaults } from './presets';
import { usersWord } from './review';
import { openRun } from './run';
import { givenList, nonEmpty, pickList, type UserList } from './sources';
import { pickTargets } from './targets';

/** The universe of a tree node, or `{ connectionId, universeId }` handed over by another view. */
async function startingUniverse(ctx: RestrictionsContext, arg: unknown): Promise<UniverseAddress> {
  const a = arg as { connectionId?: unknown; universeId?: unknown } | null | undefined;
  const u =
    typeof a?.connectionId === 'string' && Number.isSafeInteger(a.universeId)
      ? { connectionId: a.connectionId, universeId: a.universeId as number }
      : await universeOf(ctx, arg);
  assertWritable(u);
  return u;
}

async function saveAndOpen(
  ctx: RestrictionsContext,
  connectionId: string,
  plan: BanPlan,
  found: UserList,
  label?: string,
) {
  const run = await ctx.runs.create(connectionId, {
    format: BAN_PLAN_FORMAT,
    ...plan,
    problems: found.list.problems,
    ...(label ? { label } : {}),
  });
  return openRun(ctx, run, found.source);
}

export const banUsersFromList: RestrictionsCommand = {
  id: 'universeExplorer.banUsersFromList',
  get failure() {
    return t`ban users from a list`;
  },
  /** On a universe's User Restrictions, from the palette, or with `{ connectionId, universeId, userIds | text }`. */
  async run(ctx, arg?: unknown) {
    const u = await startingUniverse(ctx, arg);
    const title = t`Ban users from universe ${u.universeId}`;
    const given = givenList(arg);
    const found = given ? nonEmpty(given) : await pickList(ctx.ui, title);
    const who = usersWord(found.list.rows.length);
    const targets = await pickTargets(ctx.ui, ctx.connections, u, ctx.model.places(u), t`Ban ${who}: where`);
    const defaults = await askDefaults(ctx.ui, who);
    const plan = await ctx.ui.progress(
      t`Reading the bans at ${targets.length} targets`,
      (signal) => ctx.model.planBans(u.connectionId, { kind: 'ban', rows: found.list.rows, targets, defaults, signal }),
      { delayMs: 300 },
    );
    const label = defaults.preset ?? (defaults.privateReason.slice(0, 80) || undefined);
    return saveAndOpen(ctx, u.connectionId, plan, found, label);
  },
};

export const unbanEverywhere: RestrictionsCommand = {
  id: 'universeExplorer.unbanEverywhere',
  get failure() {
    return t`unban everywhere`;
  },
  /** On a restriction row (its user), a universe's User Restrictions, or with `{ connectionId, universeId, userIds }`. */
  async run(ctx, arg?: unknown) {
    const u = await startingUniverse(ctx, arg instanceof RestrictionNode ? arg.parent : arg);
    const title = t`Unban everywhere`;
    const given =
      arg instanceof RestrictionNode
        ? givenList({ userIds: [arg.userId], source: t`user ${arg.userId}` })
        : givenList(arg);
    const found = given ? nonEmpty(given) : await pickList(ctx.ui, title);
    const userIds = found.list.rows.map((r) => r.userId);
    const universeIds = [u.universeId, ...(await otherUniverses(ctx, u, usersWord(userIds.length)))];
    const plan = await ctx.ui.progress(
      t`Looking for the bans of ${usersWord(userIds.length)}`,
      (signal) =>
        ctx.model.planUnbanEverywhere(u.connectionId, {
          universeIds,
          userIds,
          places: ctx.model.places(u).map((placeId) => ({ universeId: u.universeId, placeId })),
          signal,
        }),
      { delayMs: 300 },
    );
    if (!plan.actions.length) {
      const where = universeIds.map((id) => t`universe ${id}`).join(', ');
      void ctx.ui.info(
        userIds.length === 1
          ? t`User ${userIds[0]} is banned nowhere in ${where}: there is nothing to lift.`
          : t`None of the ${userIds.length} users is banned in ${where}: there is nothing to lift.`,
      );
      return undefined;
    }
    return saveAndOpen(ctx, u.connectionId, plan, found);
  },
};

/** Other universes of the connection to look in too (none asked when it has no other). */
async function otherUniverses(ctx: RestrictionsContext, u: UniverseAddress, who: string): Promise<number[]> {
  const others = (ctx.connections.get(u.connectionId)?.universes ?? []).filter((x) => x.id !== u.universeId);
  if (!others.length) return [];
  const picked = required(
    await ctx.ui.pickMany(
      others.map((x) => ({ label: x.name ?? t`universe ${x.id}`, description: String(x.id), id: x.id })),
      {
        title: t`Unban ${who} everywhere: other universes`,
        placeHolder: t`Universe ${u.universeId} and its places are searched; pick others to search too (or none)`,
      },
    ),
  );
  for (const p of picked) assertWritable({ connectionId: u.connectionId, universeId: p.id });
  return picked.map((p) => p.id);
}

export const reviewBanPlan: RestrictionsCommand = {
  id: 'universeExplorer.reviewBanPlan',
  get failure() {
    return t`review the ban plan`;
  },
  /** A plan file (Explorer's context menu, or `{ file, connectionId }` from an agent's plan), or one picked. */
  async run(ctx, arg?: unknown) {
    const a = arg as { file?: unknown; connectionId?: unknown } | null | undefined;
    let file: string;
    if (arg instanceof vscode.Uri) file = arg.fsPath;
    else if (typeof a?.file === 'string') file = a.file;
    else {
      const [uri] = required(
        await ctx.ui.openDialog({
          title: t`Review a ban plan`,
          openLabel: t`Review`,
          canSelectMany: false,
          filters: { [t`Ban plans`]: ['json'] },
          defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
        }),
      );
      file = uri.fsPath;
    }
    const connectionId =
      typeof a?.connectionId === 'string' ? a.connectionId : (await pickConnection(ctx.ui, ctx.connections)).id;
    let run: BanRun;
    try {
      run = await ctx.runs.adopt(connectionId, file);
    } catch (error) {
      const name = vscode.workspace.asRelativePath(file);
      throw new Error(t`${name} cannot be reviewed: ${(error as Error).message}`, { cause: error });
    }
    return openRun(ctx, run, vscode.workspace.asRelativePath(file));
  },
};

export const resumeBanRun: RestrictionsCommand = {
  id: 'universeExplorer.resumeBanRun',
  get failure() {
    return t`resume the ban run`;
  },
  async run(ctx) {
    const unfinished = (await ctx.runs.list()).flatMap((run) => {
      const p = runProgress(run);
      return (p.done > 0 || p.failed > 0) && p.done < p.writes ? [{ run, p }] : [];
    });
    if (!unfinished.length) {
      void ctx.ui.info(t`No ban run is unfinished: each run applied wrote all it planned.`);
      return undefined;
    }
    const picked = required(
      await ctx.ui.pick(
        unfinished.map(({ run, p }) => ({
          label: `${run.plan.kind === 'ban' ? t`Ban` : t`Unban`} · ${run.plan.label ?? usersWord(new Set(run.plan.actions.map((a) => a.userId)).size)}`,
          description: p.failed
            ? t`${p.done} of ${p.writes} written, ${p.failed} failed`
            : t`${p.done} of ${p.writes} written`,
          detail: t`Planned ${localTime(run.plan.planned)} on ${ctx.connections.get(run.connectionId)?.name ?? t`a removed connection`}`,
          run,
        })),
        { title: t`Resume a ban run`, placeHolder: t`A run stopped before the end: Resume writes what is left` },
      ),
    );
    return openRun(ctx, picked.run);
  },
};

export const BULK_COMMANDS: readonly RestrictionsCommand[] = [
  banUsersFromList,
  unbanEverywhere,
  reviewBanPlan,
  resumeBanRun,
];
