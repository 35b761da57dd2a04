// The open player pages, one per user of a universe: shown again when asked for again, brought back after a window
// reload from the state the page kept, and read again when something they show changes elsewhere in this window
// (the universe's query index was built, its restrictions changed).
import vscode = require('vscode');
import { t } from '../core/text';
import { sameUniverse, universeKey, type UniverseAddress } from '../core/universe';
import type { PlayerDeps } from './deps';
import { PlayerPanel } from './panel';
import { readPlayerRef, type PlayerRef } from './protocol';

const keyOf = (p: PlayerRef): string => `${universeKey(p)}/${p.userId}`;

export class PlayerPanels implements vscode.Disposable {
  private readonly open = new Map<string, PlayerPanel>();
  private readonly following: vscode.Disposable[];

  constructor(private readonly deps: PlayerDeps) {
    const each = (u: UniverseAddress, fn: (panel: PlayerPanel) => Promise<void>) => {
      for (const panel of this.open.values()) if (sameUniverse(panel.ref, u)) void fn(panel);
    };
    this.following = [
      deps.indexes.onDidChange((u) => each(u, (p) => p.refresh())),
      deps.onDidChangeRestrictions((u) => each(u, (p) => p.refreshRestrictions())),
    ];
  }

  /** `Demo Universe (123456) on Local Sandbox`, or `universe 123456 on …`. */
  where(u: UniverseAddress): string {
    const connection = this.deps.connections.get(u.connectionId);
    const name = connection?.universes.find((x) => x.id === u.universeId)?.name;
    const on = connection?.name ?? u.connectionId;
    return name ? t`${name} (${u.universeId}) on ${on}` : t`universe ${u.universeId} on ${on}`;
  }

  /** Opens the player's page, or shows it again (read anew) when it is open. */
  show(p: PlayerRef): PlayerPanel {
    const panel = this.open.get(keyOf(p));
    if (!panel) return this.add(new PlayerPanel(this.deps, p, this.where(p)));
    panel.panel.reveal();
    void panel.refresh();
    return panel;
  }

  /** The open page of a player. */
  of(p: PlayerRef): PlayerPanel | undefined {
    return this.open.get(keyOf(p));
  }

  /**
   * Brings back a page VS Code restored after a window reload, from the state its page kept. A state that is not
   * ours, or a player whose page is already open, closes it. A connection that is gone shows in the sections'
   * errors until it is back and the user refreshes.
   */
  revive(panel: vscode.WebviewPanel, state: unknown): PlayerPanel | undefined {
    const ref = readPlayerRef((state as { restore?: unknown } | null | undefined)?.restore);
    if (!ref || this.open.has(keyOf(ref))) {
      panel.dispose();
      return undefined;
    }
    return this.add(new PlayerPanel(this.deps, ref, this.where(ref), panel));
  }

  dispose(): void {
    for (const d of this.following) d.dispose();
    for (const panel of [...this.open.values()]) panel.dispose();
  }

  private add(panel: PlayerPanel): PlayerPanel {
    const key = keyOf(panel.ref);
    this.open.set(key, panel);
    panel.panel.onDidDispose(() => {
      if (this.open.get(key) === panel) this.open.delete(key);
    });
    return panel;
  }
}
