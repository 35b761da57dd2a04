// The queries area: the query index of each universe (built from its data stores or an export file, src/query, kept
// current with what the editor reads and writes, and exported as Parquet), query documents in the universe-query
// language with their completions, and the results panel.
import vscode = require('vscode');
import { registerCommands } from '../core/commands';
import type { Connections } from '../core/connections';
import type { Log } from '../core/log';
import type { UniverseTree } from '../core/tree/provider';
import type { Ui } from '../core/ui';
import { sameUniverse } from '../core/universe';
import { buildQueryIndex, refreshQueryIndex } from './commands/buildQueryIndex';
import type { QueriesCommand, QueriesContext } from './commands/context';
import { exportIndexParquet, loadQueryIndex } from './commands/indexFiles';
import { findValue, queryData, queryResult, runQuery } from './commands/runQuery';
import { QueryCompletions, TRIGGERS } from './completions';
import { queryLanguage, RunQueryLens } from './document';
import { IndexFollower } from './follow';
import { QueryIndexes } from './indexes';
import { ResultPanel, ResultPanels, type RowEntry } from './results/panel';
import { QueryIndexNode } from './tree';

const commands: readonly QueriesCommand[] = [
  buildQueryIndex,
  refreshQueryIndex,
  queryData,
  runQuery,
  findValue,
  exportIndexParquet,
  loadQueryIndex,
];

export function activateQueries(deps: {
  connections: Connections;
  ui: Ui;
  log: Log;
  tree: UniverseTree;
  extensionUri: vscode.Uri;
  /** The extension's global storage folder: indexes live in its `query` folder. */
  storageDir: string;
  /** globalState, written one update at a time (core/state.ts): the stores written in bulk since their build. */
  state: vscode.Memento;
  /** Opens an entry a result row names (the wiring hands over the data stores editor's). */
  openEntry(entry: RowEntry): Promise<unknown>;
}) {
  const { connections, ui, log, tree } = deps;
  const indexes = QueryIndexes.under(connections, deps.storageDir, deps.state);
  const follower = new IndexFollower(indexes, log);
  const results = new ResultPanels({
    ui,
    log,
    extensionUri: deps.extensionUri,
    openEntry: deps.openEntry,
    runQuery: (u, sql) => queryResult(ctx, u, sql),
  });
  const ctx: QueriesContext = { ui, log, connections, indexes, results };
  tree.addGroup((universe) => new QueryIndexNode(indexes, universe));
  const disposables: vscode.Disposable[] = [
    indexes,
    results,
    indexes.onDidChange((u) => {
      for (const node of tree.loaded())
        if (node instanceof QueryIndexNode && sameUniverse(node.ref, u)) tree.update(node);
    }),
    vscode.languages.registerCodeLensProvider({ language: queryLanguage }, new RunQueryLens()),
    vscode.languages.registerCompletionItemProvider(
      { language: queryLanguage },
      new QueryCompletions(indexes, log),
      ...TRIGGERS,
    ),
    vscode.window.registerWebviewPanelSerializer(ResultPanel.viewType, {
      deserializeWebviewPanel: async (panel, state) => void results.revive(panel, state),
    }),
    ...registerCommands(ctx, commands),
  ];
  return { indexes, results, follower, disposables };
}
