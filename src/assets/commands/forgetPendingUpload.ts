import { t } from '../../core/text';
import { PendingUploadNode } from '../tree';
import type { AssetsCommand } from './context';

/** Stops waiting for a pending upload (the asset, if the service made it, can still be added by id). */
export const forgetPendingUpload: AssetsCommand = {
  id: 'universeExplorer.forgetPendingUpload',
  get failure() {
    return t`forget the pending upload`;
  },
  async run(ctx, node: unknown) {
    if (!(node instanceof PendingUploadNode)) throw new Error(t`choose a pending upload under Assets`);
    await ctx.model.forgetPending(node.parent.connectionId, node.upload.operation);
  },
};
