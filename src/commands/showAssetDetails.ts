import vscode = require('vscode');
import type { CommandDef } from './context';
import { asAsset } from './nodes';

export const assetDetailsScheme = 'universe-asset';

/** Read-only documents holding what Get Asset answered; Show Details fills and refreshes them. */
class AssetDetailsDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  set(uri: vscode.Uri, text: string): void {
    this.contents.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '{ "note": "Run Show Details on the asset in the Universes view to load it." }\n';
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Registered in activate(); one per extension host. */
export const assetDetails = new AssetDetailsDocuments();

export const showAssetDetails: CommandDef = {
  id: 'universeExplorer.showAssetDetails',
  failure: 'show the asset details',
  async run(ctx, node: unknown) {
    const a = asAsset(node);
    const client = await ctx.connections.client(a.connectionId);
    const asset = await client.assets.get({ assetId: a.assetId });
    const uri = vscode.Uri.from({ scheme: assetDetailsScheme, path: `/${a.connectionId}/asset ${a.assetId}.json` });
    assetDetails.set(uri, `${JSON.stringify(asset, null, 2)}\n`);
    const doc = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), 'json');
    await vscode.window.showTextDocument(doc, { preview: true });
    return doc;
  },
};
