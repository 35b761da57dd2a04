import vscode = require('vscode');
import { t } from '../../core/text';
import type { AssetsCommand } from './context';
import { currentAsset } from './support';

export const showAssetDetails: AssetsCommand = {
  id: 'universeExplorer.showAssetDetails',
  get failure() {
    return t`show the asset details`;
  },
  async run(ctx, node: unknown) {
    const { node: a, asset } = await currentAsset(ctx, node);
    const uri = ctx.details.set(a.connectionId, a.assetId, `${JSON.stringify(asset, null, 2)}\n`);
    const doc = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), 'json');
    await vscode.window.showTextDocument(doc, { preview: true });
    return doc;
  },
};
