import { t } from '../../core/text';
import type { AssetsCommand } from './context';
import { asAsset } from './support';

/** Forgets the asset in this list only; the service is not asked. */
export const removeAsset: AssetsCommand = {
  id: 'universeExplorer.removeAsset',
  get failure() {
    return t`remove the asset from the list`;
  },
  async run(ctx, node: unknown) {
    const a = asAsset(node);
    await ctx.model.forget(a.connectionId, a.assetId);
  },
};
