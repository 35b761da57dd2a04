import type { CommandBase, CommandDef } from '../../core/commands';
import type { EntryDocuments } from '../documents';
import type { DataStoresModel } from '../model';
import type { EntrySaver } from '../save';

export interface DataStoresContext extends CommandBase {
  model: DataStoresModel;
  saver: EntrySaver;
  documents: EntryDocuments;
}

export type DataStoresCommand = CommandDef<DataStoresContext>;
