// Which universe a query command acts on: the row it was run on (a universe, its Data Stores group or its Query
// Index row), or one picked from the palette; and how that universe reads in messages.
import { pickConnection, pickUniverse } from '../../core/prompts';
import { t } from '../../core/text';
import { UniverseNode } from '../../core/tree/connectionNodes';
import type { UniverseAddress } from '../../core/universe';
import type { QueriesContext } from './context';

const isAddress = (v: unknown): v is UniverseAddress =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as UniverseAddress).connectionId === 'string' &&
  Number.isSafeInteger((v as UniverseAddress).universeId);

/**
 * The universe of the row (any group row of a universe has `ref`: the Data Stores group belongs to another area,
 * so it is known by that shape, not by its class), or one picked.
 */
export async function universeOf(ctx: QueriesContext, node: unknown): Promise<UniverseAddress> {
  if (node instanceof UniverseNode) return { connectionId: node.connectionId, universeId: node.universe.id };
  const ref = (node as { ref?: unknown } | undefined)?.ref;
  if (isAddress(ref)) return { connectionId: ref.connectionId, universeId: ref.universeId };
  const connection = await pickConnection(ctx.ui, ctx.connections);
  return { connectionId: connection.id, universeId: (await pickUniverse(ctx.ui, connection)).id };
}

/** "Demo Universe (123456) on Local Sandbox", or "universe 123456 on …". */
export function universeName(ctx: QueriesContext, u: UniverseAddress): string {
  const connection = ctx.connections.get(u.connectionId);
  const name = connection?.universes.find((x) => x.id === u.universeId)?.name;
  const where = connection?.name ?? u.connectionId;
  return name ? t`${name} (${u.universeId}) on ${where}` : t`universe ${u.universeId} on ${where}`;
}
