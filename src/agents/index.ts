// Agents as users, inside VS Code: the agent tools as language model tools (Copilot's agent mode), and the extension's
// MCP server offered to other agents. Reads and plans only: a plan is applied in the review panel by a person.
import type vscode = require('vscode');
import type { Connections } from '../core/connections';
import type { Log } from '../core/log';
import type { UniverseIndex } from '../query';
import { plansDirOf, registerLmTools } from './lmTools';
import { registerMcpProvider } from './mcpProvider';
import { reviewAgentPlan } from './review';

export function activateAgents(deps: {
  connections: Connections;
  log: Log;
  extensionUri: vscode.Uri;
  extensionPath: string;
  storageDir: string;
  /** The language model tools the manifest declares (contributes.languageModelTools). */
  toolNames: readonly string[];
  /** The universe's query index when one was built (the queries area's). */
  index(connectionId: string, universeId: number): Promise<UniverseIndex | undefined>;
  /** The data stores' Review Plan File. */
  reviewPlan(file: string, connectionId: string): Promise<unknown>;
  /** The restrictions' bulk ban review of a ban plan file. */
  reviewBanPlan(file: string, connectionId: string): Thenable<unknown>;
}) {
  const plansDir = plansDirOf(deps.storageDir);
  const shared = { connections: deps.connections, log: deps.log, plansDir, index: deps.index };
  /** The reviews apply_plan opened, newest last (the tests press their buttons). */
  const opened: unknown[] = [];
  const review = {
    ...shared,
    extensionUri: deps.extensionUri,
    reviewPlan: async (file: string, connectionId: string) => {
      const shown = await deps.reviewPlan(file, connectionId);
      opened.push(shown);
      return shown;
    },
    reviewBanPlan: async (file: string, connectionId: string) => {
      const shown = await deps.reviewBanPlan(file, connectionId);
      opened.push(shown);
      return shown;
    },
    opened: (panel: unknown) => void opened.push(panel),
  };
  const mcp = registerMcpProvider({ connections: deps.connections, extensionPath: deps.extensionPath, plansDir });
  return {
    opened,
    mcpServers: mcp.provider,
    disposables: [
      ...registerLmTools(
        {
          ...shared,
          review: (planId, connectionId) => reviewAgentPlan(review, planId, connectionId),
        },
        deps.toolNames,
      ),
      ...mcp.disposables,
    ],
  };
}
