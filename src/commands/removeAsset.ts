import { refreshAssets } from './assetSupport';
import type { CommandDef } from './context';
import { asAsset } from './nodes';

/** Forgets the asset in this list only; the service is not asked. */
export const removeAsset: CommandDef = {
  id: 'universeExplorer.removeAsset',
  failure: 'remove the asset from the list',
  async run(ctx, node: unknown) {
    const a = asAsset(node);
    await ctx.assets.forget(a.connectionId, a.assetId);
    await refreshAssets(ctx, a.connectionId);
  },
};
