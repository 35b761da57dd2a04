import vscode = require('vscode');
import { t } from '../core/text';

export const assetDetailsScheme = 'universe-asset';

/** Read-only documents holding what Get Asset answered; Show Details fills and refreshes them. */
export class AssetDetailsDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** Shows the text as the document of the asset and returns its URI. */
  set(connectionId: string, assetId: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: assetDetailsScheme, path: `/${connectionId}/asset ${assetId}.json` });
    this.contents.set(uri.toString(), text);
    this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const note = t`Run Show Details on the asset in the Universes view to load it.`;
    return this.contents.get(uri.toString()) ?? `{ "note": ${JSON.stringify(note)} }\n`;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
