import type { CommandDef } from './context';
import { askPlaceId, restrictionsGroup } from './restrictionScope';

export const showPlace: CommandDef = {
  id: 'universeExplorer.showPlace',
  failure: 'show the place',
  async run(ctx, node?: unknown) {
    const group = await restrictionsGroup(ctx, node);
    const place = group.showPlace(await askPlaceId(ctx.ui));
    ctx.tree.update(group);
    return place;
  },
};
