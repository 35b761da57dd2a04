import { parseAssetId } from '../assetFormat';
import { AssetsGroupNode } from '../tree/assetsGroupNode';
import { required } from '../ui';
import { refreshAssets } from './assetSupport';
import type { CommandDef } from './context';
import { pickConnection } from './prompts';

export const addAssetById: CommandDef = {
  id: 'universeExplorer.addAssetById',
  failure: 'add the asset',
  async run(ctx, node?: unknown) {
    const connectionId = node instanceof AssetsGroupNode ? node.connectionId : (await pickConnection(ctx, node)).id;
    const text = await ctx.ui.input({
      title: 'Add Asset by ID',
      prompt: 'The id of an asset this connection can read; it is checked with the service',
      validateInput: (v) => {
        try {
          parseAssetId(v);
          return undefined;
        } catch (error) {
          return (error as Error).message;
        }
      },
    });
    const client = await ctx.connections.client(connectionId);
    const asset = await client.assets.get({ assetId: parseAssetId(required(text)) });
    await ctx.assets.add(connectionId, { id: asset.assetId, displayName: asset.displayName, assetType: asset.assetType });
    await refreshAssets(ctx, connectionId);
    return asset;
  },
};
