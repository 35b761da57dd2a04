// apply_plan in the editor: an agent's plan opens in the review panel and is applied only by a person's Apply. Entry
// plans open as the data stores' own reviews (each part a Recent Operation, with Undo); a plan of bans of many users
// opens in the restrictions' bulk ban review; a ban of one user opens here, as one row, and Apply runs it through the
// tools' apply_plan (conditioned on the restriction the plan read).
import path = require('node:path');
import { ReviewPanel, type Review, type ReviewItem } from '../core/review/panel';
import { formatDuration, fromServiceDuration } from '../core/duration';
import type { Log } from '../core/log';
import { t } from '../core/text';
import type { BanPlan, PlanManifest } from '../tools/plans';
import type vscode = require('vscode');
import { agentTools, contextOf, planFiles, type LmToolsDeps } from './lmTools';

export interface ReviewDeps extends Omit<LmToolsDeps, 'review'> {
  extensionUri: vscode.Uri;
  log: Log;
  /** The data stores' Review Plan File: a restore-format plan in the review panel. */
  reviewPlan(file: string, connectionId: string): Promise<unknown>;
  /** The restrictions' bulk ban review: a ban plan file (bans of many users), applied there by a person. */
  reviewBanPlan(file: string, connectionId: string): Promise<unknown>;
  /** A ban review was opened. */
  opened(panel: ReviewPanel): void;
}

/** Opens the plan `planId` for a person to apply; resolves to what the agent is told. */
export async function reviewAgentPlan(deps: ReviewDeps, planId: string, connectionId: string): Promise<object> {
  const { dir, manifest } = await planFiles().readPlan(deps.plansDir, planId);
  const told = {
    planId,
    universe: manifest.universe,
    summary: manifest.summary,
    applied: false,
    note:
      'The plan is open in the review panel in VS Code: nothing is written until a person presses Apply there. ' +
      'Ask the user to review and apply it.',
  };
  if (manifest.bansFile !== undefined) {
    await deps.reviewBanPlan(path.join(dir, path.basename(manifest.bansFile)), connectionId);
    return told;
  }
  if (manifest.ban) {
    deps.opened(openBanReview(deps, planId, manifest, manifest.ban));
    return told;
  }
  for (const part of manifest.parts ?? []) await deps.reviewPlan(path.join(dir, path.basename(part)), connectionId);
  return { ...told, reviews: manifest.parts?.length ?? 0 };
}

function banItem(ban: BanPlan): ReviewItem {
  const w = ban.write;
  const seconds = typeof w.duration === 'number' ? w.duration : fromServiceDuration(w.duration ?? undefined);
  const how = seconds ? t`for ${formatDuration(seconds)}` : w.active ? t`permanent` : undefined;
  const reason = [w.privateReason, how].filter(Boolean).join(', ');
  return {
    key: t`user ${ban.user}`,
    scope: ban.place ? t`place ${ban.place}` : t`universe`,
    kind: w.active ? 'ban' : 'unban',
    note: reason || undefined,
    opens: false,
  };
}

function banReview(manifest: PlanManifest, ban: BanPlan, phase: Review['phase'], summary: string): Review {
  return {
    title: t`Agent plan`,
    heading: ban.write.active ? t`Ban (an agent's plan)` : t`Unban (an agent's plan)`,
    direction: t`${manifest.summary} (universe ${manifest.universe})`,
    phase,
    summary,
    notes:
      phase === 'plan'
        ? [t`Apply writes the restriction only if it is still as the plan read it; the restriction log records it.`]
        : undefined,
    kinds: [
      { id: 'ban', label: t`ban`, tone: 'remove' },
      { id: 'unban', label: t`unban`, tone: 'change' },
    ],
    items: [banItem(ban)],
    buttons:
      phase === 'plan'
        ? [
            { id: 'apply', label: ban.write.active ? t`Ban` : t`Unban`, primary: true },
            { id: 'cancel', label: t`Cancel` },
          ]
        : [{ id: 'close', label: t`Close` }],
  };
}

function openBanReview(deps: ReviewDeps, planId: string, manifest: PlanManifest, ban: BanPlan): ReviewPanel {
  const apply = agentTools().TOOLS.find((t) => t.kind === 'apply')!;
  let applied = false;
  return new ReviewPanel(
    { extensionUri: deps.extensionUri, log: deps.log },
    banReview(manifest, ban, 'plan', t`1 restriction to write.`),
    {
      async button(id, panel) {
        if (id !== 'apply' || applied) return panel.dispose();
        const controller = new AbortController();
        const result = (await apply.run({ planId }, contextOf(deps, controller.signal, true))) as {
          written: number;
          skipped: number;
        };
        applied = true;
        const said = result.written
          ? t`Written: the restriction log records the change.`
          : t`Skipped: the restriction changed after the plan read it, so nothing was written. Ask for a new plan.`;
        panel.show(banReview(manifest, ban, 'result', said));
        return undefined;
      },
      open: async () => undefined,
    },
  );
}
