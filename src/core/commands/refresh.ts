import { t } from '../text';
import type { TreeNode } from '../tree/node';
import type { CoreCommand } from './context';

export const refresh: CoreCommand = {
  id: 'universeExplorer.refresh',
  get failure() {
    return t`refresh`;
  },
  run: (ctx, node?: TreeNode) => ctx.tree.refresh(node),
};
