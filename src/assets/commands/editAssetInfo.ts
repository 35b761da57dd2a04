import { askDescription, askName } from './assetPrompts';
import type { AssetsCommand } from './context';
import { currentAsset, updateAsset } from './support';

export const editAssetInfo: AssetsCommand = {
  id: 'universeExplorer.editAssetInfo',
  failure: 'edit the name and description',
  async run(ctx, node: unknown) {
    const { node: a, asset } = await currentAsset(ctx, node);
    const displayName = await askName(ctx.ui, `Name of asset ${a.assetId}`, asset.displayName);
    const description = await askDescription(ctx.ui, `Description of ${displayName}`, asset.description);
    return updateAsset(ctx, a, `Saving ${displayName}`, {
      request: { displayName, description },
      updateMask: 'description,displayName',
    });
  },
};
