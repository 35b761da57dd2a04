// The extension's MCP server for other agents inside VS Code: one server definition per connection, running the
// bundled command line's `mcp` with the editor's Node. The connection's key reaches the child only in its environment
// when VS Code starts it (never in the arguments, never in a definition kept between starts). The server writes no
// plan: its plans are applied in the editor (Review Plan File…, or the language model tool apply_plan).
import path = require('node:path');
import vscode = require('vscode');
import type { Connection, Connections } from '../core/connections';
import { settings } from '../core/settings';
import { t } from '../core/text';

export const MCP_PROVIDER_ID = 'universeExplorer.mcpServers';

/** What names a connection's server among the definitions (its label). */
const labelOf = (c: Connection): string => t`Universe Explorer: ${c.name}`;

/** The command line's arguments for a connection's server. */
export function serverArgs(extensionPath: string, c: Connection, plansDir: string): string[] {
  return [
    path.join(extensionPath, 'dist', 'cli.js'),
    'mcp',
    '--base-url',
    c.baseUrl,
    '--entry-header-prefix',
    c.entryHeaderPrefix,
    ...(c.universes.length ? ['--universe', c.universes.map((u) => u.id).join(',')] : []),
    '--plans-dir',
    plansDir,
  ];
}

export function registerMcpProvider(deps: { connections: Connections; extensionPath: string; plansDir: string }): {
  provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>;
  disposables: vscode.Disposable[];
} {
  const changed = new vscode.EventEmitter<void>();
  const byLabel = new Map<string, Connection>();
  const provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions() {
      byLabel.clear();
      if (!settings().offerMcpServer) return [];
      return deps.connections.list().map((c) => {
        const label = labelOf(c);
        byLabel.set(label, c);
        const args = serverArgs(deps.extensionPath, c, deps.plansDir);
        // Electron's Node runs a script only with ELECTRON_RUN_AS_NODE; a plain Node ignores it.
        return new vscode.McpStdioServerDefinition(label, process.execPath, args, { ELECTRON_RUN_AS_NODE: '1' });
      });
    },
    async resolveMcpServerDefinition(server) {
      // Switched off since VS Code listed it: the list that follows is empty.
      if (!settings().offerMcpServer) return undefined;
      const connection = byLabel.get(server.label);
      const key = connection && (await deps.connections.apiKey(connection.id));
      if (!connection || !key) {
        void vscode.window.showErrorMessage(
          t`The MCP server "${server.label}" has no API key: edit its connection in Universe Explorer to set one.`,
        );
        return undefined;
      }
      server.env = { ...server.env, UE_API_KEY: key };
      return server;
    },
  };
  return {
    provider,
    disposables: [
      changed,
      // Always registered; the user's own setting decides, when VS Code asks, whether there is anything to offer
      // (reading it at activation took a millisecond).
      vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
      deps.connections.onDidChange(() => changed.fire()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('universeExplorer.agents.offerMcpServer')) changed.fire();
      }),
    ],
  };
}
