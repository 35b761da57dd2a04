import { t } from '../text';
import type { PagedNode } from '../tree/loadMoreNode';
import type { CoreCommand } from './context';

export const loadMore: CoreCommand = {
  id: 'universeExplorer.loadMore',
  get failure() {
    return t`load more`;
  },
  async run(ctx, node: PagedNode) {
    await node.pager.loadMore();
    ctx.tree.update(node);
  },
};
