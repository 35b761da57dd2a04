import type { SandboxCommand } from './context';

export const startSandbox: SandboxCommand = {
  id: 'universeExplorer.startSandbox',
  failure: 'start the Local Sandbox',
  run(ctx) {
    ctx.startOnDemand(true);
    return ctx.sandbox.start();
  },
};
