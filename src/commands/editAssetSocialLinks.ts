import type { UpdateAssetRequest } from '../api';
import { checkSocialUri, SOCIAL_LINKS } from '../assetFormat';
import { required } from '../ui';
import { updateAsset } from './assetSupport';
import type { CommandDef } from './context';
import { asAsset } from './nodes';

interface SocialLink {
  title?: string;
  uri: string;
}

export const editAssetSocialLinks: CommandDef = {
  id: 'universeExplorer.editAssetSocialLinks',
  failure: 'edit the social links',
  async run(ctx, node: unknown) {
    const a = asAsset(node);
    const client = await ctx.connections.client(a.connectionId);
    const current = (await client.assets.get({ assetId: a.assetId })) as Record<string, unknown>;
    const request: UpdateAssetRequest = {};
    for (const kind of SOCIAL_LINKS) {
      const link = current[kind.field] as SocialLink | undefined;
      const uri = required(
        await ctx.ui.input({
          title: `${kind.name} link`,
          value: link?.uri ?? '',
          prompt: `An https://${kind.hosts[0]}/… address; empty removes the link`,
          validateInput: (v) => checkSocialUri(kind, v),
        }),
      ).trim();
      if (!uri) continue;
      const title = required(await ctx.ui.input({ title: `${kind.name} link title`, value: link?.title ?? '', prompt: 'Optional' })).trim();
      request[kind.field] = title ? { title, uri } : { uri };
    }
    return updateAsset(ctx, a, `Saving the social links of ${a.displayName}`, {
      request,
      updateMask: SOCIAL_LINKS.map((k) => k.field).join(','),
    });
  },
};
