// Compare with Time… on a data store row: each key under the row's filter (its scope or all scopes, its prefix) against
// the moment chosen, shown in a review panel (changed / created / deleted / unchanged, each row's diff one click
// away) with Restore to This Time… (the same keys, the direction fixed) and Export…. Nothing is written to the
// workspace unless exported.
import vscode = require('vscode');
import { writeComparison, type CompareCounts, type CompareSummary, type KeyComparison } from '../../api';
import type { ReviewItem, ReviewPanel } from '../../core/review/panel';
import { t } from '../../core/text';
import { localTime } from '../../core/time';
import type { StoreRef } from '../listState';
import { currentDiffTitle } from '../editor/diffTitles';
import { entryUri, versionTime, versionUri } from '../editor/uris';
import { universeWhere } from '../operations/reviewFlow';
import type { TimeSelection } from '../timeMachine';
import { fileStamp, workspaceFile } from '../../core/files';
import { count, localPath, ndjsonFilters, runBulk, seconds } from './bulk';
import type { DataStoresCommand, DataStoresContext } from './context';
import { askMoment } from './moment';
import { asStoreOrTime, filterText } from './nodes';
import { whereOf } from './restorePlan';
import { askSelection, headerSelection } from './selection';
import { reviewRestore } from './restoreToTime';
import { isReadOnly } from '../../core/universe';

export interface CompareWithTimeResult extends CompareSummary {
  /** Every key compared that held an entry then or now. */
  comparisons: KeyComparison[];
  panel: ReviewPanel;
}

const keys = (n: number): string => (n === 1 ? t`${count(n)} key` : t`${count(n)} keys`);
const compared = (c: CompareCounts): number =>
  c.unchanged + c.changed + c.created + c.deleted + c.absent + c.otherUsers;
const differing = (c: CompareCounts): number => c.changed + c.created + c.deleted;

interface ComparedItem extends ReviewItem {
  comparison: KeyComparison;
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
  await vscode.window.showTextDocument(versionUri(address, side), { preview: true });
}

function itemOf(c: KeyComparison): ComparedItem {
  const then = c.then && !c.then.deleted ? c.then.version : undefined;
  const now = c.now && !c.now.deleted ? c.now.version : undefined;
  return {
    key: c.key,
    scope: c.scope,
    kind: c.status,
    bytes: c.now && !c.now.deleted ? c.now.contentLength : c.then?.contentLength,
    version: c.status === 'unchanged' ? now : `${then ?? t`none`} → ${now ?? t`none`}`,
    note: c.then ? t`then: ${versionTime(c.then.createdTime)}` : t`no entry then`,
    comparison: c,
  };
}

/** Export…: the comparison as NDJSON where the user chooses. */
async function exportComparison(
  ctx: DataStoresContext,
  name: string,
  time: Date,
  comparisons: KeyComparison[],
): Promise<void> {
  const uri = await ctx.ui.saveDialog({
    title: t`Export the comparison of ${name} with ${localTime(time.getTime())}`,
    saveLabel: t`Export`,
    filters: ndjsonFilters(),
    defaultUri: workspaceFile(name, `since-${fileStamp(time)}`),
  });
  if (!uri) return;
  await writeComparison(
    localPath(uri),
    (async function* () {
      yield* comparisons;
    })(),
  );
  void ctx.ui.info(t`Exported the comparison of ${name} (${keys(comparisons.length)}).`);
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
    const time = shown ?? (await askMoment(ctx.ui, { title: t`Compare ${name} (${filterText(filter)}) with a time` }));
    const when = localTime(time.getTime(), { seconds: true });
    const selection: TimeSelection = await askSelection(ctx, ref, t`Compare ${name} with ${when}`, when);
    const what = t`${name} (${whereOf(headerSelection(selection))})`;
    const comparisons: KeyComparison[] = [];
    const summary = await runBulk(ctx, {
      title: t`Comparing ${what} with ${when}`,
      connectionId: ref.connectionId,
      start: { unchanged: 0, changed: 0, created: 0, deleted: 0, absent: 0, otherUsers: 0 },
      handled: compared,
      describe: (c) => t`${keys(compared(c))} · ${count(differing(c))} differ · ${count(c.ratePerSecond)}/s`,
      run: async (opts) => {
        const results = ctx.timeMachine.compareWithTime(ref, selection, time, { ...opts, now: new Date() });
        let next = await results.next();
        while (!next.done) {
          comparisons.push(next.value);
          next = await results.next();
        }
        return next.value;
      },
      stopped: (c) => t`Comparison of ${what} with ${when} stopped after ${keys(compared(c))}.`,
    });
    const left = [
      t`${count(summary.changed)} changed`,
      t`${count(summary.created)} created since`,
      t`${count(summary.deleted)} deleted since`,
      t`${count(summary.unchanged)} unchanged`,
    ];
    if (summary.absent) left.push(t`${count(summary.absent)} with no entry then or now`);
    if (summary.otherUsers) left.push(t`${count(summary.otherUsers)} not of user ${selection.userId ?? ''}`);
    const notes: string[] = [];
    if (summary.absent)
      notes.push(t`Keys with no entry then or now were deleted before ${when} and still are: counted, not listed.`);
    if (summary.otherUsers)
      notes.push(
        t`Entries whose user ids did not include user ${selection.userId ?? ''} then or now: counted, not listed.`,
      );
    const restorable = differing(summary) > 0 && !isReadOnly(ref);
    const panel = ctx.openReview(
      {
        title: t`Compare ${name} with ${when}`,
        heading: t`Compare with a time`,
        direction: t`${what} in ${universeWhere(ctx, ref)}: as of ${when} → now`,
        phase: 'compare',
        summary: t`${keys(compared(summary))} compared in ${seconds(summary.ms)}: ${left.join(', ')}.`,
        notes,
        kinds: [
          { id: 'changed', label: t`changed`, tone: 'change' },
          { id: 'created', label: t`created since`, tone: 'add' },
          { id: 'deleted', label: t`deleted since`, tone: 'remove' },
          { id: 'unchanged', label: t`unchanged`, tone: 'same' },
          ...(summary.absent
            ? [{ id: 'absent', label: t`no entry then or now`, tone: 'same' as const, count: summary.absent }]
            : []),
          ...(summary.otherUsers
            ? [{ id: 'otherUsers', label: t`other users'`, tone: 'same' as const, count: summary.otherUsers }]
            : []),
        ],
        items: comparisons.map(itemOf),
        buttons: [
          ...(restorable
            ? [{ id: 'restore', label: t`Restore to This Time…`, primary: true, title: t`${what} → as of ${when}` }]
            : []),
          { id: 'export', label: t`Export…` },
          { id: 'close', label: t`Close` },
        ],
      },
      {
        button: async (id, panel) => {
          if (id === 'close') return panel.dispose();
          if (id === 'export') return exportComparison(ctx, name, time, comparisons);
          return id === 'restore' ? reviewRestore(ctx, ref, selection, time) : undefined;
        },
        open: (item) => openDifference(ref, (item as ComparedItem).comparison),
      },
    );
    const result: CompareWithTimeResult = { ...summary, comparisons, panel };
    ctx.log.info(
      t`${what} since ${when}: ${left.join(', ')} (${keys(compared(summary))} compared in ${seconds(summary.ms)}).`,
    );
    return result;
  },
};
