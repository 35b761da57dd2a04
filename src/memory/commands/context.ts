import type { CommandBase, CommandDef } from '../../core/commands';
import type { Connections } from '../../core/connections';
import type { MemoryModel } from '../model';

export interface MemoryContext extends CommandBase {
  model: MemoryModel;
  connections: Connections;
}

export type MemoryCommand = CommandDef<MemoryContext>;
