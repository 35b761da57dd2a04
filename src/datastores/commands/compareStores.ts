// Compare with Another Store… on a data store row: the row (its scope or all scopes, its prefix) against another
// store of the universe, the same store in another universe (staging against production), or an export file (then
// the file is the source and the row the target). The result is a review panel (different / only in the source / only
// in the target / the same, each row's diff one click away) whose Copy Differences… plans the copy, its direction
// fixed and shown, into a review of its own. Nothing reaches the workspace unless exported.
import fs = require('node:fs');
import path = require('node:path');
import vscode = require('vscode');
import type { Difference, StoresComparison, StoresCounts, StoresSummary } from '../../api';
import type { ReviewItem, ReviewPanel } from '../../core/review/panel';
import { pickConnection, pickUniverse } from '../../core/prompts';
import { isReadOnly } from '../../core/universe';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { type StoreFilter, type StoreRef } from '../listState';
import type { StoreSide } from '../timeMachine';
import { workspaceFile } from '../../core/files';
import { count, localPath, ndjsonFilters, runBulk, seconds } from './bulk';
import type { DataStoresCommand, DataStoresContext } from './context';
import { asDataStore, filterText } from './nodes';
import { entryUri } from '../editor/uris';
import { planAndReview, universeWhere, type OperationReview } from '../operations/reviewFlow';

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
  /** Every key compared. */
  comparisons: StoresComparison[];
  source: string;
  target: string;
  panel: ReviewPanel;
}

interface StoresItem extends ReviewItem {
  comparison: StoresComparison;
}

const keys = (n: number): string => (n === 1 ? t`${count(n)} key` : t`${count(n)} keys`);
const compared = (c: StoresCounts): number => c.same + c.different + c.onlySource + c.onlyTarget;
const differing = (c: StoresCounts): number => c.different + c.onlySource + c.onlyTarget;

const DIFFERS: Record<Difference, () => string> = {
  value: () => t`value`,
  attributes: () => t`attributes`,
  userIds: () => t`user ids`,
};

function itemOf(c: StoresComparison, sourceIsFile: boolean): StoresItem {
  const side = c.source ?? c.target;
  return {
    key: c.key,
    scope: c.scope,
    kind: c.status,
    bytes: side?.bytes,
    version: [c.source?.version, c.target?.version].filter(Boolean).join(' / ') || undefined,
    note: c.differs?.length ? t`differs in ${c.differs.map((d) => DIFFERS[d]()).join(', ')}` : undefined,
    opens: !(sourceIsFile && c.status === 'onlySource'),
    comparison: c,
  };
}

/** The diff of a key, source on the left; a key on one side only opens that side. A file side is not opened. */
async function openDifference(source: StoreSide, target: LiveTarget, c: StoresComparison): Promise<void> {
  const at = (store: StoreRef) => entryUri({ ...store, scope: c.scope, key: c.key });
  const left = 'file' in source ? undefined : at(source.store);
  const right = at(target.store);
  if (c.status === 'onlySource' && left) return void (await vscode.window.showTextDocument(left, { preview: true }));
  if (c.status === 'onlyTarget' || !left) return void (await vscode.window.showTextDocument(right, { preview: true }));
  const title = `${c.key}.json (${t`source`}) ↔ ${c.key}.json (${t`target`})`;
  await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
}

/** Export…: the differences as NDJSON, one comparison a line. */
async function exportDifferences(ctx: DataStoresContext, name: string, comparisons: StoresComparison[]): Promise<void> {
  const uri = await ctx.ui.saveDialog({
    title: t`Export the differences`,
    saveLabel: t`Export`,
    filters: ndjsonFilters(),
    defaultUri: workspaceFile(name, 'differences'),
  });
  if (!uri) return;
  const lines = comparisons.filter((c) => c.status !== 'same').map((c) => `${JSON.stringify(c)}\n`);
  await fs.promises.writeFile(localPath(uri), lines.join(''));
  void ctx.ui.info(t`Exported ${keys(lines.length)} that differ to ${path.basename(uri.fsPath)}.`);
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
      writable: !isReadOnly(ref),
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
    writable: !isReadOnly({ connectionId: connection.id, universeId: universe.id }),
  };
}

/** Copy Differences…: whether to delete the target's extra keys, then the plan in a review of its own. */
async function copyDifferences(
  ctx: DataStoresContext,
  source: StoreSide,
  sourceWhat: string,
  target: LiveTarget,
): Promise<OperationReview | undefined> {
  const { deleteExtra } = required(
    await ctx.ui.pick(
      [
        { label: t`No`, description: t`only add and overwrite keys`, deleteExtra: false },
        { label: t`Yes`, description: t`delete the keys only in ${target.what}`, deleteExtra: true },
      ],
      { title: t`Copy ${sourceWhat} → ${target.what}: also delete the keys only in the target?` },
    ),
  );
  const { connectionId, universeId, datastoreName } = target.store;
  return planAndReview(
    ctx,
    { kind: 'copy', connectionId, universeId, datastoreName, what: target.what, copyOf: sourceWhat },
    t`Planning the copy of ${sourceWhat} to ${target.what}`,
    (planFile, signal) =>
      ctx.timeMachine.planCopy(source, { store: target.store, filter: target.filter }, planFile, deleteExtra, signal),
  );
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
    const rowSide: LiveTarget = { store: ref, filter, what: rowWhat, writable: !isReadOnly(ref) };
    // An export file is the source and the row the target; else the row is the source.
    const [source, sourceWhat, target]: [StoreSide, string, StoreSide & { what: string }] =
      'file' in other
        ? [{ file: other.file, prefix: filter.prefix }, path.basename(other.file), rowSide]
        : [{ store: ref, filter }, rowWhat, other];
    const copyTo = 'file' in other ? rowSide : other;
    const comparisons: StoresComparison[] = [];
    const summary = await runBulk(ctx, {
      title: t`Comparing ${sourceWhat} with ${target.what}`,
      connectionId: ref.connectionId,
      start: { same: 0, different: 0, onlySource: 0, onlyTarget: 0, gone: 0 },
      handled: compared,
      describe: (c) => t`${keys(compared(c))} · ${count(differing(c))} differ · ${count(c.ratePerSecond)}/s`,
      run: async (opts) => {
        const results = ctx.timeMachine.compareStores(source, target, opts);
        let next = await results.next();
        while (!next.done) {
          comparisons.push(next.value);
          next = await results.next();
        }
        return next.value;
      },
      stopped: (c) => t`Comparison of ${sourceWhat} with ${target.what} stopped after ${keys(compared(c))}.`,
    });
    const s = summary;
    const counted = t`${count(s.different)} different, ${count(s.onlySource)} only in the source, ${count(s.onlyTarget)} only in the target, ${count(s.same)} the same`;
    const gone = s.gone ? t`; ${keys(s.gone)} deleted on both sides while compared are left out` : '';
    const copyLabel = t`Copy ${sourceWhat} → ${copyTo.what}`;
    const sourceIsFile = 'file' in source;
    const panel = ctx.openReview(
      {
        title: t`Compare ${name}`,
        heading: t`Compare two stores`,
        direction: t`${sourceWhat} (source) → ${target.what} (target, in ${universeWhere(ctx, copyTo.store)})`,
        phase: 'compare',
        summary: t`${keys(compared(s))} compared in ${seconds(s.ms)}: ${counted}${gone}.`,
        notes:
          differing(s) && copyTo.writable
            ? [t`Copy Differences… makes the target hold the source's entries: ${copyLabel}.`]
            : [],
        kinds: [
          { id: 'different', label: t`different`, tone: 'change' },
          { id: 'onlySource', label: t`only in the source`, tone: 'add' },
          { id: 'onlyTarget', label: t`only in the target`, tone: 'remove' },
          { id: 'same', label: t`the same`, tone: 'same' },
        ],
        items: comparisons.map((c) => itemOf(c, sourceIsFile)),
        buttons: [
          ...(differing(s) && copyTo.writable
            ? [{ id: 'copy', label: t`Copy Differences…`, primary: true, title: copyLabel }]
            : []),
          { id: 'export', label: t`Export…` },
          { id: 'close', label: t`Close` },
        ],
      },
      {
        button: async (id, panel) => {
          if (id === 'close') return panel.dispose();
          if (id === 'export') return exportDifferences(ctx, name, comparisons);
          if (id === 'copy') return copyDifferences(ctx, source, sourceWhat, copyTo);
          return undefined;
        },
        open: (item) => openDifference(source, copyTo, (item as StoresItem).comparison),
      },
    );
    const result: CompareStoresResult = { ...s, comparisons, source: sourceWhat, target: target.what, panel };
    ctx.log.info(
      t`${sourceWhat} against ${target.what}: ${counted} (${keys(compared(s))} compared in ${seconds(s.ms)}).`,
    );
    return result;
  },
};
