import type { PagedNode } from '../tree/loadMoreNode';
import type { CommandDef } from './context';

export const loadMore: CommandDef = {
  id: 'universeExplorer.loadMore',
  failure: 'load more',
  async run(ctx, node: PagedNode) {
    await node.pager.loadMore();
    ctx.tree.update(node);
  },
};
