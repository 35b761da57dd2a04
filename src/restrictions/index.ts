// The restrictions area: its model, the User Restrictions group of each universe, the log panels and the commands.
import path = require('node:path');
import vscode = require('vscode');
import { registerCommands } from '../core/commands';
import { ReviewPanel } from '../core/review/panel';
import type { AreaProbe } from '../core/commands/context';
import type { Connections } from '../core/connections';
import type { Log } from '../core/log';
import { t } from '../core/text';
import type { TreeNode } from '../core/tree/node';
import type { UniverseTree } from '../core/tree/provider';
import type { Ui } from '../core/ui';
import { BULK_COMMANDS } from './bulk/commands';
import { banUser } from './commands/banUser';
import type { RestrictionsCommand } from './commands/context';
import { editRestriction } from './commands/editRestriction';
import { hidePlace } from './commands/hidePlace';
import { lookUpUser } from './commands/lookUpUser';
import { showPlace } from './commands/showPlace';
import { showRestrictionLog } from './commands/showRestrictionLog';
import { unban } from './commands/unban';
import { LogPanels, RestrictionLogPanel } from './log/panel';
import { RestrictionsModel } from './model';
import { RestrictionsGroupNode } from './tree';
import { BanRuns } from './runs/store';
import { followModel, revealPlace } from './view';

const commands: readonly RestrictionsCommand[] = [
  banUser,
  editRestriction,
  unban,
  lookUpUser,
  showPlace,
  hidePlace,
  showRestrictionLog,
  ...BULK_COMMANDS,
];

export const restrictionsProbe: AreaProbe = {
  get area() {
    return t`User restrictions`;
  },
  probe: (client, universeId, signal) => client.restrictions.list({ universeId, maxPageSize: 1 }, { signal }),
};

export function activateRestrictions(deps: {
  connections: Connections;
  ui: Ui;
  log: Log;
  tree: UniverseTree;
  view: vscode.TreeView<TreeNode>;
  extensionUri: vscode.Uri;
  /** The extension's own storage folder (ban runs are kept under it). */
  storageDir: string;
}) {
  const { connections, ui, log, tree } = deps;
  const model = new RestrictionsModel(connections);
  const runs = new BanRuns(path.join(deps.storageDir, 'ban-runs'));
  const logs = new LogPanels({ model, connections, ui, log, extensionUri: deps.extensionUri, runs });
  tree.addGroup((universe) => new RestrictionsGroupNode(model, universe));
  const disposables: vscode.Disposable[] = [
    model,
    runs,
    logs,
    followModel(model, tree),
    vscode.window.registerWebviewPanelSerializer(RestrictionLogPanel.viewType, {
      deserializeWebviewPanel: async (panel, state) => void logs.revive(panel, state),
    }),
    ...registerCommands(
      {
        ui,
        log,
        model,
        connections,
        logs,
        runs,
        openReview: (review, handler) => new ReviewPanel({ extensionUri: deps.extensionUri, log }, review, handler),
        revealPlace: (scope) => revealPlace(deps, scope),
      },
      commands,
    ),
  ];
  return { model, logs, runs, disposables };
}
