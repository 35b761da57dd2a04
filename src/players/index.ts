// The players area: one page per user of a universe (their data store entries from the query index, their bans and
// restriction log) and Show Player…. It reads through the client and the index, never another area's model; what
// other areas own reaches it as functions from the wiring.
import vscode = require('vscode');
import { registerCommands } from '../core/commands';
import type { PlayerDeps } from './deps';
import { PlayerPanel } from './panel';
import { PlayerPanels } from './panels';
import { showPlayer } from './showPlayer';

export function activatePlayers(deps: PlayerDeps) {
  const pages = new PlayerPanels(deps);
  const disposables: vscode.Disposable[] = [
    pages,
    vscode.window.registerWebviewPanelSerializer(PlayerPanel.viewType, {
      deserializeWebviewPanel: async (panel, state) => void pages.revive(panel, state),
    }),
    ...registerCommands({ ...deps, pages }, [showPlayer]),
  ];
  return { pages, disposables };
}
