import { validator } from '../../core/prompts';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { formatPreviews, MAX_PREVIEWS, parsePreviews } from '../assetFormat';
import type { AssetsCommand } from './context';
import { currentAsset, updateAsset } from './support';

export const editAssetPreviews: AssetsCommand = {
  id: 'universeExplorer.editAssetPreviews',
  get failure() {
    return t`edit the previews`;
  },
  async run(ctx, node: unknown) {
    const { node: a, asset } = await currentAsset(ctx, node);
    const text = await ctx.ui.input({
      title: t`Previews of ${asset.displayName}`,
      value: formatPreviews(asset.previews),
      prompt: t`Image asset ids separated by ";", each optionally "= alt text" (at most ${MAX_PREVIEWS}); empty removes them all`,
      validateInput: validator(parsePreviews),
    });
    const previews = parsePreviews(required(text));
    const ask = { question: t`Save the previews of "${asset.displayName}" (asset ${a.assetId})?`, button: t`Save` };
    return updateAsset(ctx, a, t`Saving the previews of ${asset.displayName}`, ask, {
      request: { previews },
      updateMask: 'previews',
    });
  },
};
