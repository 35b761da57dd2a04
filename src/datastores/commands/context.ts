import type { CommandBase, CommandDef } from '../../core/commands';
import type { Connections } from '../../core/connections';
import type { TreeNode } from '../../core/tree/node';
import type { UniverseAddress } from '../../core/universe';
import type { BulkStatus } from '../../core/statusBar';
import type { EntryDocuments } from '../editor/documents';
import type { DataStoresModel } from '../model';
import type { EntrySaver } from '../editor/save';
import type { TimeMachine } from '../timeMachine';
import type { Review, ReviewHandler, ReviewPanel } from '../../core/review/panel';
import type { Operations } from '../operations/operations';

/** The keys a universe's query index ties to a user, and what the index covers (its stores, read when). */
export interface PlayerKeys {
  parts: { store: string; scope?: string; asOf: string }[];
  keys: { store: string; scope: string; key: string }[];
}

export interface DataStoresContext extends CommandBase {
  model: DataStoresModel;
  timeMachine: TimeMachine;
  saver: EntrySaver;
  documents: EntryDocuments;
  status: BulkStatus;
  /** For the prompts that pick another connection and universe. */
  connections: Connections;
  /** Plans and their files, in the extension's storage. */
  operations: Operations;
  /** Opens a review panel. */
  openReview(review: Review, handler: ReviewHandler): ReviewPanel;
  /** The user's keys in the universe's query index (another area's: the wiring hands it over); undefined: no index. */
  playerKeys(u: UniverseAddress, userId: number, signal: AbortSignal): Promise<PlayerKeys | undefined>;
  /** Selects a row in the Universes view, expanded. */
  reveal(node: TreeNode): Promise<void>;
}

export type DataStoresCommand = CommandDef<DataStoresContext>;
