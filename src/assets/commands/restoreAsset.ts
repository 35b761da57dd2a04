import type { AssetsCommand } from './context';
import { asAsset } from './support';

export const restoreAsset: AssetsCommand = {
  id: 'universeExplorer.restoreAsset',
  failure: 'restore the asset',
  run(ctx, node: unknown) {
    const a = asAsset(node);
    return ctx.ui.progress(`Restoring ${a.displayName}…`, (signal) =>
      ctx.model.restore(a.connectionId, a.assetId, signal),
    );
  },
};
