// Restore to Time… on a data store row: the moment, the keys (the row's scope and prefix, some picked, or one player's entries),
// the plan file, then the dry run as a modal question, the run, and its summary (skipped keys, audit, Undo). A plan
// file whose run has begun is continued instead, so a stopped restore goes on where it stopped.
import * as path from 'node:path';
import vscode = require('vscode');
import type { RestorePlanHeader, RestoreResult } from '../../api';
import { t } from '../../core/text';
import { localTime } from '../../core/time';
import { required } from '../../core/ui';
import type { StoreRef } from '../listState';
import { fileStamp, localPath, ndjsonFilters, workspaceFile } from './bulk';
import type { DataStoresCommand, DataStoresContext } from './context';
import { askMoment } from './moment';
import { asStoreOrTime, writableStore } from './nodes';
import { begun, confirmPlan, planActions, planHeader, planLength, runAndShow, whereOf } from './restorePlan';
import { askSelection, headerSelection } from './selection';
import { offerSnapshot } from './snapshot';

/** The plan file; one whose restore has begun is continued (`continued`) or another file is chosen. */
async function askPlanFile(
  ctx: DataStoresContext,
  what: string,
  when: string,
  defaultFile: vscode.Uri | undefined,
): Promise<{ planFile: string; continued?: RestorePlanHeader }> {
  for (;;) {
    const planFile = localPath(
      required(
        await ctx.ui.saveDialog({
          title: t`Save the plan of the restore of ${what} to ${when}`,
          saveLabel: t`Plan`,
          filters: ndjsonFilters(),
          defaultUri: defaultFile,
        }),
      ),
    );
    if (!begun(planFile)) return { planFile };
    const header = planHeader(planFile);
    const held = header
      ? t`the restore of ${header.datastoreName} (${whereOf(header.selection)}) to ${header.time ? localTime(header.time, { seconds: true }) : '?'}`
      : t`the restore it holds`;
    const { go } = required(
      await ctx.ui.pick(
        [
          { label: t`Continue`, description: held, go: true },
          {
            label: t`Choose Another File`,
            description: t`its audit is kept, so the restore it holds can be undone`,
            go: false,
          },
        ],
        { title: t`${path.basename(planFile)} holds a restore that has begun` },
      ),
    );
    if (go) {
      if (!header) throw new Error(t`${path.basename(planFile)} is not a restore plan`);
      return { planFile, continued: header };
    }
  }
}

/** Continues the restore a plan file holds; it must be a plan of this store. */
async function continueRestore(
  ctx: DataStoresContext,
  ref: StoreRef,
  planFile: string,
  header: RestorePlanHeader,
): Promise<RestoreResult> {
  if (String(header.universeId) !== String(ref.universeId) || header.datastoreName !== ref.datastoreName)
    throw new Error(
      t`${path.basename(planFile)} restores ${header.datastoreName} of universe ${header.universeId}, not ${ref.datastoreName} of universe ${ref.universeId}`,
    );
  return runAndShow(
    ctx,
    {
      store: ref,
      what: t`${header.datastoreName} (${whereOf(header.selection)})`,
      planFile,
      when: header.time ? localTime(header.time, { seconds: true }) : undefined,
      undoOf: header.undoOf,
      putBackOf: header.putBackOf,
    },
    await planLength(planFile),
  );
}

export const restoreToTime: DataStoresCommand = {
  id: 'universeExplorer.restoreToTime',
  get failure() {
    return t`restore the data store to a time`;
  },
  async run(ctx, node: unknown) {
    const { store: row, time: shown } = asStoreOrTime(node);
    const store = writableStore(row);
    const ref = store.ref;
    const name = store.store.name;
    const filter = ctx.model.lists.filter(ref);
    const time =
      shown ??
      (await askMoment(ctx.ui, {
        title: t`Restore ${name} (${whereOf(headerSelection(filter))}) to a time`,
      }));
    const when = localTime(time.getTime(), { seconds: true });
    const selection = await askSelection(ctx, ref, t`Restore ${name} to ${when}`, when);
    const what = t`${name} (${whereOf(headerSelection(selection))})`;
    if (!(await offerSnapshot(ctx, ref, t`restoring ${what} to ${when}`))) return undefined;
    const { planFile, continued } = await askPlanFile(
      ctx,
      what,
      when,
      workspaceFile(name, `restore-${fileStamp(time)}`),
    );
    if (continued) return continueRestore(ctx, ref, planFile, continued);
    const summary = await ctx.ui.progress(
      t`Planning the restore of ${what} to ${when}`,
      (signal) => ctx.timeMachine.planRestore(ref, selection, time, planFile, signal),
      { delayMs: 500 },
    );
    const run = { store: ref, what, planFile, when };
    if (!(await confirmPlan(ctx, run, summary))) return undefined;
    return runAndShow(ctx, run, planActions(summary));
  },
};
