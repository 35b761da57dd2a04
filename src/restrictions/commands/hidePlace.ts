import { t } from '../../core/text';
import { PlaceRestrictionsNode } from '../tree';
import type { RestrictionsCommand } from './context';

export const hidePlace: RestrictionsCommand = {
  id: 'universeExplorer.hidePlace',
  get failure() {
    return t`hide the place`;
  },
  run(ctx, node: unknown) {
    if (!(node instanceof PlaceRestrictionsNode)) throw new Error(t`choose a place under User Restrictions`);
    ctx.model.hidePlace(node.parent.scope, node.placeId);
  },
};
