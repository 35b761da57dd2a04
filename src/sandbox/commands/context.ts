import type { CommandBase, CommandDef } from '../../core/commands';
import type { Sandbox } from '../sandbox';

export interface SandboxContext extends CommandBase {
  sandbox: Sandbox;
}

export type SandboxCommand = CommandDef<SandboxContext>;
