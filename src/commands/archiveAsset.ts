import { changed } from './assetSupport';
import type { CommandDef } from './context';
import { asAsset } from './nodes';

export const archiveAsset: CommandDef = {
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
    const client = await ctx.connections.client(a.connectionId);
    const asset = await client.assets.archive({ assetId: a.assetId });
    await changed(ctx, a.connectionId, asset);
    return asset;
  },
};
