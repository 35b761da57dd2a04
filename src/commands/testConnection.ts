import { NotFoundError, PermissionDeniedError, type OpenApiClient } from '../api';
import { reason } from '../errors';
import { UniverseNode } from '../tree/universeNode';
import type { CommandDef } from './context';
import { withProgress } from './progress';
import { pickConnection } from './prompts';

export interface AreaResult {
  area: 'Data stores' | 'User restrictions' | 'Assets';
  ok: boolean;
  detail: string;
}

type Probe = (client: OpenApiClient, universeId: number, signal: AbortSignal) => Promise<unknown>;

/** One cheap read per area; a 403 means the key lacks that area, not that the connection is broken. */
const probes: [AreaResult['area'], Probe][] = [
  ['Data stores', (c, universeId, signal) => c.datastores.listDataStores({ universeId, limit: 1 }, { signal })],
  ['User restrictions', (c, universeId, signal) => c.restrictions.list({ universeId, maxPageSize: 1 }, { signal })],
  // No asset is needed: a 404 for an unknown id proves the key may read assets.
  ['Assets', (c, _universeId, signal) => c.assets.get({ assetId: '1' }, { signal }).catch(notFoundIsFine)],
];

function notFoundIsFine(error: unknown): void {
  if (!(error instanceof NotFoundError)) throw error;
}

export const testConnection: CommandDef = {
  id: 'universeExplorer.testConnection',
  failure: 'test the connection',
  async run(ctx, node?: unknown) {
    const connection =
      node instanceof UniverseNode ? node.parent.connection : await pickConnection(ctx, node);
    const universe = node instanceof UniverseNode ? node.universe : connection.universes[0];
    if (!universe) throw new Error(`"${connection.name}" has no universe to test with; add one first`);
    const client = await ctx.connections.client(connection.id);
    const results = await withProgress(`Testing ${connection.name}…`, (signal) =>
      Promise.all(
        probes.map(async ([area, probe]): Promise<AreaResult> => {
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
