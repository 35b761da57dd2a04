import type { CommandDef } from './context';

export const stopSandbox: CommandDef = {
  id: 'universeExplorer.stopSandbox',
  failure: 'stop the Local Sandbox',
  run: (ctx) => ctx.sandbox.stop(),
};
