import vscode = require('vscode');

export interface Settings {
  pageSize: number;
  readOnlyUniverses: number[];
  operationTimeoutSeconds: number;
  requestTimeoutSeconds: number;
  sandboxAutoStart: boolean;
  sandboxOperationDelayMs: number;
}

/** The `universeExplorer.*` settings, read fresh on every call. */
export function settings(): Settings {
  const c = vscode.workspace.getConfiguration('universeExplorer');
  return {
    pageSize: c.get<number>('pageSize', 50),
    readOnlyUniverses: c.get<number[]>('readOnlyUniverses', []),
    operationTimeoutSeconds: c.get<number>('operationTimeoutSeconds', 300),
    requestTimeoutSeconds: c.get<number>('requestTimeoutSeconds', 30),
    sandboxAutoStart: c.get<boolean>('sandbox.autoStart', false),
    sandboxOperationDelayMs: c.get<number>('sandbox.operationDelayMs', 1500),
  };
}
