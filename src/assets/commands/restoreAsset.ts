import { t } from '../../core/text';
import type { AssetsCommand } from './context';
import { asAsset } from './support';

export const restoreAsset: AssetsCommand = {
  id: 'universeExplorer.restoreAsset',
  get failure() {
    return t`restore the asset`;
  },
  run(ctx, node: unknown) {
    const a = asAsset(node);
    return ctx.ui.progress(t`Restoring ${a.displayName}…`, (signal) =>
      ctx.model.restore(a.connectionId, a.assetId, signal),
    );
  },
};
