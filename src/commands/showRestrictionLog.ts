import { RestrictionLogPanel } from '../webview/restrictionLogPanel';
import type { CommandDef } from './context';
import { logTarget, restrictionsGroup } from './restrictionScope';

export const showRestrictionLog: CommandDef = {
  id: 'universeExplorer.showRestrictionLog',
  failure: 'open the restriction log',
  async run(ctx, node?: unknown) {
    const group = await restrictionsGroup(ctx, node);
    return RestrictionLogPanel.show(ctx, logTarget(ctx, group));
  },
};
