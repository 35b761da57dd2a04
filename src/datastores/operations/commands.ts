// The commands of a Recent Operations row: open its review (the result, with Continue, Undo… and Put Back…), undo it,
// export its files, forget it.
import { auditFileFor } from '../../api';
import { t } from '../../core/text';
import type { DataStoresCommand } from '../commands/context';
import { expect } from '../commands/nodes';
import { askUserId, universeFrom } from '../../core/prompts';
import { reopenErase, startErase } from './eraseReview';
import { reopenImport } from './importReview';
import { exportFiles, reopen, startUndo } from './reviewFlow';
import { operationLabel, OperationNode } from './tree';

const asOperation = expect(OperationNode, () => t`choose an operation under Recent Operations`);

export const openOperation: DataStoresCommand = {
  id: 'universeExplorer.openOperation',
  get failure() {
    return t`open the operation`;
  },
  run(ctx, node: unknown) {
    const op = asOperation(node).op;
    if (op.kind === 'erase') return reopenErase(ctx, op);
    return op.kind === 'import' ? reopenImport(ctx, op) : reopen(ctx, op);
  },
};

export const undoOperation: DataStoresCommand = {
  id: 'universeExplorer.undoOperation',
  get failure() {
    return t`undo the operation`;
  },
  run(ctx, node: unknown) {
    const op = asOperation(node).op;
    return startUndo(ctx, op, auditFileFor(ctx.operations.planFile(op)));
  },
};

export const exportOperation: DataStoresCommand = {
  id: 'universeExplorer.exportOperation',
  get failure() {
    return t`export the files of the operation`;
  },
  run: (ctx, node: unknown) => exportFiles(ctx, asOperation(node).op),
};

export const forgetOperation: DataStoresCommand = {
  id: 'universeExplorer.forgetOperation',
  get failure() {
    return t`forget the operation`;
  },
  async run(ctx, node: unknown) {
    const op = asOperation(node).op;
    const forget = t`Forget`;
    const undoable = op.kind === 'restore' || op.kind === 'copy';
    const answer = await ctx.ui.warn(
      t`Forget ${operationLabel(op)}?`,
      {
        modal: true,
        detail: undoable
          ? t`Its plan and audit are deleted from the extension's storage: it can no longer be undone from here. Export Files… keeps a copy.`
          : op.kind === 'erase'
            ? t`Its plans and audits, which keep the erased values, are deleted from the extension's storage. Save its receipt first: the receipt is made from them.`
            : t`Its plan and audit are deleted from the extension's storage.`,
      },
      forget,
    );
    if (answer !== forget) return undefined;
    ctx.operations.remove(op);
    return op;
  },
};

/**
 * Erase Player Data…: from a universe row or the palette (a user id typed), or with `{ connectionId, universeId,
 * userId }` (the player page).
 */
export const erasePlayerData: DataStoresCommand = {
  id: 'universeExplorer.erasePlayerData',
  get failure() {
    return t`erase the player's data`;
  },
  async run(ctx, arg: unknown) {
    const u = await universeFrom(ctx.ui, ctx.connections, arg);
    const given = (arg as { userId?: unknown } | undefined)?.userId;
    const userId =
      typeof given === 'number' && Number.isSafeInteger(given) && given > 0
        ? given
        : await askUserId(ctx.ui, t`Erase a player's data`);
    return startErase(ctx, { ...u, userId });
  },
};
