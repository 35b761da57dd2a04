import { t } from '../../core/text';
import type { DataStoresCommand } from './context';
import { asEntry } from './nodes';

export const copyKey: DataStoresCommand = {
  id: 'universeExplorer.copyKey',
  get failure() {
    return t`copy the key`;
  },
  run: (ctx, node: unknown) => ctx.ui.copy(asEntry(node).entry.key),
};
