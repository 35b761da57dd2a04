import * as vscode from 'vscode';
import { registerCommands } from './commands';
import type { CommandContext } from './commands/context';
import { Connections } from './connections';
import { reason } from './errors';
import { Log } from './log';
import { Sandbox } from './sandbox';
import { settings } from './settings';
import { UniverseTree } from './tree/provider';
import { vscodeUi } from './ui';

/** What activate() returns; the tests inside VS Code use it to answer prompts and inspect state. */
export interface ExtensionApi {
  testing: { ctx: CommandContext };
}

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const log = new Log();
  const connections = new Connections(context, log);
  const sandbox = new Sandbox(context, connections, log);
  const tree = new UniverseTree(connections);
  const view = vscode.window.createTreeView('universeExplorer.universes', { treeDataProvider: tree, showCollapseAll: true });
  const ctx: CommandContext = { ui: vscodeUi, log, connections, tree, sandbox, extension: context };
  context.subscriptions.push(log, connections, sandbox, tree, view, ...registerCommands(ctx));
  if (settings().sandboxAutoStart) {
    sandbox.start().catch((error) => log.error(`Local Sandbox did not start: ${reason(error)}`));
  }
  return { testing: { ctx } };
}

export function deactivate(): void {}
