import type { UpdateAssetRequest } from '../../api';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { checkSocialUri, SOCIAL_LINKS } from '../assetFormat';
import type { AssetsCommand } from './context';
import { currentAsset, updateAsset } from './support';

interface SocialLink {
  title?: string;
  uri: string;
}

export const editAssetSocialLinks: AssetsCommand = {
  id: 'universeExplorer.editAssetSocialLinks',
  get failure() {
    return t`edit the social links`;
  },
  async run(ctx, node: unknown) {
    const { node: a, asset } = await currentAsset(ctx, node);
    const current = asset as Record<string, unknown>;
    const request: UpdateAssetRequest = {};
    for (const kind of SOCIAL_LINKS) {
      const link = current[kind.field] as SocialLink | undefined;
      const uri = required(
        await ctx.ui.input({
          title: t`${kind.name} link`,
          value: link?.uri ?? '',
          prompt: t`An https://${kind.hosts[0]}/… address; empty removes the link`,
          validateInput: (v) => checkSocialUri(kind, v),
        }),
      ).trim();
      if (!uri) continue;
      const title = required(
        await ctx.ui.input({ title: t`${kind.name} link title`, value: link?.title ?? '', prompt: t`Optional` }),
      ).trim();
      request[kind.field] = title ? { title, uri } : { uri };
    }
    const ask = { question: t`Save the social links of "${asset.displayName}" (asset ${a.assetId})?`, button: t`Save` };
    return updateAsset(ctx, a, t`Saving the social links of ${a.displayName}`, ask, {
      request,
      updateMask: SOCIAL_LINKS.map((k) => k.field).join(','),
    });
  },
};
