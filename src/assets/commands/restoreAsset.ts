import { t } from '../../core/text';
import type { AssetsCommand } from './context';
import { asAsset, confirmAssetWrite } from './support';

export const restoreAsset: AssetsCommand = {
  id: 'universeExplorer.restoreAsset',
  get failure() {
    return t`restore the asset`;
  },
  async run(ctx, node: unknown) {
    const a = asAsset(node);
    await confirmAssetWrite(ctx, a.connectionId, t`Restore "${a.displayName}" (asset ${a.assetId})?`, t`Restore`);
    return ctx.ui.progress(t`Restoring ${a.displayName}…`, (signal) =>
      ctx.model.restore(a.connectionId, a.assetId, signal),
    );
  },
};
