import { validator } from '../../core/prompts';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { parseAssetId } from '../assetFormat';
import { AssetsGroupNode } from '../tree';
import type { AssetsCommand } from './context';
import { pickConnection } from '../../core/prompts';

export const addAssetById: AssetsCommand = {
  id: 'universeExplorer.addAssetById',
  get failure() {
    return t`add the asset`;
  },
  async run(ctx, node?: unknown) {
    const connectionId =
      node instanceof AssetsGroupNode ? node.connectionId : (await pickConnection(ctx.ui, ctx.connections)).id;
    const text = await ctx.ui.input({
      title: t`Add Asset by ID`,
      prompt: t`The id of an asset this connection can read; it is checked with the service`,
      validateInput: validator(parseAssetId),
    });
    const assetId = parseAssetId(required(text));
    return ctx.ui.progress(t`Adding asset ${assetId}…`, (signal) => ctx.model.addById(connectionId, assetId, signal));
  },
};
