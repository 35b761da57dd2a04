import { t } from '../../core/text';
import type { SandboxCommand } from './context';

export const startSandbox: SandboxCommand = {
  id: 'universeExplorer.startSandbox',
  get failure() {
    return t`start the Local Sandbox`;
  },
  run(ctx) {
    ctx.startOnDemand(true);
    return ctx.sandbox.start();
  },
};
