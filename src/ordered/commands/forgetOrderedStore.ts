import { t } from '../../core/text';
import type { OrderedCommand } from './context';
import { asStore } from './nodes';

/** Forgets the store in this list only; the service is not asked. */
export const forgetOrderedStore: OrderedCommand = {
  id: 'universeExplorer.forgetOrderedStore',
  get failure() {
    return t`forget the ordered data store`;
  },
  run: (ctx, node: unknown) => ctx.model.forget(asStore(node).ref),
};
