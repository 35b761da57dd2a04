import { basename } from 'node:path';
import { assetTypesFor } from '../../api';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { extensionsFor } from '../assetFormat';
import type { AssetsCommand } from './context';
import { announceAsset, asAsset, assetFile, updateAsset } from './support';

export const updateAssetContent: AssetsCommand = {
  id: 'universeExplorer.updateAssetContent',
  get failure() {
    return t`update the content`;
  },
  async run(ctx, node: unknown) {
    const a = asAsset(node);
    const type = a.asset?.assetType ?? a.known.assetType;
    if (!type) throw new Error(t`the type of asset ${a.assetId} is not known yet; refresh it first`);
    const extensions = extensionsFor(type);
    const [uri] = required(
      await ctx.ui.openDialog({
        title: t`New content for ${a.displayName}`,
        openLabel: t`Upload`,
        canSelectMany: false,
        filters: { [t`${type} files`]: extensions },
      }),
    );
    if (!assetTypesFor(uri.path).includes(type as never)) {
      throw new Error(
        t`${basename(uri.path)} can't be the content of a ${type} asset; it takes ${extensions.map((e) => `.${e}`).join(', ')}`,
      );
    }
    const name = basename(uri.path);
    const ask = {
      question: t`Upload ${name} as the new content of "${a.displayName}" (asset ${a.assetId})?`,
      button: t`Upload`,
    };
    const asset = await updateAsset(ctx, a, t`Uploading ${name} as new content of ${a.displayName}`, ask, {
      request: {},
      file: await assetFile(uri),
    });
    announceAsset(
      ctx,
      a.connectionId,
      t`Updated ${asset.displayName} from ${basename(uri.path)}: now version ${asset.revisionId}`,
      asset,
    );
    return asset;
  },
};
