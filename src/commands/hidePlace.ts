import { PlaceRestrictionsNode } from '../tree/placeRestrictionsNode';
import type { CommandDef } from './context';

export const hidePlace: CommandDef = {
  id: 'universeExplorer.hidePlace',
  failure: 'hide the place',
  run(ctx, node: unknown) {
    if (!(node instanceof PlaceRestrictionsNode)) throw new Error('choose a place under User Restrictions');
    node.parent.hidePlace(node);
    ctx.tree.update(node.parent);
  },
};
