import type { CommandDef } from './context';
import { asAsset } from './nodes';

export const copyAssetId: CommandDef = {
  id: 'universeExplorer.copyAssetId',
  failure: 'copy the asset id',
  run: (ctx, node: unknown) => ctx.ui.copy(asAsset(node).assetId),
};
