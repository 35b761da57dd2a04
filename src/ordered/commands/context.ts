import type { CommandBase, CommandDef } from '../../core/commands';
import type { Connections } from '../../core/connections';
import type { OrderedModel } from '../model';

export interface OrderedContext extends CommandBase {
  model: OrderedModel;
  connections: Connections;
}

export type OrderedCommand = CommandDef<OrderedContext>;
