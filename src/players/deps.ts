// What the player page uses. The query index belongs to the queries area, the known places to the restrictions area
// and the entry editor to the data stores area: the wiring (extension.ts) hands each over as a function.
import type vscode = require('vscode');
import type { Connections } from '../core/connections';
import type { Log } from '../core/log';
import type { Ui } from '../core/ui';
import type { UniverseAddress } from '../core/universe';
import type { IndexedPart, UniverseIndex } from '../query';

/** The queries area's index of each universe, as the page reads it. */
export interface PlayerIndexes {
  index(u: UniverseAddress): UniverseIndex;
  /** What the index covers, read once (opens the index: call only when its file is there). */
  covered(u: UniverseAddress): Promise<IndexedPart[]>;
  /** `PlayerData, Inventory · 40,312 entries · as of 10:32, 2 hours ago`. */
  describe(parts: readonly IndexedPart[]): string | undefined;
  /** A universe's index was built or refreshed. */
  onDidChange: vscode.Event<UniverseAddress>;
}

/** An entry a row names, to open in the data stores' editor. */
export interface EntryRef extends UniverseAddress {
  datastoreName: string;
  scope: string;
  key: string;
}

export interface PlayerDeps {
  connections: Connections;
  ui: Ui;
  log: Log;
  extensionUri: vscode.Uri;
  indexes: PlayerIndexes;
  /** The places whose restrictions are shown under the universe (Show Place…). */
  places(u: UniverseAddress): number[];
  /** The restrictions of a universe changed (a ban, an unban, anywhere in this window). */
  onDidChangeRestrictions: vscode.Event<UniverseAddress>;
  /** The ordered data stores the universe remembers (Ordered Data Stores in the tree). */
  orderedStores(u: UniverseAddress): { store: string; scope: string }[];
  /** Opens the live entry. */
  openEntry(entry: EntryRef): Promise<unknown>;
  /** The universe and user ids of an open entry's document (undefined: no entry, or not read yet). */
  entryUsers(uri: vscode.Uri): (UniverseAddress & { userIds: number[] }) | undefined;
}
