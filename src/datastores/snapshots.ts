// When each universe's last snapshot was taken, as far as this machine has seen: kept in globalState, which every
// window reads.
import type vscode = require('vscode');
import { universeKey, type UniverseAddress } from '../core/universe';

const SNAPSHOTS_KEY = 'universeExplorer.snapshots';

export class SnapshotTimes {
  /** `globalState` is written one update at a time (core/state.ts). */
  constructor(private readonly globalState: vscode.Memento) {}

  /** ISO; undefined if never. */
  last(u: UniverseAddress): string | undefined {
    return this.globalState.get<Record<string, string>>(SNAPSHOTS_KEY, {})[universeKey(u)];
  }

  async remember(u: UniverseAddress, time: string): Promise<void> {
    const all = this.globalState.get<Record<string, string>>(SNAPSHOTS_KEY, {});
    await this.globalState.update(SNAPSHOTS_KEY, { ...all, [universeKey(u)]: time });
  }
}
