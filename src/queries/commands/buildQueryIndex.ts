// Build Query Index… and Refresh Query Index: copy stores of a universe into its local index, live through the
// export engine, under one cancellable notification. The service has no change feed, so a refresh reads the stores
// again in full.
import { settings } from '../../core/settings';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import type { UniverseAddress } from '../../core/universe';
import type { BuildProgress, IndexedPart } from '../../query';
import { describeCoverage } from '../indexes';
import type { QueriesCommand, QueriesContext } from './context';
import { universeName, universeOf } from './universe';

interface Part {
  store: string;
  scope?: string;
}

export const buildQueryIndex: QueriesCommand = {
  id: 'universeExplorer.buildQueryIndex',
  get failure() {
    return t`build the query index`;
  },
  run: async (ctx, node: unknown) => {
    const u = await universeOf(ctx, node);
    const client = await ctx.connections.client(u.connectionId);
    const indexed = await ctx.indexes.covered(u);
    const stores = await ctx.ui.progress(t`Listing the data stores of ${universeName(ctx, u)}…`, async (signal) => {
      const names: string[] = [];
      for await (const store of client.datastores.listDataStores({ universeId: u.universeId }, { signal }))
        names.push(store.name);
      return names;
    });
    if (!stores.length) throw new Error(t`${universeName(ctx, u)} has no data stores to index`);
    const picked = required(
      await ctx.ui.pickMany(
        stores.map((name) => ({
          label: name,
          picked: indexed.some((p) => p.store === name),
          description: indexed.some((p) => p.store === name) ? t`indexed` : undefined,
        })),
        { title: t`Build Query Index of ${universeName(ctx, u)}`, placeHolder: t`The data stores to index` },
      ),
    );
    if (!picked.length) return undefined;
    return build(
      ctx,
      u,
      picked.map((p) => ({ store: p.label })),
      indexed,
    );
  },
};

export const refreshQueryIndex: QueriesCommand = {
  id: 'universeExplorer.refreshQueryIndex',
  get failure() {
    return t`refresh the query index`;
  },
  run: async (ctx, node: unknown) => {
    const u = await universeOf(ctx, node);
    const indexed = await ctx.indexes.covered(u);
    if (!indexed.length) {
      throw new Error(t`the query index of ${universeName(ctx, u)} is not built yet; run Build Query Index… first`);
    }
    return build(
      ctx,
      u,
      indexed.map((p) => ({ store: p.store, scope: p.scope })),
      indexed,
    );
  },
};

/** Builds each part in turn; what was built before a cancel stays in the index. */
async function build(
  ctx: QueriesContext,
  u: UniverseAddress,
  parts: Part[],
  before: readonly IndexedPart[],
): Promise<IndexedPart[]> {
  const client = await ctx.connections.client(u.connectionId);
  const api = ctx.connections.get(u.connectionId)?.datastoresApi ?? 'v1';
  const index = ctx.indexes.index(u);
  try {
    await ctx.ui.progress(
      t`Building the query index of ${universeName(ctx, u)}`,
      async (signal, report) => {
        for (const [i, part] of parts.entries()) {
          const started = Date.now();
          const expected = before.find((p) => p.store === part.store && p.scope === part.scope)?.entries;
          const step = parts.length > 1 ? ` (${i + 1}/${parts.length})` : '';
          report(t`${part.store}${step}: starting…`);
          await index.build(
            client,
            { ...part, api },
            {
              signal,
              budgetShare: settings().bulkBudgetShare,
              onProgress: (p) => report(`${part.store}${step}: ${describeProgress(p, started, expected)}`),
            },
          );
        }
      },
      { delayMs: 0 },
    );
  } finally {
    await ctx.indexes.reload(u);
  }
  const now = await ctx.indexes.covered(u);
  void ctx.ui.info(t`Query index of ${universeName(ctx, u)}: ${describeCoverage(now) ?? t`empty`}.`);
  return now;
}

/**
 * "12,400 entries · 830/s · 1:10 elapsed · about 0:40 left". The keys are listed ahead of the reads, so once the
 * listing is complete the keys left are known; until then an earlier build's size stands in, if there is one.
 */
export function describeProgress(p: BuildProgress, started: number, expected?: number): string {
  if (p.phase === 'loading') return p.percent === undefined ? t`loading into the index…` : t`loading ${p.percent}%`;
  const done = p.exported + p.resumed;
  const handled = p.exported + p.skipped + p.failed;
  const elapsed = Math.round((Date.now() - started) / 1000);
  const parts = [
    t`${done.toLocaleString()} entries`,
    t`${Math.round(p.ratePerSecond)}/s`,
    t`${clock(elapsed)} elapsed`,
  ];
  const left = p.listedAll
    ? p.listed - handled
    : expected === undefined
      ? undefined
      : Math.max(expected - done, p.listed - handled);
  if (left === undefined) parts.push(t`${p.listed.toLocaleString()} keys listed so far`);
  else if (left > 0 && p.ratePerSecond > 0) parts.push(t`about ${clock(Math.round(left / p.ratePerSecond))} left`);
  if (p.failed) parts.push(t`${p.failed} could not be read`);
  return parts.join(' · ');
}

const clock = (s: number): string => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
