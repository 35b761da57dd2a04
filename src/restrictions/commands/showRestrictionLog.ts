import { t } from '../../core/text';
import type { RestrictionsCommand } from './context';
import { universeOf } from './scope';

export const showRestrictionLog: RestrictionsCommand = {
  id: 'universeExplorer.showRestrictionLog',
  get failure() {
    return t`open the restriction log`;
  },
  async run(ctx, node?: unknown) {
    return ctx.logs.show(await universeOf(ctx, node));
  },
};
