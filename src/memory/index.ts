// The memory stores area: the Memory Stores group of each universe (sorted maps and queues by remembered name),
// items as JSON documents, and the commands.
import vscode = require('vscode');
import { NotFoundError } from '../api';
import { registerCommands } from '../core/commands';
import type { AreaProbe } from '../core/commands/context';
import type { Connections } from '../core/connections';
import type { Log } from '../core/log';
import type { RememberedNames } from '../core/rememberedNames';
import { t } from '../core/text';
import type { UniverseTree } from '../core/tree/provider';
import type { Ui } from '../core/ui';
import type { MemoryCommand } from './commands/context';
import { flushMemoryStores } from './commands/flush';
import { copyMapItemId, deleteMapItem, editMapItemExpiration, newMapItem } from './commands/mapItems';
import { addQueue, addSortedMap, forgetMemoryName } from './commands/names';
import { addQueueItem, readQueueItems, showHeldQueueItems } from './commands/queues';
import { HeldReads, heldScheme } from './held';
import { ItemFiles } from './itemFiles';
import { itemScheme, theirsScheme } from './itemUris';
import { MemoryModel } from './model';
import { MemoryGroupNode } from './tree';
import { followModel } from './view';

const commands: readonly MemoryCommand[] = [
  addSortedMap,
  addQueue,
  forgetMemoryName,
  newMapItem,
  editMapItemExpiration,
  deleteMapItem,
  copyMapItemId,
  addQueueItem,
  readQueueItems,
  showHeldQueueItems,
  flushMemoryStores,
];

/** No map is needed: a 404 for an item of a map nobody wrote proves the key may read sorted maps. */
export const memoryProbe: AreaProbe = {
  get area() {
    return t`Memory stores`;
  },
  probe: (client, universeId, signal) =>
    client.sortedMaps
      .getItem({ universeId, mapName: 'universe-explorer-probe', key: 'probe' }, { signal })
      .catch((error: unknown) => {
        if (!(error instanceof NotFoundError)) throw error;
      }),
};

export function activateMemory(deps: {
  connections: Connections;
  ui: Ui;
  log: Log;
  tree: UniverseTree;
  names: RememberedNames;
  /** Where a dirty item document's base is kept across a window reload. */
  workspaceState: vscode.Memento;
}) {
  const { connections, ui, log, tree } = deps;
  const model = new MemoryModel(connections, deps.names);
  const files = new ItemFiles(model, ui, log, deps.workspaceState);
  const held = new HeldReads();
  tree.addGroup((universe) => new MemoryGroupNode(model, universe));
  const disposables: vscode.Disposable[] = [
    model,
    files,
    vscode.workspace.registerFileSystemProvider(itemScheme, files, { isCaseSensitive: true }),
    vscode.workspace.registerTextDocumentContentProvider(theirsScheme, files),
    held,
    vscode.workspace.registerTextDocumentContentProvider(heldScheme, held),
    followModel(model, tree),
    ...registerCommands({ ui, log, model, connections, held }, commands),
  ];
  return { model, held, files, disposables };
}
