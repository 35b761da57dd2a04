import { reason } from '../errors';
import type { CommandDef } from './context';
import { askPlaceId, restrictionsGroup } from './restrictionScope';

export const showPlace: CommandDef = {
  id: 'universeExplorer.showPlace',
  failure: 'show the place',
  async run(ctx, node?: unknown) {
    const group = await restrictionsGroup(ctx, node);
    const place = group.showPlace(await askPlaceId(ctx.ui));
    ctx.tree.update(group);
    await ctx.view.reveal(place, { select: true, expand: true }).then(undefined, (error: unknown) =>
      ctx.log.warn(`Could not reveal place ${place.placeId}: ${reason(error)}`),
    );
    return place;
  },
};
