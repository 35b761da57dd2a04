import type { SandboxCommand } from './context';

export const startSandbox: SandboxCommand = {
  id: 'universeExplorer.startSandbox',
  failure: 'start the Local Sandbox',
  run: (ctx) => ctx.sandbox.start(),
};
