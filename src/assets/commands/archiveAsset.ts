import { t } from '../../core/text';
import type { AssetsCommand } from './context';
import { asAsset, assetAskingWords } from './support';

export const archiveAsset: AssetsCommand = {
  id: 'universeExplorer.archiveAsset',
  get failure() {
    return t`archive the asset`;
  },
  async run(ctx, node: unknown) {
    const a = asAsset(node);
    const archive = t`Archive`;
    const { question, detail } = assetAskingWords(
      ctx,
      a.connectionId,
      t`Archive "${a.displayName}" (asset ${a.assetId})?`,
      t`It disappears from the website and cannot be used in experiences until it is restored.`,
    );
    const answer = await ctx.ui.warn(question, { modal: true, detail }, archive);
    if (answer !== archive) return undefined;
    return ctx.ui.progress(t`Archiving ${a.displayName}…`, (signal) =>
      ctx.model.archive(a.connectionId, a.assetId, signal),
    );
  },
};
