import { askDescription, askName } from './assetPrompts';
import { updateAsset } from './assetSupport';
import type { CommandDef } from './context';
import { asAsset } from './nodes';

export const editAssetInfo: CommandDef = {
  id: 'universeExplorer.editAssetInfo',
  failure: 'edit the name and description',
  async run(ctx, node: unknown) {
    const a = asAsset(node);
    const client = await ctx.connections.client(a.connectionId);
    const current = await client.assets.get({ assetId: a.assetId });
    const displayName = await askName(ctx.ui, `Name of asset ${a.assetId}`, current.displayName);
    const description = await askDescription(ctx.ui, `Description of ${displayName}`, current.description);
    return updateAsset(ctx, a, `Saving ${displayName}`, {
      request: { displayName, description },
      updateMask: 'description,displayName',
    });
  },
};
