// Restore to Time… on a data store row: the moment, the keys (the row's scope and prefix, some picked, or one player's
// entries), an offer of a snapshot, then the plan in a review panel (Apply, Export Plan…, Cancel), where the run's
// result shows with Undo. The plan lives in the extension's storage (Recent Operations), not in the workspace.
// Run with `{ connectionId, universeId, datastoreName, userId }` (the player page), it asks only the moment and
// restores that player's entries in every scope of the store.
import { t } from '../../core/text';
import { localTime } from '../../core/time';
import { planAndReview, type OperationReview } from '../operations/reviewFlow';
import { assertWritable } from '../../core/universe';
import { allScopes, type StoreRef } from '../listState';
import type { TimeSelection } from '../timeMachine';
import type { DataStoresCommand, DataStoresContext } from './context';
import { askMoment } from './moment';
import { asStoreOrTime, writableStore } from './nodes';
import { whereOf } from './restorePlan';
import { askSelection, headerSelection } from './selection';
import { offerSnapshot } from './snapshot';

export const restoreToTime: DataStoresCommand = {
  id: 'universeExplorer.restoreToTime',
  get failure() {
    return t`restore the data store to a time`;
  },
  async run(ctx, node: unknown) {
    const player = playerStore(node);
    if (player) return restorePlayer(ctx, player);
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
    return reviewRestore(ctx, ref, selection, time);
  },
};

/** What another area (the player page) hands over: a store and one player, whose entries in every scope are restored. */
interface PlayerStore extends StoreRef {
  userId: number;
}

function playerStore(arg: unknown): PlayerStore | undefined {
  const a = arg as Partial<PlayerStore> | null | undefined;
  if (typeof a !== 'object' || a === null || typeof a.connectionId !== 'string') return undefined;
  if (typeof a.datastoreName !== 'string' || !Number.isSafeInteger(a.universeId)) return undefined;
  if (!Number.isSafeInteger(a.userId) || a.userId! <= 0) return undefined;
  return { connectionId: a.connectionId, universeId: a.universeId!, datastoreName: a.datastoreName, userId: a.userId! };
}

/** Restore to Time… of one player's entries (user ids that include them) in every scope of a store. */
async function restorePlayer(ctx: DataStoresContext, p: PlayerStore): Promise<OperationReview | undefined> {
  assertWritable(p);
  const ref: StoreRef = { connectionId: p.connectionId, universeId: p.universeId, datastoreName: p.datastoreName };
  const time = await askMoment(ctx.ui, { title: t`Restore user ${p.userId} in ${p.datastoreName} to a time` });
  return reviewRestore(ctx, ref, { scope: allScopes, prefix: '', userId: p.userId }, time);
}

/** The snapshot offered, then the plan of restoring the selection to `time`, in a review. */
export async function reviewRestore(
  ctx: DataStoresContext,
  ref: StoreRef,
  selection: TimeSelection,
  time: Date,
): Promise<OperationReview | undefined> {
  const when = localTime(time.getTime(), { seconds: true });
  const what = t`${ref.datastoreName} (${whereOf(headerSelection(selection))})`;
  if (!(await offerSnapshot(ctx, ref, t`restoring ${what} to ${when}`))) return undefined;
  return planAndReview(
    ctx,
    { kind: 'restore', ...ref, what, when },
    t`Planning the restore of ${what} to ${when}`,
    (planFile, signal) => ctx.timeMachine.planRestore(ref, selection, time, planFile, signal),
  );
}
