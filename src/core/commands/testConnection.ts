import { PermissionDeniedError } from '../../api';
import { reason } from '../errors';
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
  failure: 'test the connection',
  async run(ctx, node?: unknown) {
    const connection = node instanceof UniverseNode ? node.parent.connection : await connectionOf(ctx, node);
    const universe = node instanceof UniverseNode ? node.universe : connection.universes[0];
    if (!universe) throw new Error(`"${connection.name}" has no universe to test with; add one first`);
    const client = await ctx.connections.client(connection.id);
    const results = await ctx.ui.progress(`Testing ${connection.name}…`, (signal) =>
      Promise.all(
        ctx.probes.map(async ({ area, probe }): Promise<AreaResult> => {
          try {
            await probe(client, universe.id, signal);
            return { area, ok: true, detail: 'reachable' };
          } catch (error) {
            if (error instanceof PermissionDeniedError) return { area, ok: false, detail: 'the key lacks permission' };
            if (signal.aborted) throw error;
            return { area, ok: false, detail: reason(error) };
          }
        }),
      ),
    );
    const summary = results.map((r) => `${r.area}: ${r.ok ? '✓' : '✗'} ${r.detail}`).join('; ');
    ctx.log.info(`Test of "${connection.name}" on universe ${universe.id}: ${summary}`);
    if (results.every((r) => r.ok)) void ctx.ui.info(`${connection.name} (universe ${universe.id}): ${summary}`);
    else void ctx.ui.warn(`${connection.name} (universe ${universe.id}): ${summary}`, {});
    return results;
  },
};
