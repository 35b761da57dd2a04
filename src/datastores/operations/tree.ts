// Recent Operations under each universe: the plans that ran (restores, undos, copies, put-backs), newest first, each
// opening its result; Undo…, Export Files… and Forget are on its menu.
import vscode = require('vscode');
import { t } from '../../core/text';
import { localTime } from '../../core/time';
import type { TreeNode } from '../../core/tree/node';
import type { UniverseNode } from '../../core/tree/connectionNodes';
import type { UniverseAddress } from '../../core/universe';
import type { Operation, Operations } from './operations';

/** Operations listed under a universe; older ones stay in storage until forgotten. */
const LISTED = 50;

export class OperationsGroupNode implements TreeNode {
  readonly id: string;

  constructor(
    readonly operations: Operations,
    readonly parent: UniverseNode,
  ) {
    this.id = `${parent.id}/operations`;
  }

  get ref(): UniverseAddress {
    return { connectionId: this.parent.connectionId, universeId: this.parent.universe.id };
  }

  item(): vscode.TreeItem {
    const count = this.operations.list(this.ref).filter((op) => op.state !== 'planned').length;
    const item = new vscode.TreeItem(
      t`Recent Operations`,
      count ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.description = count ? String(count) : t`none yet`;
    item.tooltip = t`Restores, undos and copies run on this universe, with their plans and audits (kept in the extension's storage, not in the workspace)`;
    item.iconPath = new vscode.ThemeIcon('history');
    item.contextValue = 'operations';
    return item;
  }

  async children(): Promise<TreeNode[]> {
    return this.operations
      .list(this.ref)
      .filter((op) => op.state !== 'planned')
      .slice(0, LISTED)
      .map((op) => new OperationNode(this, op));
  }
}

export function operationLabel(op: Operation): string {
  switch (op.kind) {
    case 'restore':
      return t`Restore of ${op.what} to ${op.when ?? ''}`;
    case 'undo':
      return t`Undo of the restore of ${op.what}`;
    case 'copy':
      return t`Copy of ${op.copyOf ?? ''} to ${op.what}`;
    case 'putBack':
      return t`Put back of another writer's values in ${op.what}`;
    case 'import':
      return t`Import into ${op.what}`;
    case 'erase':
      return t`Erase of the data of ${op.what} in ${(op.stores ?? []).join(', ')}`;
  }
}

export class OperationNode implements TreeNode {
  readonly id: string;

  constructor(
    readonly parent: OperationsGroupNode,
    readonly op: Operation,
  ) {
    this.id = `${parent.id}/${op.id}`;
  }

  item(): vscode.TreeItem {
    const op = this.op;
    const item = new vscode.TreeItem(operationLabel(op), vscode.TreeItemCollapsibleState.None);
    const when = localTime(op.applied ?? op.planned);
    item.description = op.state === 'stopped' ? t`${when} · stopped` : op.undoneBy ? t`${when} · undone` : when;
    item.tooltip = [operationLabel(op), op.outcome ?? '', t`Ran ${when}`].filter(Boolean).join('\n');
    item.iconPath = new vscode.ThemeIcon(op.state === 'stopped' ? 'debug-pause' : 'check');
    const undoable = (op.kind === 'restore' || op.kind === 'copy') && !op.undoneBy && !this.parent.parent.readOnly;
    item.contextValue = undoable ? 'operation.undoable' : 'operation';
    item.command = { command: 'universeExplorer.openOperation', title: t`Open`, arguments: [this] };
    return item;
  }
}
