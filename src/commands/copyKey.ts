import type { CommandDef } from './context';
import { asEntry } from './nodes';

export const copyKey: CommandDef = {
  id: 'universeExplorer.copyKey',
  failure: 'copy the key',
  run: (ctx, node: unknown) => ctx.ui.copy(asEntry(node).entry.key),
};
