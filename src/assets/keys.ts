import type { RowKeys } from '../core/rowKeys';

export const assetsKeys: RowKeys = {
  asset: { delete: 'universeExplorer.archiveAsset', open: 'universeExplorer.showAssetDetails' },
  'asset.archived': { open: 'universeExplorer.showAssetDetails' },
  'asset.unavailable': { delete: 'universeExplorer.removeAsset' },
};
