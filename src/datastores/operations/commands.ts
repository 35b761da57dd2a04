// The commands of a Recent Operations row: open its review (the result, with Continue, Undo… and Put Back…), undo it,
// export its files, forget it.
import { auditFileFor } from '../../api';
import { t } from '../../core/text';
import type { DataStoresCommand } from '../commands/context';
import { expect } from '../commands/nodes';
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
          : t`Its plan and audit are deleted from the extension's storage.`,
      },
      forget,
    );
    if (answer !== forget) return undefined;
    ctx.operations.remove(op);
    return op;
  },
};
