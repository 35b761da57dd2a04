import type { TreeNode } from '../tree/node';
import type { CommandDef } from './context';

export const refresh: CommandDef = {
  id: 'universeExplorer.refresh',
  failure: 'refresh',
  run: (ctx, node?: TreeNode) => ctx.tree.refresh(node),
};
