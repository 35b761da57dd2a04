// Take Snapshot on a Data Stores group (cloud v2): every entry as it is now stays recoverable for 30 days, whatever
// is written after. The service takes one a UTC day; a second call that day answers the first. Offered before an
// import or a restore, which write over many entries at once.
import { t } from '../../core/text';
import { localAndUtc } from '../../core/time';
import type { UniverseAddress } from '../../core/universe';
import type { DataStoresCommand, DataStoresContext } from './context';
import { asStoreGroup, requireV2 } from './nodes';

const today = (): string => new Date().toISOString().slice(0, 10);

/** Takes a snapshot of the universe and says what the service kept. */
async function take(ctx: DataStoresContext, u: UniverseAddress): Promise<void> {
  const taken = await ctx.ui.progress(t`Taking a snapshot of universe ${u.universeId}…`, (signal) =>
    ctx.model.snapshot(u, signal),
  );
  const when = localAndUtc(taken.latestSnapshotTime);
  void ctx.ui.info(
    taken.newSnapshotTaken
      ? t`Snapshot of universe ${u.universeId} taken at ${when}: every entry as it is now can be restored for 30 days.`
      : t`Universe ${u.universeId} already has today's snapshot (${when}); the service takes one a UTC day.`,
  );
}

export const takeSnapshot: DataStoresCommand = {
  id: 'universeExplorer.takeSnapshot',
  get failure() {
    return t`take a snapshot`;
  },
  async run(ctx, node: unknown) {
    const { ref } = asStoreGroup(node);
    requireV2(ctx.model, ref, t`A snapshot`);
    await take(ctx, ref);
  },
};

/**
 * Before work that writes many entries: on a cloud v2 connection without a snapshot today (as far as this machine
 * knows), asks whether to take one first. False when the user dismissed the question (nothing is to be done).
 */
export async function offerSnapshot(ctx: DataStoresContext, u: UniverseAddress, work: string): Promise<boolean> {
  if (ctx.model.apiVersion(u) !== 'v2' || ctx.model.lastSnapshot(u)?.startsWith(today())) return true;
  const snapshot = t`Take Snapshot`;
  const skip = t`Continue Without`;
  const answer = await ctx.ui.warn(
    t`Take a snapshot of universe ${u.universeId} before ${work}?`,
    {
      modal: true,
      detail: t`A snapshot keeps every entry as it is now recoverable for 30 days, whatever is written after. The service takes one a UTC day.`,
    },
    snapshot,
    skip,
  );
  if (answer === snapshot) await take(ctx, u);
  return answer === snapshot || answer === skip;
}
