import { t } from '../../core/text';
import { confirmWrite } from '../../core/undo';
import type { AssetsCommand } from './context';
import { asAssetVersion, assetAskingWords } from './support';

export const rollbackAsset: AssetsCommand = {
  id: 'universeExplorer.rollbackAsset',
  get failure() {
    return t`roll back the asset`;
  },
  async run(ctx, node: unknown) {
    const v = asAssetVersion(node);
    const a = v.parent;
    const n = v.version.versionNumber;
    const rollBack = t`Roll Back`;
    const { question, detail } = assetAskingWords(
      ctx,
      a.connectionId,
      t`Roll back "${a.displayName}" to version ${n}?`,
      t`The service makes a new version with the content of version ${n}; the later versions are kept.`,
    );
    const answer = await ctx.ui.warn(question, { modal: true, detail }, rollBack);
    if (answer !== rollBack) return undefined;
    const made = await ctx.ui.progress(t`Rolling back ${a.displayName}…`, (signal) =>
      ctx.model.rollback(a.connectionId, a.assetId, n, signal),
    );
    const before = a.asset?.revisionId;
    confirmWrite(
      ctx.ui,
      made.versionNumber !== n
        ? t`Rolled back "${a.displayName}" to version ${n}: now version ${made.versionNumber}.`
        : t`Rolled back "${a.displayName}" to version ${n}.`,
      before && before !== n
        ? {
            progress: t`Undoing the rollback of ${a.displayName}…`,
            run: (signal) => ctx.model.rollback(a.connectionId, a.assetId, before, signal),
            done: t`"${a.displayName}" has the content of version ${before} again, as a new version.`,
            what: t`the rollback of "${a.displayName}"`,
            otherwise: t`Roll back to version ${before} from its versions list.`,
          }
        : undefined,
    );
    return made;
  },
};
