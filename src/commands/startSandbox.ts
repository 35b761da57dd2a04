import type { CommandDef } from './context';

export const startSandbox: CommandDef = {
  id: 'universeExplorer.startSandbox',
  failure: 'start the Local Sandbox',
  run: (ctx) => ctx.sandbox.start(),
};
