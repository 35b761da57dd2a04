import vscode = require('vscode');

/** What the getting-started walkthrough's steps wait for (their completionEvents in package.json). */
export type WalkthroughStep = 'entrySaved' | 'assetUploaded' | 'connectionAdded';

/** Marks a walkthrough step done: called where the work succeeded, not where its command starts. */
export function stepDone(step: WalkthroughStep): void {
  void vscode.commands.executeCommand('setContext', `universeExplorer.${step}`, true);
}
