import { t } from '../../core/text';
import type { AssetsCommand } from './context';
import { asAsset } from './support';

export const copyAssetId: AssetsCommand = {
  id: 'universeExplorer.copyAssetId',
  get failure() {
    return t`copy the asset id`;
  },
  run: (ctx, node: unknown) => ctx.ui.copy(asAsset(node).assetId),
};
