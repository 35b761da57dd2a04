import { PermissionDeniedError } from '../../api';
import { reason } from '../errors';
import { t } from '../text';
import { UniverseNode } from '../tree/connectionNodes';
import { connectionOf } from './connectionOf';
import type { CoreCommand } from './context';

export interface AreaResult {
  area: string;
  ok: boolean;
  detail: string;
}

/** One cheap read per area (each area brings its probe); a 403 means the key lacks that area, not that the connection is broken. */
export const testConnection: CoreCommand = {
  id: 'universeExplorer.testConnection',
  get failure() {
    return t`test the connection`;
  },
  async run(ctx, node?: unknown) {
    const connection = node instanceof UniverseNode ? node.parent.connection : await connectionOf(ctx, node);
    const universe = node instanceof UniverseNode ? node.universe : connection.universes[0];
    if (!universe) throw new Error(t`"${connection.name}" has no universe to test with; add one first`);
    const client = await ctx.connections.client(connection.id);
    const results = await ctx.ui.progress(t`Testing ${connection.name}…`, (signal) =>
      Promise.all(
        ctx.probes.map(async ({ area, probe }): Promise<AreaResult> => {
          try {
            await probe(client, universe.id, signal);
            return { area, ok: true, detail: t`reachable` };
          } catch (error) {
            if (error instanceof PermissionDeniedError) return { area, ok: false, detail: t`the key lacks permission` };
            if (signal.aborted) throw error;
            return { area, ok: false, detail: reason(error) };
          }
        }),
      ),
    );
    const summary = results.map((r) => `${r.area}: ${r.ok ? '✓' : '✗'} ${r.detail}`).join('; ');
    ctx.log.info(`Test of "${connection.name}" on universe ${universe.id}: ${summary}`);
    const said = t`${connection.name} (universe ${universe.id}): ${summary}`;
    if (results.every((r) => r.ok)) void ctx.ui.info(said);
    else void ctx.ui.warn(said, {});
    return results;
  },
};
