import { formatPreviews, MAX_PREVIEWS, parsePreviews } from '../assetFormat';
import { required } from '../ui';
import { updateAsset } from './assetSupport';
import type { CommandDef } from './context';
import { asAsset } from './nodes';

export const editAssetPreviews: CommandDef = {
  id: 'universeExplorer.editAssetPreviews',
  failure: 'edit the previews',
  async run(ctx, node: unknown) {
    const a = asAsset(node);
    const client = await ctx.connections.client(a.connectionId);
    const current = await client.assets.get({ assetId: a.assetId });
    const text = await ctx.ui.input({
      title: `Previews of ${current.displayName}`,
      value: formatPreviews(current.previews),
      prompt: `Image asset ids separated by ";", each optionally "= alt text" (at most ${MAX_PREVIEWS}); empty removes them all`,
      validateInput: (v) => {
        try {
          parsePreviews(v);
          return undefined;
        } catch (error) {
          return (error as Error).message;
        }
      },
    });
    const previews = parsePreviews(required(text));
    return updateAsset(ctx, a, `Saving the previews of ${current.displayName}`, { request: { previews }, updateMask: 'previews' });
  },
};
