import type { SandboxCommand } from './context';

export const resetSandbox: SandboxCommand = {
  id: 'universeExplorer.resetSandbox',
  failure: 'reset the Local Sandbox',
  async run(ctx) {
    const answer = await ctx.ui.warn(
      'Reset the Local Sandbox? Every change made in it is lost, in every window, and the demo data is loaded again.',
      { modal: true },
      'Reset',
    );
    if (answer !== 'Reset') return undefined;
    return ctx.sandbox.reset();
  },
};
