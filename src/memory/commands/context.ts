import type { CommandBase, CommandDef } from '../../core/commands';
import type { Connections } from '../../core/connections';
import type { HeldReads } from '../held';
import type { MemoryModel } from '../model';

export interface MemoryContext extends CommandBase {
  model: MemoryModel;
  connections: Connections;
  held: HeldReads;
}

export type MemoryCommand = CommandDef<MemoryContext>;
