import vscode = require('vscode');
import { isCancel, reason } from '../errors';
import { addConnection } from './addConnection';
import { addUniverse } from './addUniverse';
import type { CommandContext, CommandDef } from './context';
import { editConnection } from './editConnection';
import { loadMore } from './loadMore';
import { chooseScope } from './chooseScope';
import { filterEntries } from './filterEntries';
import { filterDataStores } from './filterDataStores';
import { goToKey } from './goToKey';
import { newEntry } from './newEntry';
import { deleteEntry } from './deleteEntry';
import { incrementEntry } from './incrementEntry';
import { editMetadata } from './editMetadata';
import { copyKey } from './copyKey';
import { copyVersion } from './copyVersion';
import { compareVersion } from './compareVersion';
import { restoreVersion } from './restoreVersion';
import { exportDataStore } from './exportDataStore';
import { importDataStore } from './importDataStore';
import { refresh } from './refresh';
import { removeConnection } from './removeConnection';
import { removeUniverse } from './removeUniverse';
import { resetSandbox } from './resetSandbox';
import { showLog } from './showLog';
import { startSandbox } from './startSandbox';
import { stopSandbox } from './stopSandbox';
import { testConnection } from './testConnection';
import { uploadAsset } from './uploadAsset';
import { addAssetById } from './addAssetById';
import { showAssetDetails } from './showAssetDetails';
import { editAssetInfo } from './editAssetInfo';
import { editAssetPreviews } from './editAssetPreviews';
import { editAssetSocialLinks } from './editAssetSocialLinks';
import { updateAssetContent } from './updateAssetContent';
import { archiveAsset } from './archiveAsset';
import { restoreAsset } from './restoreAsset';
import { rollbackAsset } from './rollbackAsset';
import { copyAssetId } from './copyAssetId';
import { removeAsset } from './removeAsset';
import { banUser } from './banUser';
import { editRestriction } from './editRestriction';
import { unban } from './unban';
import { lookUpUser } from './lookUpUser';
import { showPlace } from './showPlace';
import { hidePlace } from './hidePlace';
import { showRestrictionLog } from './showRestrictionLog';

export const commands: CommandDef[] = [
  addConnection,
  editConnection,
  removeConnection,
  testConnection,
  addUniverse,
  removeUniverse,
  startSandbox,
  stopSandbox,
  resetSandbox,
  refresh,
  loadMore,
  showLog,
  chooseScope,
  filterEntries,
  filterDataStores,
  goToKey,
  newEntry,
  deleteEntry,
  incrementEntry,
  editMetadata,
  copyKey,
  copyVersion,
  compareVersion,
  restoreVersion,
  exportDataStore,
  importDataStore,
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
  banUser,
  editRestriction,
  unban,
  lookUpUser,
  showPlace,
  hidePlace,
  showRestrictionLog,
];

/** Registers each command through one wrapper that logs, stays silent on cancel and shows failures. */
export function registerCommands(ctx: CommandContext, defs: CommandDef[] = commands): vscode.Disposable[] {
  return defs.map((def) => vscode.commands.registerCommand(def.id, (...args: unknown[]) => runCommand(ctx, def, args)));
}

export async function runCommand(ctx: CommandContext, def: CommandDef, args: unknown[]): Promise<unknown> {
  const started = Date.now();
  ctx.log.info(`${def.id} started`);
  try {
    const result = await def.run(ctx, ...args);
    ctx.log.info(`${def.id} finished in ${Date.now() - started}ms`);
    return result;
  } catch (error) {
    if (isCancel(error)) {
      ctx.log.info(`${def.id} cancelled`);
      return undefined;
    }
    const message = `Failed to ${def.failure}: ${reason(error)}`;
    ctx.log.error(message);
    void ctx.ui.error(message, 'Show Log').then((choice) => {
      if (choice === 'Show Log') ctx.log.show();
    });
    return undefined;
  }
}
