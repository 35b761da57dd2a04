// Erase Player Data… (the right to be forgotten), from finding to receipt: the query index names the entries tied to
// the user, each store's erase is planned into the operation's folder (one plan a store), one review shows them all,
// Apply asks for the user id typed, runs the plans one store after the other, and saves a receipt where the user says.
import fs = require('node:fs');
import path = require('node:path');
import vscode = require('vscode');
import { eraseReceipt, keyNamesUser, type EntryKey, type EraseReceipt, type ErasePlanSummary } from '../../api';
import { confirmProductionBulk } from '../../core/confirmWrite';
import { isCancel } from '../../core/errors';
import { askTyped } from '../../core/prompts';
import { formatBytes } from '../../core/format';
import type { ReviewHandler, ReviewPanel } from '../../core/review/panel';
import type { Tone } from '../../core/review/protocol';
import { t } from '../../core/text';
import { localTime } from '../../core/time';
import { required } from '../../core/ui';
import { assertWritable, type UniverseAddress } from '../../core/universe';
import { fileStamp, workspaceFile } from '../../core/files';
import { count, duration, localPath } from '../commands/bulk';
import type { DataStoresContext } from '../commands/context';
import { runPlan, type PlanRun } from '../commands/restorePlan';
import { entryUri } from '../editor/uris';
import type { Operation } from './operations';
import { planItems, resultItems, type PlanItem } from './planReview';
import { operationHandler, universeWhere, type OperationReview } from './reviewFlow';

/** A player of a universe. */
export interface PlayerRef extends UniverseAddress {
  userId: number;
}

/** A row of an erase: its store's plan (by its place in the operation's stores) and the action. */
interface EraseItem extends PlanItem {
  part: number;
}

/** How many of the universe's store names the review reads to say which stores the index leaves out. */
const STORES_LISTED = 1000;

/**
 * Finds the user's entries in the universe's query index, plans the erase of each store holding some, and opens the
 * review. Without an index (or with nothing found) it says so and plans nothing.
 */
export async function startErase(ctx: DataStoresContext, player: PlayerRef): Promise<OperationReview | undefined> {
  const { connectionId, universeId, userId } = player;
  assertWritable({ connectionId, universeId });
  const where = universeWhere(ctx, { connectionId, universeId, datastoreName: '' });
  const found = await ctx.ui.progress(
    t`Finding the entries of user ${userId} in the query index of ${where}`,
    (signal) => ctx.playerKeys(player, userId, signal),
    { delayMs: 500 },
  );
  if (!found) {
    const build = t`Build Query Index…`;
    const answer = await ctx.ui.warn(
      t`${where} has no query index: Erase Player Data finds the entries of user ${userId} in it. Build the index of the stores that may hold them, then erase again.`,
      {},
      build,
    );
    if (answer === build)
      await vscode.commands.executeCommand('universeExplorer.buildQueryIndex', { ref: { connectionId, universeId } });
    return undefined;
  }
  const indexed = [...new Set(found.parts.map((p) => p.store))];
  const asOf = found.parts.map((p) => p.asOf).reduce((a, b) => (a < b ? a : b));
  const byStore = new Map<string, EntryKey[]>();
  for (const k of found.keys) {
    const keys = byStore.get(k.store) ?? [];
    keys.push({ scope: k.scope, key: k.key });
    byStore.set(k.store, keys);
  }
  if (!byStore.size) {
    void ctx.ui.info(
      t`The query index of ${where} (as of ${localTime(asOf)}) ties no entry to user ${userId} in ${indexed.join(', ')}. Refresh Query Index if the user's entries were written since.`,
    );
    return undefined;
  }
  const stores = [...byStore.keys()];
  const op = ctx.operations.create({
    kind: 'erase',
    connectionId,
    universeId,
    datastoreName: stores[0],
    what: t`user ${userId}`,
    userId,
    stores,
  });
  try {
    const { summaries, items, unindexed } = await ctx.ui.progress(
      t`Planning the erase of user ${userId}'s data in ${where}`,
      async (signal) => {
        const summaries: ErasePlanSummary[] = [];
        const items: EraseItem[] = [];
        for (const [part, store] of stores.entries()) {
          const planFile = ctx.operations.storePlanFile(op, part);
          await fs.promises.mkdir(path.dirname(planFile), { recursive: true });
          const ref = { connectionId, universeId, datastoreName: store };
          summaries.push(await ctx.timeMachine.planErase(ref, userId, byStore.get(store)!, indexed, planFile, signal));
          for (const item of await planItems(planFile, signal)) items.push(eraseItem(item, store, part, userId));
        }
        const all = await ctx.timeMachine.storeNames(player, STORES_LISTED, signal).catch(() => undefined);
        return { summaries, items, unindexed: all?.filter((s) => !indexed.includes(s)) };
      },
      { delayMs: 500 },
    );
    const review = planned(op, where, items, summaries, { indexed, asOf, unindexed });
    return { op, panel: ctx.openReview(review, handlerFor(ctx, op)) };
  } catch (error) {
    ctx.operations.remove(op);
    throw error;
  }
}

/** A planned row of one store, with why it is the user's. */
function eraseItem(item: PlanItem, store: string, part: number, userId: number): EraseItem {
  const removesId = item.action !== 'delete';
  const why = removesId
    ? t`shared with other users: the id is taken out, the rest kept`
    : keyNamesUser(item.key, userId)
      ? t`its key names the user`
      : t`its user ids are the user's alone`;
  return { ...item, store, part, kind: removesId ? 'removeId' : 'delete', note: why };
}

/** The dry run of an erase over its stores: what is deleted, what keeps everything but the id, what is left out. */
function planned(
  op: Operation,
  where: string,
  items: EraseItem[],
  summaries: ErasePlanSummary[],
  searched: { indexed: string[]; asOf: string; unindexed?: string[] },
) {
  const userId = op.userId ?? 0;
  const stores = op.stores ?? [];
  const left: EraseItem[] = summaries.flatMap((s, part) =>
    s.left
      .filter((l) => l.reason !== 'notTied')
      .map((l, i) => ({
        n: -1 - i,
        part,
        store: stores[part],
        key: l.key,
        scope: l.scope,
        kind: 'left',
        action: 'gone' as const,
        version: l.version,
        note: l.why,
        opens: false,
      })),
  );
  const notTied = summaries.reduce((n, s) => n + s.unchanged, 0);
  const sum = (f: (s: ErasePlanSummary) => number) => summaries.reduce((n, s) => n + f(s), 0);
  const deletes = sum((s) => s.delete);
  const writes = sum((s) => s.write + s.recreate);
  const counted = [
    t`${count(deletes)} to delete (${count(sum((s) => s.tied.key))} by key, ${count(sum((s) => s.tied.userIds))} by user ids)`,
    t`${count(writes)} to take the id out of`,
    t`${count(notTied)} no longer tied to the user`,
  ];
  if (left.length) counted.push(t`${count(left.length)} already gone`);
  const estimate = t`${formatBytes(sum((s) => s.bytes))}, about ${duration(sum((s) => s.estimateMs))} at the current rate limit`;
  const notes = [
    t`Found through the query index as of ${localTime(searched.asOf)} in ${searched.indexed.join(', ')}: entries written since are not in it (Refresh Query Index first if that matters), and each found entry was read again now.`,
    searched.unindexed === undefined
      ? t`The universe's other stores could not be listed: stores not in the index are not searched.`
      : searched.unindexed.length
        ? t`Not searched (not in the query index): ${searched.unindexed.join(', ')}.`
        : t`Every data store of the universe is in the index.`,
    t`Each delete and write is conditioned on the version read now: an entry someone changes meanwhile is skipped and listed, never overwritten.`,
    t`The service keeps superseded versions for 30 days and lists deleted keys until it purges them: this product cannot remove those. Ordered and memory stores, bans and assets are not touched.`,
    t`Erase… asks you to type the user id, runs each store in turn, then asks where to save the receipt (keys, versions and times: no values).`,
  ];
  if (notTied)
    notes.push(
      t`Entries the index tied to the user but which no longer name them when read are left alone (counted, not listed).`,
    );
  const kinds: { id: string; label: string; tone: Tone; count?: number }[] = [
    { id: 'delete', label: t`delete`, tone: 'remove' },
    { id: 'removeId', label: t`take the id out`, tone: 'change' },
    { id: 'notTied', label: t`no longer tied`, tone: 'same', count: notTied },
  ];
  if (left.length) kinds.push({ id: 'left', label: t`already gone`, tone: 'skip' });
  return {
    title: t`Erase user ${userId}'s data`,
    heading: t`Erase player data`,
    direction: t`User ${userId}'s entries in ${stores.join(', ')} of ${where} → deleted, or the id taken out of shared entries`,
    phase: 'plan' as const,
    summary: t`${counted.join(', ')}; ${estimate}.`,
    notes,
    kinds,
    items: [...items, ...left],
    opens: t`the entry as it is now`,
    buttons: [
      { id: 'apply', label: t`Erase…`, primary: true, title: t`Asks you to type the user id first` },
      { id: 'cancel', label: t`Cancel`, title: t`Close without writing anything; the plan is removed` },
    ],
  };
}

/** Reads what each store's run did, for the result and the receipt. */
async function resultOf(ctx: DataStoresContext, op: Operation) {
  const stores = op.stores ?? [];
  const items = await ctx.ui.progress(
    t`Reading the erase of ${op.what}`,
    async (signal) => {
      const all: EraseItem[] = [];
      for (const [part, store] of stores.entries())
        for (const item of await resultItems(ctx.operations.storePlanFile(op, part), signal))
          all.push({ ...item, store, part, note: item.note });
      return all;
    },
    { delayMs: 500 },
  );
  const by = new Map<string, number>();
  for (const i of items) by.set(i.kind, (by.get(i.kind) ?? 0) + 1);
  const n = (kind: string) => by.get(kind) ?? 0;
  const kinds = [
    { id: 'deleted', label: t`deleted`, tone: 'remove' as Tone },
    { id: 'written', label: t`id taken out`, tone: 'change' as Tone },
    { id: 'raced', label: t`raced`, tone: 'fail' as Tone },
    { id: 'earlier', label: t`already so`, tone: 'same' as Tone },
    { id: 'skipped', label: t`skipped`, tone: 'skip' as Tone },
    { id: 'failed', label: t`failed`, tone: 'fail' as Tone },
    { id: 'notRun', label: t`not run`, tone: 'skip' as Tone },
  ].filter((k) => n(k.id) || ['deleted', 'written', 'skipped', 'failed'].includes(k.id));
  const notes: string[] = [];
  if (n('skipped'))
    notes.push(
      t`Skipped entries were changed by someone else since the plan: they still hold what they hold; erase again for them.`,
    );
  if (n('raced'))
    notes.push(t`Raced deletes removed a value another writer wrote after the version check: it is erased too.`);
  if (n('notRun') || n('failed')) notes.push(t`Continue runs what was not run and tries the failed ones again.`);
  notes.push(
    t`This operation keeps the erased values in the extension's storage (so nothing is lost by mistake): Forget it under Recent Operations once the receipt is saved.`,
  );
  const buttons = [];
  if (n('notRun') || n('failed')) buttons.push({ id: 'continue', label: t`Continue`, primary: true });
  buttons.push({ id: 'receipt', label: t`Save Receipt…`, primary: !buttons.length }, { id: 'close', label: t`Close` });
  const counted = kinds.map((k) => t`${count(n(k.id))} ${k.label}`).join(', ');
  return {
    title: t`Erase user ${op.userId ?? ''}'s data`,
    heading: t`Erase player data`,
    direction: t`User ${op.userId ?? ''}'s entries in ${stores.join(', ')} of ${universeWhere(ctx, op)}`,
    phase: 'result' as const,
    summary: t`${op.outcome ?? t`Ran`}: ${counted} (${count(items.length)} entries).`,
    notes,
    kinds,
    items,
    buttons,
    opens: t`the entry as it is now`,
  };
}

/** Opens the result of an erase that ran. */
export async function reopenErase(ctx: DataStoresContext, op: Operation): Promise<OperationReview> {
  return { op, panel: ctx.openReview(await resultOf(ctx, op), handlerFor(ctx, op)) };
}

function handlerFor(ctx: DataStoresContext, op: Operation): ReviewHandler {
  const run = (panel: ReviewPanel) => apply(ctx, op, panel);
  return operationHandler(ctx, op, { apply: run, continue: run, receipt: () => saveReceipt(ctx, op) }, async (item) => {
    const { store, scope, key } = item as EraseItem;
    const address = { connectionId: op.connectionId, universeId: op.universeId, datastoreName: store!, scope, key };
    await vscode.window.showTextDocument(entryUri(address), { preview: true });
  });
}

/** The run of one store's plan. */
function runOf(ctx: DataStoresContext, op: Operation, part: number): PlanRun {
  const store = { connectionId: op.connectionId, universeId: op.universeId, datastoreName: op.stores![part] };
  return {
    store,
    what: t`user ${op.userId ?? ''} in ${store.datastoreName}`,
    planFile: ctx.operations.storePlanFile(op, part),
    eraseOf: op.userId,
  };
}

/** Asks for the user id typed, then runs each store's plan in turn; the panel then shows the result. */
async function apply(ctx: DataStoresContext, op: Operation, panel: ReviewPanel): Promise<void> {
  const userId = String(op.userId);
  if (op.state === 'planned') {
    const typed = await askTyped(ctx.ui, {
      title: t`Erase user ${userId}'s data`,
      prompt: t`Type the user id, ${userId}, to erase their data in ${(op.stores ?? []).join(', ')}. This cannot be undone from here.`,
      expected: userId,
    });
    if (!typed) return;
  }
  if (!(await confirmProductionBulk(ctx.ui, op, t`erase user ${userId}'s data`))) return;
  ctx.operations.update(op, { state: 'stopped', applied: new Date().toISOString() });
  panel.busy(t`Erasing: the notification shows the progress and can cancel it.`);
  let failure: unknown;
  let done = true;
  try {
    try {
      for (const part of (op.stores ?? []).keys()) {
        const run = runOf(ctx, op, part);
        const total = panel.current.items.filter(
          (i) => (i as EraseItem).part === part && (i as EraseItem).n > 0,
        ).length;
        const result = await runPlan(ctx, run, total);
        if (result.failed) done = false;
      }
      ctx.operations.update(op, {
        state: done ? 'applied' : 'stopped',
        outcome: done ? t`Erased the data of user ${userId}` : t`The erase of user ${userId}'s data stopped`,
      });
    } catch (error) {
      ctx.operations.update(op, { outcome: t`The erase of user ${userId}'s data stopped` });
      done = false;
      if (!isCancel(error)) failure = error;
    }
    if (!panel.isDisposed) panel.show(await resultOf(ctx, op));
  } finally {
    panel.busy(undefined);
  }
  if (failure) throw failure;
  if (done) await saveReceipt(ctx, op);
}

/** The receipt of an erase over several stores: one receipt a store, and what remains, in one file. */
export interface ErasePlayerReceipt {
  receipt: 'erasePlayerData';
  made: string;
  userId: number;
  universe: string;
  stores: Omit<EraseReceipt, 'receipt' | 'made' | 'userId' | 'remains'>[];
  counts: EraseReceipt['counts'];
  remains: EraseReceipt['remains'];
}

export async function receiptOf(ctx: DataStoresContext, op: Operation): Promise<ErasePlayerReceipt> {
  const now = new Date();
  const receipts: EraseReceipt[] = [];
  for (const part of (op.stores ?? []).keys())
    receipts.push(await eraseReceipt(ctx.operations.storePlanFile(op, part), { now }));
  const counts = { deleted: 0, idRemoved: 0, notErased: 0, failed: 0, notRun: 0, putBack: 0 };
  for (const r of receipts) for (const k of Object.keys(counts) as (keyof typeof counts)[]) counts[k] += r.counts[k];
  return {
    receipt: 'erasePlayerData',
    made: now.toISOString(),
    userId: op.userId ?? 0,
    universe: universeWhere(ctx, op),
    stores: receipts.map(({ receipt: _r, made: _m, userId: _u, remains: _x, ...store }) => store),
    counts,
    remains: [
      ...(receipts[0]?.remains ?? []),
      {
        what: t`The query index on this machine (in the extension's storage) dropped the deleted entries; entries whose id was taken out keep it there until Refresh Query Index reads their stores again.`,
      },
    ],
  };
}

/** Save Receipt…: the receipt as JSON where the user says. */
async function saveReceipt(ctx: DataStoresContext, op: Operation): Promise<string | undefined> {
  const uri = await ctx.ui.saveDialog({
    title: t`Save the receipt of the erase of user ${op.userId ?? ''}'s data`,
    saveLabel: t`Save Receipt`,
    filters: { [t`JSON`]: ['json'] },
    defaultUri: workspaceFile(`erase-user-${op.userId ?? ''}`, fileStamp(new Date(op.applied ?? op.planned)), 'json'),
  });
  if (!uri) return undefined;
  const file = localPath(required(uri));
  await fs.promises.writeFile(file, `${JSON.stringify(await receiptOf(ctx, op), null, 2)}\n`);
  void ctx.ui.info(t`Saved the receipt of the erase of user ${op.userId ?? ''}'s data.`);
  return file;
}
