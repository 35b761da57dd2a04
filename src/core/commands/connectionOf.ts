import type { Connection } from '../connections';
import { pickConnection } from '../prompts';
import { ConnectionNode } from '../tree/connectionNodes';
import type { CoreContext } from './context';

/** The connection of the clicked node (or of the id the status bar passes), or one picked from the list. */
export async function connectionOf(ctx: CoreContext, node: unknown, savedOnly = false): Promise<Connection> {
  if (node instanceof ConnectionNode) return node.connection;
  const named = typeof node === 'string' ? ctx.connections.get(node) : undefined;
  if (named && !(savedOnly && named.sandbox)) return named;
  return pickConnection(ctx.ui, ctx.connections, savedOnly);
}
