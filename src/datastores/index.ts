// The data stores area: its model, the Data Stores group of each universe, the entry editors and the commands.
import vscode = require('vscode');
import { registerCommands } from '../core/commands';
import type { AreaProbe } from '../core/commands/context';
import type { Connections } from '../core/connections';
import type { Log } from '../core/log';
import type { BulkStatus } from '../core/statusBar';
import { t } from '../core/text';
import type { TreeNode } from '../core/tree/node';
import type { UniverseTree } from '../core/tree/provider';
import type { Ui } from '../core/ui';
import { chooseScope } from './commands/chooseScope';
import { compareVersion } from './commands/compareVersion';
import { compareStores } from './commands/compareStores';
import { compareWithTime } from './commands/compareWithTime';
import type { DataStoresCommand, DataStoresContext } from './commands/context';
import { copyKey } from './commands/copyKey';
import { copyVersion } from './commands/copyVersion';
import { deleteDataStore, hideDeletedStores, showDeletedStores, undeleteDataStore } from './commands/deleteDataStore';
import { deleteEntry } from './commands/deleteEntry';
import { hideDeletedEntries, showDeletedEntries } from './commands/deletedEntries';
import { editMetadata } from './commands/editMetadata';
import { exportDataStore } from './commands/exportDataStore';
import { fieldHistory } from './commands/fieldHistory';
import { filterDataStores } from './commands/filterDataStores';
import { filterEntries } from './commands/filterEntries';
import { goToKey } from './commands/goToKey';
import { importDataStore } from './commands/importDataStore';
import { incrementEntry } from './commands/incrementEntry';
import { newEntry } from './commands/newEntry';
import { closeAtTime, openAtTime } from './commands/openAtTime';
import { openEntryAtTime } from './commands/openEntryAtTime';
import { restoreToTime } from './commands/restoreToTime';
import { restoreVersion } from './commands/restoreVersion';
import { saveEntry } from './commands/saveEntry';
import { takeSnapshot } from './commands/snapshot';
import { undeleteEntry } from './commands/undeleteEntry';
import { undoRestore } from './commands/undoRestore';
import { activateEditor } from './editor';
import { entryUsers } from './editor/entryUsers';
import { DataStoresModel } from './model';
import { TimeMachine } from './timeMachine';
import { DataStoresGroupNode } from './tree';
import { followModel } from './view';
import path = require('node:path');
import { ReviewPanel, type Review, type ReviewHandler } from '../core/review/panel';
import { erasePlayerData, exportOperation, forgetOperation, openOperation, undoOperation } from './operations/commands';
import { Operations } from './operations/operations';
import { reviewPlanFile, reviewPlanFileCommand } from './operations/planFile';
import { planScheme, PlanValues } from './operations/planValues';
import { OperationsGroupNode } from './operations/tree';
import { sameUniverse } from '../core/universe';

const commands: readonly DataStoresCommand[] = [
  chooseScope,
  filterEntries,
  filterDataStores,
  goToKey,
  newEntry,
  deleteEntry,
  undeleteEntry,
  incrementEntry,
  editMetadata,
  copyKey,
  copyVersion,
  compareVersion,
  restoreVersion,
  exportDataStore,
  importDataStore,
  openAtTime,
  closeAtTime,
  openEntryAtTime,
  takeSnapshot,
  deleteDataStore,
  undeleteDataStore,
  showDeletedStores,
  hideDeletedStores,
  showDeletedEntries,
  hideDeletedEntries,
  compareWithTime,
  compareStores,
  fieldHistory,
  restoreToTime,
  undoRestore,
  saveEntry,
  openOperation,
  undoOperation,
  exportOperation,
  forgetOperation,
  erasePlayerData,
  reviewPlanFileCommand,
];

export const dataStoresProbe: AreaProbe = {
  get area() {
    return t`Data stores`;
  },
  probe: (client, universeId, signal) => client.datastores.listDataStores({ universeId, limit: 1 }, { signal }),
};

export function activateDataStores(deps: {
  connections: Connections;
  ui: Ui;
  log: Log;
  tree: UniverseTree;
  workspaceState: vscode.Memento;
  /** globalState, written one update at a time (core/state.ts). */
  globalState: vscode.Memento;
  status: BulkStatus;
  view: vscode.TreeView<TreeNode>;
  extensionUri: vscode.Uri;
  /** The extension's global storage folder: operations keep their plans there. */
  storageDir: string;
  /** The user's keys in a universe's query index (Erase Player Data finds them there). */
  playerKeys: DataStoresContext['playerKeys'];
}) {
  const { connections, ui, log, tree, status, view } = deps;
  const reveal = async (node: TreeNode): Promise<void> => {
    await view.reveal(node, { select: true, focus: true, expand: true });
  };
  const model = new DataStoresModel(connections, deps.globalState);
  const timeMachine = new TimeMachine(model, connections);
  const { saver, documents, ...editor } = activateEditor({ model, ui, log, workspaceState: deps.workspaceState });
  const operations = new Operations(path.join(deps.storageDir, 'operations'));
  const openReview = (review: Review, handler: ReviewHandler) =>
    new ReviewPanel({ extensionUri: deps.extensionUri, log }, review, handler);
  tree.addGroup((universe) => new DataStoresGroupNode(model, timeMachine, universe));
  tree.addGroup((universe) => new OperationsGroupNode(operations, universe));
  const context = {
    ui,
    log,
    model,
    timeMachine,
    saver,
    documents,
    status,
    connections,
    reveal,
    operations,
    openReview,
    playerKeys: deps.playerKeys,
  };
  const disposables: vscode.Disposable[] = [
    model,
    operations,
    ...editor.disposables,
    ...followModel(model, tree),
    operations.onDidChange((u) => {
      for (const node of tree.loaded())
        if (node instanceof OperationsGroupNode && sameUniverse(node.ref, u)) tree.refresh(node);
    }),
    vscode.workspace.registerTextDocumentContentProvider(planScheme, new PlanValues(operations)),
    ...registerCommands(context, commands),
  ];
  /** The user ids of an open entry, for Show Player… (the players area's, handed over by the wiring). */
  const users = (uri: vscode.Uri) => entryUsers(editor.editor, uri);
  /** Opens a plan file (an agent's, the command line's) in the review panel, for a person's Apply. */
  const reviewPlan = (file: string, connectionId?: string) => reviewPlanFile(context, file, connectionId);
  return { model, timeMachine, documents, operations, entryUsers: users, reviewPlan, disposables };
}
