// The assets area: its model, the Assets group of each universe, the details documents and the commands.
import vscode = require('vscode');
import { NotFoundError } from '../api';
import { registerCommands } from '../core/commands';
import type { AreaProbe } from '../core/commands/context';
import type { Connections } from '../core/connections';
import type { Log } from '../core/log';
import { t } from '../core/text';
import type { TreeNode } from '../core/tree/node';
import type { UniverseTree } from '../core/tree/provider';
import type { Ui } from '../core/ui';
import { addAssetById } from './commands/addAssetById';
import { archiveAsset } from './commands/archiveAsset';
import { checkPendingUploads } from './commands/checkPendingUploads';
import type { AssetsCommand } from './commands/context';
import { copyAssetId } from './commands/copyAssetId';
import { editAssetInfo } from './commands/editAssetInfo';
import { editAssetPreviews } from './commands/editAssetPreviews';
import { editAssetSocialLinks } from './commands/editAssetSocialLinks';
import { forgetPendingUpload } from './commands/forgetPendingUpload';
import { removeAsset } from './commands/removeAsset';
import { restoreAsset } from './commands/restoreAsset';
import { rollbackAsset } from './commands/rollbackAsset';
import { showAssetDetails } from './commands/showAssetDetails';
import { updateAssetContent } from './commands/updateAssetContent';
import { uploadAsset } from './commands/uploadAsset';
import { AssetDetailsDocuments, assetDetailsScheme } from './details';
import { AssetsModel } from './model';
import { AssetsGroupNode } from './tree';
import { followModel, revealAsset } from './view';

const commands: readonly AssetsCommand[] = [
  uploadAsset,
  addAssetById,
  showAssetDetails,
  editAssetInfo,
  editAssetPreviews,
  editAssetSocialLinks,
  updateAssetContent,
  archiveAsset,
  restoreAsset,
  rollbackAsset,
  copyAssetId,
  removeAsset,
  checkPendingUploads,
  forgetPendingUpload,
];

/** No asset is needed: a 404 for an unknown id proves the key may read assets. */
export const assetsProbe: AreaProbe = {
  get area() {
    return t`Assets`;
  },
  probe: (client, _universeId, signal) =>
    client.assets.get({ assetId: '1' }, { signal }).catch((error: unknown) => {
      if (!(error instanceof NotFoundError)) throw error;
    }),
};

export function activateAssets(deps: {
  connections: Connections;
  ui: Ui;
  log: Log;
  tree: UniverseTree;
  view: vscode.TreeView<TreeNode>;
  state: vscode.Memento;
}) {
  const { connections, ui, log, tree } = deps;
  const model = new AssetsModel(connections, deps.state);
  const details = new AssetDetailsDocuments();
  tree.addGroup((universe) => new AssetsGroupNode(model, universe));
  const reveal = (connectionId: string, assetId: string) => revealAsset(deps, connectionId, assetId);
  const disposables: vscode.Disposable[] = [
    model,
    details,
    vscode.workspace.registerTextDocumentContentProvider(assetDetailsScheme, details),
    followModel(model, tree),
    ...registerCommands({ ui, log, model, connections, details, reveal }, commands),
  ];
  return { model, disposables };
}
