import type { CommandBase, CommandDef } from '../../core/commands';
import type { DataStoresModel } from '../model';

export interface DataStoresContext extends CommandBase {
  model: DataStoresModel;
}

export type DataStoresCommand = CommandDef<DataStoresContext>;
