import type { CommandBase, CommandDef } from '../../core/commands';
import type { Connections } from '../../core/connections';
import type { QueryIndexes } from '../indexes';
import type { ResultPanels } from '../results/panel';

export interface QueriesContext extends CommandBase {
  connections: Connections;
  indexes: QueryIndexes;
  results: ResultPanels;
}

export type QueriesCommand = CommandDef<QueriesContext>;
