import type { CommandBase, CommandDef } from '../../core/commands';
import type { Sandbox } from '../sandbox';

export interface SandboxContext extends CommandBase {
  sandbox: Sandbox;
  /** Whether a tab or panel of the sandbox may start it when it needs it (not after the user stopped it). */
  startOnDemand(allowed: boolean): void;
}

export type SandboxCommand = CommandDef<SandboxContext>;
