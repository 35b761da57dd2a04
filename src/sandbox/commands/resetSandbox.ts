import { t } from '../../core/text';
import type { SandboxCommand } from './context';

export const resetSandbox: SandboxCommand = {
  id: 'universeExplorer.resetSandbox',
  get failure() {
    return t`reset the Local Sandbox`;
  },
  async run(ctx) {
    const reset = t`Reset`;
    const answer = await ctx.ui.warn(
      t`Reset the Local Sandbox? Every change made in it is lost, in every window, and the demo data is loaded again.`,
      { modal: true },
      reset,
    );
    if (answer !== reset) return undefined;
    return ctx.sandbox.reset();
  },
};
