import { t } from '../../core/text';
import { askDescription, askName } from './assetPrompts';
import type { AssetsCommand } from './context';
import { currentAsset, updateAsset } from './support';

export const editAssetInfo: AssetsCommand = {
  id: 'universeExplorer.editAssetInfo',
  get failure() {
    return t`edit the name and description`;
  },
  async run(ctx, node: unknown) {
    const { node: a, asset } = await currentAsset(ctx, node);
    const displayName = await askName(ctx.ui, t`Name of asset ${a.assetId}`, asset.displayName);
    const description = await askDescription(ctx.ui, t`Description of ${displayName}`, asset.description);
    const ask = {
      question: t`Save the name and description of "${asset.displayName}" (asset ${a.assetId})?`,
      button: t`Save`,
    };
    return updateAsset(ctx, a, t`Saving ${displayName}`, ask, {
      request: { displayName, description },
      updateMask: 'description,displayName',
    });
  },
};
