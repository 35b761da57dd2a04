import { t } from '../../core/text';
import type { RestrictionsCommand } from './context';
import { askPlaceId, universeOf } from './scope';

export const showPlace: RestrictionsCommand = {
  id: 'universeExplorer.showPlace',
  get failure() {
    return t`show the place`;
  },
  async run(ctx, node?: unknown) {
    const u = await universeOf(ctx, node);
    const placeId = await askPlaceId(ctx.ui);
    ctx.model.showPlace(u, placeId);
    return ctx.revealPlace({ ...u, placeId });
  },
};
