import type { CommandBase, CommandDef } from '../../core/commands';
import type { Connections } from '../../core/connections';
import type { AssetDetailsDocuments } from '../details';
import type { AssetsModel } from '../model';

export interface AssetsContext extends CommandBase {
  model: AssetsModel;
  details: AssetDetailsDocuments;
  connections: Connections;
  /** Selects the asset in the Universes view. */
  reveal(connectionId: string, assetId: string): Promise<void>;
}

export type AssetsCommand = CommandDef<AssetsContext>;
