import vscode = require('vscode');
import { AssetList } from './assetList';
import { registerCommands } from './commands';
import type { CommandContext } from './commands/context';
import { withProgress } from './commands/progress';
import { assetDetails, assetDetailsScheme } from './commands/showAssetDetails';
import { Connections } from './connections';
import { EntryFileSystem, EntryVersionFileSystem, entryScheme, versionScheme } from './fs/entryFileSystem';
import { reason } from './errors';
import { Log } from './log';
import { Sandbox } from './sandbox';
import { settings } from './settings';
import { UniverseTree } from './tree/provider';
import { vscodeUi } from './ui';
import { RestrictionLogPanel } from './webview/restrictionLogPanel';

/** What activate() returns; the tests inside VS Code use it to answer prompts and inspect state. */
export interface ExtensionApi {
  testing: {
    ctx: CommandContext;
    /** What the restriction log's WebviewPanelSerializer does with a panel VS Code restored. */
    reviveLog: (panel: vscode.WebviewPanel, state: unknown) => RestrictionLogPanel | undefined;
  };
}

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const log = new Log();
  const connections = new Connections(context, log);
  const sandbox = new Sandbox(context, connections, log);
  const assets = new AssetList(context.globalState);
  const tree = new UniverseTree(connections, assets);
  const view = vscode.window.createTreeView('universeExplorer.universes', { treeDataProvider: tree, showCollapseAll: true });
  const ctx = { ui: vscodeUi, log, connections, tree, view, sandbox, extension: context, assets, progress: withProgress } as CommandContext;
  ctx.entries = new EntryFileSystem(ctx);
  const reviveLog = (panel: vscode.WebviewPanel, state: unknown) => RestrictionLogPanel.revive(ctx, panel, state);
  context.subscriptions.push(
    log,
    connections,
    sandbox,
    tree,
    view,
    vscode.workspace.registerFileSystemProvider(entryScheme, ctx.entries, { isCaseSensitive: true }),
    vscode.workspace.registerFileSystemProvider(versionScheme, new EntryVersionFileSystem(ctx), { isCaseSensitive: true, isReadonly: true }),
    assetDetails,
    vscode.workspace.registerTextDocumentContentProvider(assetDetailsScheme, assetDetails),
    vscode.window.registerWebviewPanelSerializer(RestrictionLogPanel.viewType, {
      deserializeWebviewPanel: async (panel, state) => void reviveLog(panel, state),
    }),
    ...registerCommands(ctx),
  );
  if (settings().sandboxAutoStart) {
    sandbox.start().catch((error) => log.error(`Local Sandbox did not start: ${reason(error)}`));
  }
  return { testing: { ctx, reviveLog } };
}

export function deactivate(): void {}
