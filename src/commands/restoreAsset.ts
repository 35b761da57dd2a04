import { changed } from './assetSupport';
import type { CommandDef } from './context';
import { asAsset } from './nodes';

export const restoreAsset: CommandDef = {
  id: 'universeExplorer.restoreAsset',
  failure: 'restore the asset',
  async run(ctx, node: unknown) {
    const a = asAsset(node);
    const client = await ctx.connections.client(a.connectionId);
    const asset = await client.assets.restore({ assetId: a.assetId });
    await changed(ctx, a.connectionId, asset);
    return asset;
  },
};
