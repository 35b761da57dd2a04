import { confirmWrite } from '../../core/undo';
import type { AssetsCommand } from './context';
import { asAssetVersion } from './support';

export const rollbackAsset: AssetsCommand = {
  id: 'universeExplorer.rollbackAsset',
  failure: 'roll back the asset',
  async run(ctx, node: unknown) {
    const v = asAssetVersion(node);
    const a = v.parent;
    const n = v.version.versionNumber;
    const answer = await ctx.ui.warn(
      `Roll back "${a.displayName}" to version ${n}?`,
      {
        modal: true,
        detail: `The service makes a new version with the content of version ${n}; the later versions are kept.`,
      },
      'Roll Back',
    );
    if (answer !== 'Roll Back') return undefined;
    const made = await ctx.ui.progress(`Rolling back ${a.displayName}…`, (signal) =>
      ctx.model.rollback(a.connectionId, a.assetId, n, signal),
    );
    const now = made.versionNumber !== n ? `: now version ${made.versionNumber}` : '';
    const before = a.asset?.revisionId;
    confirmWrite(
      ctx.ui,
      `Rolled back "${a.displayName}" to version ${n}${now}.`,
      before && before !== n
        ? {
            progress: `Undoing the rollback of ${a.displayName}…`,
            run: (signal) => ctx.model.rollback(a.connectionId, a.assetId, before, signal),
            done: `"${a.displayName}" has the content of version ${before} again, as a new version.`,
            what: `the rollback of "${a.displayName}"`,
            otherwise: `Roll back to version ${before} from its versions list.`,
          }
        : undefined,
    );
    return made;
  },
};
