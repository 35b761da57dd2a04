import { t } from '../../core/text';
import type { SandboxCommand } from './context';

export const stopSandbox: SandboxCommand = {
  id: 'universeExplorer.stopSandbox',
  get failure() {
    return t`stop the Local Sandbox`;
  },
  run(ctx) {
    ctx.startOnDemand(false);
    return ctx.sandbox.stop();
  },
};
