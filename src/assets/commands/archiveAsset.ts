import { t } from '../../core/text';
import type { AssetsCommand } from './context';
import { asAsset } from './support';

export const archiveAsset: AssetsCommand = {
  id: 'universeExplorer.archiveAsset',
  get failure() {
    return t`archive the asset`;
  },
  async run(ctx, node: unknown) {
    const a = asAsset(node);
    const archive = t`Archive`;
    const answer = await ctx.ui.warn(
      t`Archive "${a.displayName}" (asset ${a.assetId})?`,
      {
        modal: true,
        detail: t`It disappears from the website and cannot be used in experiences until it is restored.`,
      },
      archive,
    );
    if (answer !== archive) return undefined;
    return ctx.ui.progress(t`Archiving ${a.displayName}…`, (signal) =>
      ctx.model.archive(a.connectionId, a.assetId, signal),
    );
  },
};
