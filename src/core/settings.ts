import vscode = require('vscode');

export interface Settings {
  pageSize: number;
  readOnlyUniverses: number[];
  operationTimeoutSeconds: number;
  requestTimeoutSeconds: number;
  sandboxAutoStart: boolean;
  sandboxOperationDelayMs: number;
  allowInsecureHttp: boolean;
  /** The share of each rate window bulk work may spend, leaving the rest to the game's servers. */
  bulkBudgetShare: number;
  /** Offer the MCP server to other agents in VS Code (it is handed a connection's key when started). */
  offerMcpServer: boolean;
}

/**
 * The `universeExplorer.*` settings, read fresh on every call. Those that lower protection are read from the user's
 * own settings only (they are application-scoped too): a workspace, such as a cloned repository, cannot lift them.
 * Those are read when asked for (VS Code's inspect() takes a millisecond, at activation too).
 */
export function settings(): Settings {
  const c = vscode.workspace.getConfiguration('universeExplorer');
  const userOnly = <T>(key: string, fallback: T): T => c.inspect<T>(key)?.globalValue ?? fallback;
  return {
    pageSize: c.get<number>('pageSize', 50),
    get readOnlyUniverses() {
      return userOnly<number[]>('readOnlyUniverses', []);
    },
    operationTimeoutSeconds: c.get<number>('operationTimeoutSeconds', 300),
    requestTimeoutSeconds: c.get<number>('requestTimeoutSeconds', 30),
    sandboxAutoStart: c.get<boolean>('sandbox.autoStart', false),
    sandboxOperationDelayMs: c.get<number>('sandbox.operationDelayMs', 1500),
    get allowInsecureHttp() {
      return userOnly('allowInsecureHttp', false);
    },
    bulkBudgetShare: Math.min(1, Math.max(0.05, c.get<number>('bulk.budgetShare', 0.5))),
    get offerMcpServer() {
      return userOnly('agents.offerMcpServer', true);
    },
  };
}
