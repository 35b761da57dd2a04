// The ordered data stores area: its model, the Ordered Data Stores group of each universe and the commands.
import type vscode = require('vscode');
import { registerCommands } from '../core/commands';
import type { Connections } from '../core/connections';
import type { Log } from '../core/log';
import type { RememberedNames } from '../core/rememberedNames';
import type { UniverseTree } from '../core/tree/provider';
import type { Ui } from '../core/ui';
import { addOrderedStore } from './commands/addOrderedStore';
import type { OrderedCommand } from './commands/context';
import { copyOrderedId } from './commands/copyOrderedId';
import { deleteOrderedEntry } from './commands/deleteOrdered';
import { editOrderedValue } from './commands/editValue';
import { exportOrderedStore } from './commands/exportOrdered';
import { clearOrderedFilter, filterOrderedStore } from './commands/filterOrdered';
import { forgetOrderedStore } from './commands/forgetOrderedStore';
import { incrementOrderedEntry } from './commands/incrementOrdered';
import { newOrderedEntry } from './commands/newOrderedEntry';
import { sortOrderedAscending, sortOrderedDescending } from './commands/sortOrdered';
import { OrderedModel } from './model';
import { OrderedGroupNode } from './tree';
import { followModel } from './view';

const commands: readonly OrderedCommand[] = [
  addOrderedStore,
  forgetOrderedStore,
  sortOrderedAscending,
  sortOrderedDescending,
  filterOrderedStore,
  clearOrderedFilter,
  newOrderedEntry,
  exportOrderedStore,
  editOrderedValue,
  incrementOrderedEntry,
  deleteOrderedEntry,
  copyOrderedId,
];

export function activateOrdered(deps: {
  connections: Connections;
  ui: Ui;
  log: Log;
  tree: UniverseTree;
  names: RememberedNames;
}) {
  const { connections, ui, log, tree } = deps;
  const model = new OrderedModel(connections, deps.names);
  tree.addGroup((universe) => new OrderedGroupNode(model, universe));
  const disposables: vscode.Disposable[] = [
    model,
    followModel(model, tree),
    ...registerCommands({ ui, log, model, connections }, commands),
  ];
  return { model, disposables };
}
