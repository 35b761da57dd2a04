import type { CommandBase, CommandDef } from '../../core/commands';
import type { BulkStatus } from '../../core/statusBar';
import type { EntryDocuments } from '../documents';
import type { DataStoresModel } from '../model';
import type { EntrySaver } from '../save';

export interface DataStoresContext extends CommandBase {
  model: DataStoresModel;
  saver: EntrySaver;
  documents: EntryDocuments;
  status: BulkStatus;
}

export type DataStoresCommand = CommandDef<DataStoresContext>;
