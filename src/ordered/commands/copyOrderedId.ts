import { t } from '../../core/text';
import type { OrderedCommand } from './context';
import { asEntry } from './nodes';

export const copyOrderedId: OrderedCommand = {
  id: 'universeExplorer.copyOrderedId',
  get failure() {
    return t`copy the entry id`;
  },
  run: (ctx, node: unknown) => ctx.ui.copy(asEntry(node).key),
};
