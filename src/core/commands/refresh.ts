import type { TreeNode } from '../tree/node';
import type { CoreCommand } from './context';

export const refresh: CoreCommand = {
  id: 'universeExplorer.refresh',
  failure: 'refresh',
  run: (ctx, node?: TreeNode) => ctx.tree.refresh(node),
};
