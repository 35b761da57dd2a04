import type { SandboxCommand } from './context';

export const stopSandbox: SandboxCommand = {
  id: 'universeExplorer.stopSandbox',
  failure: 'stop the Local Sandbox',
  run(ctx) {
    ctx.startOnDemand(false);
    return ctx.sandbox.stop();
  },
};
