// Names of files the product offers to write in the workspace (exports, plans, results).
import vscode = require('vscode');

/** A file named after a thing in the first workspace folder (`Inventory-since-2026-11-24T1400Z.ndjson`). */
export function workspaceFile(name: string, suffix?: string, extension = 'ndjson'): vscode.Uri | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const base = name.replace(/[\\/:*?"<>|]/g, '_');
  return folder && vscode.Uri.joinPath(folder, `${suffix ? `${base}-${suffix}` : base}.${extension}`);
}

/** A moment as a file name part: `2026-11-24T1400Z`. */
export const fileStamp = (time: Date): string => `${time.toISOString().slice(0, 16).replace(/:/g, '')}Z`;
