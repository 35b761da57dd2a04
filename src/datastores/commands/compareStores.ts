// Compare with Another Store… on a data store row: the row (its scope or all scopes, its prefix) against another
// store of the universe, the same store in another universe (staging against production), or an export file (then
// the file is the source and the row the target). The differences go to an NDJSON file; the summary offers Copy
// Differences…, which plans the copy into the target as a restore plan and runs it as Restore to Time… does.
import { runFollowUp } from '../../core/commands';
import * as fs from 'node:fs';
import * as path from 'node:path';
import vscode = require('vscode');
import type { CopyPlanSummary, StoresComparison, StoresCounts, StoresSummary } from '../../api';
import { pickConnection, pickUniverse } from '../../core/prompts';
import { isReadOnly } from '../../core/universe';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { type StoreFilter, type StoreRef } from '../listState';
import type { StoreSide } from '../timeMachine';
import { count, localPath, ndjsonFilters, runBulk, seconds, workspaceFile } from './bulk';
import type { DataStoresCommand, DataStoresContext } from './context';
import { asDataStore, filterText } from './nodes';
import { begun, confirmPlan, planActions, runAndShow, type PlanRun } from './restorePlan';

/** Store names offered for "Another store in this universe". */
const STORES_LISTED = 1000;

/** A live side, with how the user reads it and whether the user may write to it. */
interface LiveTarget {
  store: StoreRef;
  filter: StoreFilter;
  what: string;
  writable: boolean;
}

export interface CompareStoresResult extends StoresSummary {
  /** The NDJSON of the differences. */
  file: string;
  source: string;
  target: string;
}

const keys = (n: number): string => (n === 1 ? t`${count(n)} key` : t`${count(n)} keys`);
const compared = (c: StoresCounts): number => c.same + c.different + c.onlySource + c.onlyTarget;
const differing = (c: StoresCounts): number => c.different + c.onlySource + c.onlyTarget;

/** Writes the comparisons that are not "same", one JSON line each. */
async function writeDifferences(file: string, results: AsyncIterable<StoresComparison>): Promise<void> {
  const out = await fs.promises.open(file, 'w');
  try {
    let chunk = '';
    for await (const c of results) {
      if (c.status === 'same') continue;
      chunk += `${JSON.stringify(c)}\n`;
      if (chunk.length >= 64 * 1024) {
        await out.write(chunk);
        chunk = '';
      }
    }
    if (chunk) await out.write(chunk);
  } finally {
    await out.close();
  }
}

/** The other side the user picks: a store of this universe, the same store elsewhere, or an export file. */
async function askOther(
  ctx: DataStoresContext,
  ref: StoreRef,
  filter: StoreFilter,
  what: string,
): Promise<LiveTarget | { file: string }> {
  const name = ref.datastoreName;
  const { other } = required(
    await ctx.ui.pick(
      [
        { label: t`Another store in this universe`, other: 'store' as const },
        {
          label: t`The same store in another universe`,
          description: t`another connection or universe, such as staging against production`,
          other: 'universe' as const,
        },
        {
          label: t`An export file…`,
          description: t`the file is the source, ${name} the target`,
          other: 'file' as const,
        },
      ],
      { title: t`Compare ${what} with…` },
    ),
  );
  if (other === 'file') {
    const [uri] = required(
      await ctx.ui.openDialog({
        title: t`Compare an export file (the source) with ${what} (the target)`,
        openLabel: t`Compare`,
        canSelectMany: false,
        filters: ndjsonFilters(),
      }),
    );
    return { file: localPath(uri) };
  }
  if (other === 'store') {
    const names = await ctx.ui.progress(
      t`Listing the data stores of universe ${ref.universeId}`,
      (signal) => ctx.timeMachine.storeNames(ref, STORES_LISTED, signal),
      { delayMs: 500 },
    );
    const others = names.filter((n) => n !== name);
    if (!others.length) throw new Error(t`universe ${ref.universeId} has no other data store`);
    const { label } = required(
      await ctx.ui.pick(
        others.map((n) => ({ label: n })),
        { title: t`Compare ${what} with which store?` },
      ),
    );
    return {
      store: { ...ref, datastoreName: label },
      filter,
      what: t`${label} (${filterText(filter)})`,
      writable: !isReadOnly(ref.universeId),
    };
  }
  const connection = await pickConnection(ctx.ui, ctx.connections);
  const universe = await pickUniverse(ctx.ui, connection);
  if (connection.id === ref.connectionId && universe.id === ref.universeId)
    throw new Error(t`that is the universe of ${name}: choose another connection or universe`);
  const there = universe.name ?? t`universe ${universe.id}`;
  return {
    store: { connectionId: connection.id, universeId: universe.id, datastoreName: name },
    filter,
    what: t`${name} of ${connection.name}, ${there} (${filterText(filter)})`,
    writable: !isReadOnly(universe.id),
  };
}

/** Copy Differences…: whether to delete the target's extra keys, the plan file, the dry run, then the run. */
async function copyDifferences(
  ctx: DataStoresContext,
  source: StoreSide,
  sourceWhat: string,
  target: LiveTarget,
): Promise<void> {
  const { deleteExtra } = required(
    await ctx.ui.pick(
      [
        { label: t`No`, description: t`only add and overwrite keys`, deleteExtra: false },
        { label: t`Yes`, description: t`delete the keys only in ${target.what}`, deleteExtra: true },
      ],
      { title: t`Also delete the keys only in the target?` },
    ),
  );
  const planFile = localPath(
    required(
      await ctx.ui.saveDialog({
        title: t`Save the plan of the copy of ${sourceWhat} to ${target.what}`,
        saveLabel: t`Plan`,
        filters: ndjsonFilters(),
        defaultUri: workspaceFile(target.store.datastoreName, 'copy-plan'),
      }),
    ),
  );
  if (begun(planFile))
    throw new Error(
      t`${path.basename(planFile)} holds a run that has begun: choose another file, or run Restore to Time… on ${target.store.datastoreName} with it and choose Continue`,
    );
  const summary: CopyPlanSummary = await ctx.ui.progress(
    t`Planning the copy of ${sourceWhat} to ${target.what}`,
    (signal) =>
      ctx.timeMachine.planCopy(source, { store: target.store, filter: target.filter }, planFile, deleteExtra, signal),
    { delayMs: 500 },
  );
  const run: PlanRun = { store: target.store, what: target.what, planFile, copyOf: sourceWhat };
  if (!(await confirmPlan(ctx, run, summary))) return;
  await runAndShow(ctx, run, planActions(summary));
}

export const compareStores: DataStoresCommand = {
  id: 'universeExplorer.compareStores',
  get failure() {
    return t`compare the data store with another store`;
  },
  async run(ctx, node: unknown) {
    const row = asDataStore(node);
    const ref = row.ref;
    const name = row.store.name;
    const filter = ctx.model.lists.filter(ref);
    const rowWhat = t`${name} (${filterText(filter)})`;
    const other = await askOther(ctx, ref, filter, rowWhat);
    const rowSide: LiveTarget = { store: ref, filter, what: rowWhat, writable: !isReadOnly(ref.universeId) };
    // An export file is the source and the row the target; else the row is the source.
    const [source, sourceWhat, target]: [StoreSide, string, StoreSide & { what: string }] =
      'file' in other
        ? [{ file: other.file, prefix: filter.prefix }, path.basename(other.file), rowSide]
        : [{ store: ref, filter }, rowWhat, other];
    const copyTo = 'file' in other ? rowSide : other;
    const uri = required(
      await ctx.ui.saveDialog({
        title: t`Save the differences of ${sourceWhat} against ${target.what}`,
        saveLabel: t`Compare`,
        filters: ndjsonFilters(),
        defaultUri: workspaceFile(name, 'differences'),
      }),
    );
    const file = localPath(uri);
    let summary: StoresSummary | undefined;
    await runBulk(ctx, {
      title: t`Comparing ${sourceWhat} with ${target.what}`,
      connectionId: ref.connectionId,
      start: { same: 0, different: 0, onlySource: 0, onlyTarget: 0, gone: 0 },
      handled: compared,
      describe: (c) => t`${keys(compared(c))} · ${count(differing(c))} differ · ${count(c.ratePerSecond)}/s`,
      run: async (opts) => {
        const results = ctx.timeMachine.compareStores(source, target, opts);
        // yield* hands on the summary at the end, and a stop (a failed write) to the requests.
        async function* kept(): AsyncGenerator<StoresComparison> {
          summary = yield* results;
        }
        await writeDifferences(file, kept());
      },
      stopped: (c) =>
        t`Comparison of ${sourceWhat} with ${target.what} stopped after ${keys(compared(c))}; ${path.basename(file)} lists the differences found so far.`,
    });
    const s = summary!;
    const result: CompareStoresResult = { ...s, file, source: sourceWhat, target: target.what };
    const text = t`${sourceWhat} against ${target.what}: ${count(s.different)} different, ${count(s.onlySource)} only in the source, ${count(s.onlyTarget)} only in the target, ${count(s.same)} the same (${keys(compared(s))} compared in ${seconds(s.ms)}; ${path.basename(file)} lists the differences).`;
    ctx.log.info(text);
    const copy = t`Copy Differences…`;
    const open = t`Open File`;
    const actions = differing(s) && copyTo.writable ? [copy, open] : [open];
    void ctx.ui.info(text, ...actions).then((choice) =>
      runFollowUp(ctx, 'universeExplorer.copyDifferences', t`copy the differences`, async () => {
        if (choice === open) await vscode.window.showTextDocument(uri, { preview: false });
        if (choice === copy) await copyDifferences(ctx, source, sourceWhat, copyTo);
      }),
    );
    return result;
  },
};
