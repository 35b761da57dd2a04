import { t } from '../../core/text';
import type { OrderedCommand } from './context';
import { asStore } from './nodes';

export const sortOrderedAscending: OrderedCommand = {
  id: 'universeExplorer.sortOrderedAscending',
  get failure() {
    return t`sort the entries`;
  },
  run: (ctx, node: unknown) => ctx.model.setOrder(asStore(node).ref, 'asc'),
};

export const sortOrderedDescending: OrderedCommand = {
  id: 'universeExplorer.sortOrderedDescending',
  get failure() {
    return t`sort the entries`;
  },
  run: (ctx, node: unknown) => ctx.model.setOrder(asStore(node).ref, 'desc'),
};
