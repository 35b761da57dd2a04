// Compare with Time… on a data store row: each key under the row's filter (its scope or all scopes, its prefix)
// against the moment chosen, written as NDJSON, then a summary with the keys that differ one click away.
import { runFollowUp } from '../../core/commands';
import * as path from 'node:path';
import vscode = require('vscode');
import {
  writeComparison,
  type CompareCounts,
  type CompareStatus,
  type CompareSummary,
  type KeyComparison,
} from '../../api';
import { t } from '../../core/text';
import { localTime } from '../../core/time';
import { required } from '../../core/ui';
import { allScopes, type StoreRef } from '../listState';
import { currentDiffTitle } from '../editor/diffTitles';
import { entryUri, versionTime, versionUri } from '../editor/uris';
import { count, fileStamp, localPath, ndjsonFilters, runBulk, seconds, workspaceFile } from './bulk';
import type { DataStoresCommand, DataStoresContext } from './context';
import { askMoment } from './moment';
import { asStoreOrTime, filterText } from './nodes';
import { whereOf } from './restorePlan';
import { askSelection, headerSelection } from './selection';

/** Keys that differ kept for Show Differences; the file lists them all. */
const DIFFERENCES_KEPT = 5000;

export interface CompareWithTimeResult extends CompareSummary {
  file: string;
  /** The keys that differ (changed, created or deleted since), at most DIFFERENCES_KEPT of them. */
  differences: KeyComparison[];
}

const keys = (n: number): string => (n === 1 ? t`${count(n)} key` : t`${count(n)} keys`);
const compared = (c: CompareCounts): number =>
  c.unchanged + c.changed + c.created + c.deleted + c.absent + c.otherUsers;
const differing = (c: CompareCounts): number => c.changed + c.created + c.deleted;

function statusText(status: CompareStatus): string {
  if (status === 'changed') return t`changed`;
  if (status === 'created') return t`created since`;
  if (status === 'deleted') return t`deleted since`;
  return t`unchanged`;
}

/** The diff of the key then against now; a key created or deleted since opens the side that exists, read-only. */
async function openDifference(store: StoreRef, c: KeyComparison): Promise<void> {
  const address = { ...store, scope: c.scope, key: c.key };
  if (c.status === 'changed' && c.then && c.now) {
    const title = currentDiffTitle(
      c.key,
      t`version of ${versionTime(c.then.createdTime)}`,
      Date.parse(c.now.createdTime),
    );
    await vscode.commands.executeCommand('vscode.diff', versionUri(address, c.then), entryUri(address), title);
    return;
  }
  const side = c.status === 'created' ? c.now : c.then;
  if (!side) return;
  await vscode.window.showTextDocument(versionUri(address, side), { preview: false });
}

async function showDifferences(
  ctx: DataStoresContext,
  store: StoreRef,
  result: CompareWithTimeResult,
  heading: string,
  scopes: boolean,
): Promise<void> {
  const items = result.differences.map((c) => ({
    label: c.key,
    description: [statusText(c.status), scopes ? t`scope ${c.scope}` : ''].filter(Boolean).join(' · '),
    comparison: c,
  }));
  const total = differing(result);
  const picked = required(
    await ctx.ui.pick(items, {
      title: heading,
      placeHolder:
        total > items.length
          ? t`The first ${count(items.length)} of ${keys(total)} that differ (the file lists them all): pick one to see what changed`
          : t`Pick a key to see what changed`,
      matchOnDescription: true,
    }),
  );
  await openDifference(store, picked.comparison);
}

export const compareWithTime: DataStoresCommand = {
  id: 'universeExplorer.compareWithTime',
  get failure() {
    return t`compare the data store with a time`;
  },
  async run(ctx, node: unknown) {
    const { store, time: shown } = asStoreOrTime(node);
    const ref = store.ref;
    const name = store.store.name;
    const filter = ctx.model.lists.filter(ref);
    const scopes = filter.scope === allScopes;
    const time = shown ?? (await askMoment(ctx.ui, { title: t`Compare ${name} (${filterText(filter)}) with a time` }));
    const when = localTime(time.getTime(), { seconds: true });
    const selection = await askSelection(ctx, ref, t`Compare ${name} with ${when}`, when);
    const what = t`${name} (${whereOf(headerSelection(selection))})`;
    const uri = required(
      await ctx.ui.saveDialog({
        title: t`Save the comparison of ${what} with ${when}`,
        saveLabel: t`Compare`,
        filters: ndjsonFilters(),
        defaultUri: workspaceFile(name, `since-${fileStamp(time)}`),
      }),
    );
    const file = localPath(uri);
    const differences: KeyComparison[] = [];
    let summary: CompareSummary | undefined;
    await runBulk(ctx, {
      title: t`Comparing ${what} with ${when}`,
      connectionId: ref.connectionId,
      start: { unchanged: 0, changed: 0, created: 0, deleted: 0, absent: 0, otherUsers: 0 },
      handled: compared,
      describe: (c) => t`${keys(compared(c))} · ${count(differing(c))} differ · ${count(c.ratePerSecond)}/s`,
      run: async (opts) => {
        const results = ctx.timeMachine.compareWithTime(ref, selection, time, { ...opts, now: new Date() });
        // The comparisons go to the file as they come; the keys that differ are kept, and the summary at the end.
        async function* kept(): AsyncGenerator<KeyComparison> {
          try {
            let next = await results.next();
            while (!next.done) {
              if (next.value.status !== 'unchanged' && differences.length < DIFFERENCES_KEPT)
                differences.push(next.value);
              yield next.value;
              next = await results.next();
            }
            summary = next.value;
          } finally {
            if (!summary) await results.return(undefined as never); // a failed write stops the requests
          }
        }
        await writeComparison(file, kept());
      },
      stopped: (c) =>
        t`Comparison of ${what} with ${when} stopped after ${keys(compared(c))}; ${path.basename(file)} lists the keys compared so far.`,
    });
    const result: CompareWithTimeResult = { ...summary!, file, differences };
    const text = t`${what} since ${when}: ${count(result.changed)} changed, ${count(result.created)} created, ${count(result.deleted)} deleted, ${count(result.unchanged)} unchanged (${keys(compared(result))} compared in ${seconds(result.ms)}; ${path.basename(file)} lists them).`;
    ctx.log.info(text);
    const show = t`Show Differences`;
    const open = t`Open File`;
    const actions = differing(result) ? [show, open] : [open];
    void ctx.ui.info(text, ...actions).then((choice) =>
      runFollowUp(ctx, 'universeExplorer.showDifferences', t`show the differences`, async () => {
        if (choice === open) await vscode.window.showTextDocument(uri, { preview: false });
        if (choice === show) await showDifferences(ctx, ref, result, t`${what}: keys that differ from ${when}`, scopes);
      }),
    );
    return result;
  },
};
