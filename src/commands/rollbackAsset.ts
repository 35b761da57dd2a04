import { refreshAssets } from './assetSupport';
import type { CommandDef } from './context';
import { asAssetVersion } from './nodes';

export const rollbackAsset: CommandDef = {
  id: 'universeExplorer.rollbackAsset',
  failure: 'roll back the asset',
  async run(ctx, node: unknown) {
    const v = asAssetVersion(node);
    const a = v.parent;
    const n = v.version.versionNumber;
    const answer = await ctx.ui.warn(
      `Roll back "${a.displayName}" to version ${n}?`,
      { modal: true, detail: `The service makes a new version with the content of version ${n}; the later versions are kept.` },
      'Roll Back',
    );
    if (answer !== 'Roll Back') return undefined;
    const client = await ctx.connections.client(a.connectionId);
    const made = await client.assets.rollback({ assetId: a.assetId, versionNumber: n });
    await refreshAssets(ctx, a.connectionId);
    const now = made.versionNumber !== n ? `: now version ${made.versionNumber}` : '';
    void ctx.ui.info(`Rolled back "${a.displayName}" to version ${n}${now}`);
    return made;
  },
};
