import type { DataStoresCommand } from './context';
import { asEntry } from './nodes';

export const copyKey: DataStoresCommand = {
  id: 'universeExplorer.copyKey',
  failure: 'copy the key',
  run: (ctx, node: unknown) => ctx.ui.copy(asEntry(node).entry.key),
};
