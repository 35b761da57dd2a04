import type { AssetsCommand } from './context';
import { asAsset } from './support';

export const archiveAsset: AssetsCommand = {
  id: 'universeExplorer.archiveAsset',
  failure: 'archive the asset',
  async run(ctx, node: unknown) {
    const a = asAsset(node);
    const answer = await ctx.ui.warn(
      `Archive "${a.displayName}" (asset ${a.assetId})?`,
      { modal: true, detail: 'It disappears from the website and cannot be used in experiences until it is restored.' },
      'Archive',
    );
    if (answer !== 'Archive') return undefined;
    return ctx.ui.progress(`Archiving ${a.displayName}…`, (signal) =>
      ctx.model.archive(a.connectionId, a.assetId, signal),
    );
  },
};
