// What the export and import commands share: the file filter, local paths, and how counts read.
import vscode = require('vscode');

export const ndjsonFilters = { 'NDJSON (one entry per line)': ['ndjson', 'jsonl'], 'All files': ['*'] };

/** The path of a chosen file; bulk work streams through Node's fs, so it must be on the extension host's disk. */
export function localPath(uri: vscode.Uri): string {
  if (uri.scheme !== 'file') throw new Error(`choose a file on disk (got a ${uri.scheme}: location)`);
  return uri.fsPath;
}

export const count = (n: number): string => n.toLocaleString('en-US');

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
