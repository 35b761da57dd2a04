// Wiring only: builds core, then each area with what it uses, and registers what they return.
import fs = require('node:fs');
import vscode = require('vscode');
import { activateAgents } from './agents';
import { activateAssets, assetsProbe } from './assets';
import { assetsKeys } from './assets/keys';
import type { AssetsModel } from './assets/model';
import { registerCommands } from './core/commands';
import { coreCommands } from './core/commands/index';
import { Connections, SANDBOX_ID } from './core/connections';
import { Log } from './core/log';
import { RememberedNames } from './core/rememberedNames';
import { RoleMarks } from './core/roleMarks';
import { SerialMemento } from './core/state';
import { StatusBar } from './core/statusBar';
import { useTranslator } from './core/text';
import type { TreeNode } from './core/tree/node';
import { UniverseTree } from './core/tree/provider';
import { SwitchableUi, type Ui } from './core/ui';
import { roleOf, type Role, type UniverseAddress } from './core/universe';
import { activateDataStores, dataStoresProbe } from './datastores';
import type { Operations } from './datastores/operations/operations';
import { dataStoresKeys } from './datastores/keys';
import type { EntryDocuments } from './datastores/editor/documents';
import type { DataStoresModel } from './datastores/model';
import type { TimeMachine } from './datastores/timeMachine';
import { addressOf, entryScheme, entryUri } from './datastores/editor/uris';
import { activateOrdered } from './ordered';
import { orderedKeys } from './ordered/keys';
import type { OrderedModel } from './ordered/model';
import { activateMemory, memoryProbe } from './memory';
import type { HeldReads } from './memory/held';
import type { ItemFiles } from './memory/itemFiles';
import { memoryKeys } from './memory/keys';
import type { MemoryModel } from './memory/model';
import { activatePlayers } from './players';
import type { EntryRef } from './players/deps';
import type { PlayerPanel } from './players/panel';
import type { PlayerPanels } from './players/panels';
import { activateQueries } from './queries';
import type { IndexFollower } from './queries/follow';
import { describeCoverage, type QueryIndexes } from './queries/indexes';
import type { ResultPanels } from './queries/results/panel';
import { activateRestrictions, restrictionsProbe } from './restrictions';
import { restrictionsKeys } from './restrictions/keys';
import type { RestrictionLogPanel } from './restrictions/log/panel';
import type { RestrictionsModel } from './restrictions/model';
import type { BanRuns } from './restrictions/runs/store';
import { activateSandbox } from './sandbox';
import { demoAssets, demoMemoryStores, demoOrderedStores, demoUniverse } from './sandbox/demo';
import type { Sandbox } from './sandbox/sandbox';

/** The parts the tests inside VS Code reach; a test may put its own Ui in place of VS Code's. */
export interface TestContext {
  ui: Ui;
  log: Log;
  connections: Connections;
  /** Names the service cannot list, per universe (ordered stores, sorted maps, queues). */
  names: RememberedNames;
  tree: UniverseTree;
  view: vscode.TreeView<TreeNode>;
  extension: vscode.ExtensionContext;
  datastores: DataStoresModel;
  /** The entries' editors: a suite sets how often a document checks the service for a newer version. */
  entryDocuments: EntryDocuments;
  timeMachine: TimeMachine;
  /** The data stores' recent operations (plans, audits) in the extension's storage. */
  operations: Operations;
  restrictions: RestrictionsModel;
  /** The ban runs made or opened (plans of many users, with their journals). */
  banRuns: BanRuns;
  /** The query index of each universe, and the results panels of query documents. */
  queryIndexes: QueryIndexes;
  queryResults: ResultPanels;
  /** The open player pages. */
  players: PlayerPanels;
  /** The reviews the language model tool apply_plan opened, and the MCP server definitions offered. */
  agents: { opened: unknown[]; mcpServers: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> };
  /** Keeps the query indexes current with what the editor reads and writes. */
  queryFollower: IndexFollower;
  assets: AssetsModel;
  ordered: OrderedModel;
  memory: MemoryModel;
  /** The sorted map items' documents (what a save of each is based on). */
  memoryFiles: ItemFiles;
  /** The queue reads held (Read and Hold), until their windows end. */
  memoryHeld: HeldReads;
  sandbox: Sandbox;
  status: StatusBar;
  /** The production and read-only marks on entry tabs and the production status bar item. */
  marks: RoleMarks;
  /** A universe's role (a bare id: the strictest any connection gives it), for the agent tools: plans only there. */
  roleOf(u: UniverseAddress | number): Role;
}

/** What activate() returns; the tests inside VS Code use it to answer prompts and inspect state. */
export interface ExtensionApi {
  testing: {
    ctx: TestContext;
    /** What the restriction log's WebviewPanelSerializer does with a panel VS Code restored. */
    reviveLog(panel: vscode.WebviewPanel, state: unknown): RestrictionLogPanel | undefined;
    /** What the player page's WebviewPanelSerializer does with a panel VS Code restored. */
    revivePlayer(panel: vscode.WebviewPanel, state: unknown): PlayerPanel | undefined;
  };
}

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  useTranslator((message, ...args) => vscode.l10n.t(message, ...args));
  const log = new Log();
  const ui = new SwitchableUi();
  // Every part writes globalState through this one object: VS Code loses an update made while another is on its way.
  const globalState = new SerialMemento(context.globalState);
  const connections = new Connections(context, globalState, log);
  const tree = new UniverseTree(connections);
  const view = vscode.window.createTreeView('universeExplorer.universes', {
    treeDataProvider: tree,
    showCollapseAll: true,
  });
  const status = new StatusBar(connections, view);
  // Entries are the data stores area's documents: their URIs name the universe.
  const marks = new RoleMarks(connections, (uri) => {
    if (uri.scheme !== entryScheme) return undefined;
    const { connectionId, universeId } = addressOf(uri);
    return { connectionId, universeId };
  });
  const core = { connections, ui, log, tree };
  // Names the service cannot list (ordered stores, sorted maps, queues), one owner for every area that keeps some.
  const names = new RememberedNames(globalState, connections);
  const datastores = activateDataStores({
    ...core,
    view,
    workspaceState: context.workspaceState,
    globalState,
    status,
    extensionUri: context.extensionUri,
    storageDir: context.globalStorageUri.fsPath,
    // The queries area owns the index; it is made just below and asked only once a command runs.
    playerKeys: (u, userId, signal) => queries.indexes.playerKeys(u, userId, signal),
  });
  // A result row or a player's entry opens in the data stores' editor, which other areas cannot name themselves.
  const openEntry = async (entry: EntryRef) => vscode.window.showTextDocument(entryUri(entry), { preview: false });
  // Before restrictions, so the Query Index row follows the data stores' rows.
  const queries = activateQueries({
    ...core,
    extensionUri: context.extensionUri,
    storageDir: context.globalStorageUri.fsPath,
    state: globalState,
    openEntry,
  });
  // The query index follows what the data stores' model reads and writes.
  const follower = queries.follower;
  const following = [
    datastores.model.onDidSeeEntry(({ address: a, entry }) =>
      follower.seen({ universe: a, store: a.datastoreName, scope: a.scope, key: a.key, entry }),
    ),
    datastores.model.onDidWriteInBulk((store) => follower.writtenInBulk(store, store.datastoreName)),
  ];
  const ordered = activateOrdered({ ...core, names });
  const restrictions = activateRestrictions({
    ...core,
    view,
    extensionUri: context.extensionUri,
    storageDir: context.globalStorageUri.fsPath,
  });
  // The player page reads the queries area's index, the places the restrictions area shows, and an open entry's
  // user ids, each handed over here.
  const players = activatePlayers({
    connections,
    ui,
    log,
    extensionUri: context.extensionUri,
    indexes: {
      index: (u) => queries.indexes.index(u),
      covered: (u) => queries.indexes.covered(u),
      describe: (parts) => describeCoverage(parts),
      onDidChange: queries.indexes.onDidChange,
    },
    places: (u) => restrictions.model.places(u),
    onDidChangeRestrictions: restrictions.model.onDidChange,
    openEntry,
    entryUsers: datastores.entryUsers,
    orderedStores: (u) => ordered.model.stores(u).map(({ store, scope }) => ({ store, scope })),
  });
  const assets = activateAssets({ ...core, view, state: globalState });
  const memory = activateMemory({ ...core, names, workspaceState: context.workspaceState });
  const sandbox = activateSandbox({ context, state: globalState, connections, ui, log, status });
  // Agents read through the queries area's indexes and apply plans through the data stores' review, and plans of bans
  // of many users through the restrictions' bulk ban review.
  const agents = activateAgents({
    connections,
    log,
    extensionUri: context.extensionUri,
    extensionPath: context.extensionPath,
    storageDir: context.globalStorageUri.fsPath,
    toolNames: toolNamesOf(context.extension.packageJSON),
    index: async (connectionId, universeId) => {
      const index = queries.indexes.index({ connectionId, universeId });
      return fs.existsSync(index.file) ? index : undefined;
    },
    reviewPlan: (file, connectionId) => datastores.reviewPlan(file, connectionId),
    reviewBanPlan: (file, connectionId) =>
      vscode.commands.executeCommand('universeExplorer.reviewBanPlan', { file, connectionId }),
  });
  // The API cannot list a creator's assets, nor ordered data stores, sorted maps and queues: the sandbox's connection
  // knows the demo's from its first start, and the demo universe's stores are named once.
  const introduceDemo = (): void => {
    if (!connections.get(SANDBOX_ID)) return;
    void assets.model.introduce(SANDBOX_ID, demoAssets);
    const demo = { connectionId: SANDBOX_ID, universeId: demoUniverse.id };
    void ordered.model.introduce(demo, demoOrderedStores);
    void memory.model.introduce(demo, 'sortedMap', demoMemoryStores.sortedMaps);
    void memory.model.introduce(demo, 'queue', demoMemoryStores.queues);
  };
  introduceDemo();
  const probes = [dataStoresProbe, restrictionsProbe, assetsProbe, memoryProbe];
  const rowKeys = { ...dataStoresKeys, ...restrictionsKeys, ...assetsKeys, ...orderedKeys, ...memoryKeys };
  context.subscriptions.push(
    log,
    connections,
    names,
    tree,
    view,
    status,
    marks,
    ...datastores.disposables,
    ...restrictions.disposables,
    ...queries.disposables,
    ...players.disposables,
    ...following,
    ...assets.disposables,
    ...ordered.disposables,
    ...memory.disposables,
    ...sandbox.disposables,
    ...agents.disposables,
    ...registerCommands({ ...core, probes, status, view, rowKeys }, coreCommands),
    connections.onDidChange(introduceDemo),
  );
  const ctx: TestContext = {
    get ui(): Ui {
      return ui.current;
    },
    set ui(next: Ui) {
      ui.use(next);
    },
    log,
    connections,
    names,
    tree,
    view,
    extension: context,
    datastores: datastores.model,
    entryDocuments: datastores.documents,
    timeMachine: datastores.timeMachine,
    operations: datastores.operations,
    restrictions: restrictions.model,
    banRuns: restrictions.runs,
    queryIndexes: queries.indexes,
    queryResults: queries.results,
    players: players.pages,
    queryFollower: queries.follower,
    agents: { opened: agents.opened, mcpServers: agents.mcpServers },
    assets: assets.model,
    ordered: ordered.model,
    memory: memory.model,
    memoryFiles: memory.files,
    memoryHeld: memory.held,
    sandbox: sandbox.sandbox,
    status,
    marks,
    roleOf,
  };
  return {
    testing: {
      ctx,
      reviveLog: (panel, state) => restrictions.logs.revive(panel, state),
      revivePlayer: (panel, state) => players.pages.revive(panel, state),
    },
  };
}

export function deactivate(): void {}

/** The names of the language model tools a manifest declares. */
function toolNamesOf(manifest: { contributes?: { languageModelTools?: { name: string }[] } }): string[] {
  return (manifest.contributes?.languageModelTools ?? []).map((tool) => tool.name);
}
