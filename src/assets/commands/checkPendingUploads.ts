import { pickConnection } from '../../core/prompts';
import { t } from '../../core/text';
import { AssetsGroupNode, PendingUploadNode } from '../tree';
import type { AssetsCommand } from './context';

/** Asks the service about uploads whose operation was not followed to its end; finished ones join the list. */
export const checkPendingUploads: AssetsCommand = {
  id: 'universeExplorer.checkPendingUploads',
  get failure() {
    return t`check the pending uploads`;
  },
  async run(ctx, node?: unknown) {
    const group = node instanceof PendingUploadNode ? node.parent : node;
    const connectionId =
      group instanceof AssetsGroupNode ? group.connectionId : (await pickConnection(ctx.ui, ctx.connections)).id;
    const count = ctx.model.pending(connectionId).length;
    if (!count) {
      void ctx.ui.info(t`No uploads are pending.`);
      return { added: [], failed: [] };
    }
    const result = await ctx.ui.progress(t`Checking pending uploads…`, (signal) =>
      ctx.model.checkPending(connectionId, signal),
    );
    const waiting = ctx.model.pending(connectionId).length;
    const parts = [
      result.added.length ? t`${result.added.map((a) => a.displayName).join(', ')} joined the list` : '',
      result.failed.length ? t`${result.failed.map((p) => p.file).join(', ')} failed in the service` : '',
      waiting ? t`${waiting} still being processed` : '',
    ].filter(Boolean);
    void ctx.ui.info(t`Pending uploads: ${parts.join('; ')}.`);
    return result;
  },
};
