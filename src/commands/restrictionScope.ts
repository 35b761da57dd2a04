// Where a restriction command acts: the node it was run on, or (from the command palette) a universe picked
// from the connections, and a level (the whole universe or one place) when the command writes or reads one user.
import type { Connection, UniverseRef } from '../connections';
import { ConnectionNode } from '../tree/connectionNode';
import { PlaceRestrictionsNode } from '../tree/placeRestrictionsNode';
import { RestrictionNode, type RestrictionListNode } from '../tree/restrictionNode';
import { RestrictionsGroupNode } from '../tree/restrictionsGroupNode';
import { UniverseNode } from '../tree/universeNode';
import { required, type Ui } from '../ui';
import { RestrictionLogPanel, type LogTarget } from '../webview/restrictionLogPanel';
import type { CommandContext } from './context';
import { pickConnection } from './prompts';

async function pickUniverse(ui: Ui, connection: Connection): Promise<UniverseRef> {
  const universes = connection.universes;
  if (universes.length === 0) throw new Error(`"${connection.name}" has no universe yet; add one first`);
  if (universes.length === 1) return universes[0];
  const picked = await ui.pick(
    universes.map((u) => ({ label: u.name ?? `Universe ${u.id}`, description: String(u.id), universe: u })),
    { title: `Universe of ${connection.name}` },
  );
  return required(picked).universe;
}

/** The tree's own node (nodes are kept once made), so a change from the palette refreshes what is shown. */
async function findGroup(ctx: CommandContext, connectionId: string, universeId: number): Promise<RestrictionsGroupNode> {
  const connection = (await ctx.tree.getChildren()).find((n) => n instanceof ConnectionNode && n.connection.id === connectionId);
  const universe =
    connection && (await ctx.tree.getChildren(connection)).find((n) => n instanceof UniverseNode && n.universe.id === universeId);
  const group = universe && (await ctx.tree.getChildren(universe)).find((n) => n instanceof RestrictionsGroupNode);
  if (!(group instanceof RestrictionsGroupNode)) throw new Error(`universe ${universeId} is not in the Universes view`);
  return group;
}

/** The User Restrictions group of the node, or of a universe picked when there is none. */
export async function restrictionsGroup(ctx: CommandContext, node: unknown): Promise<RestrictionsGroupNode> {
  if (node instanceof RestrictionsGroupNode) return node;
  if (node instanceof PlaceRestrictionsNode) return node.parent;
  if (node instanceof RestrictionNode) return restrictionsGroup(ctx, node.parent);
  if (node instanceof UniverseNode) return findGroup(ctx, node.connectionId, node.universe.id);
  const connection = await pickConnection(ctx, node);
  const universe = await pickUniverse(ctx.ui, connection);
  return findGroup(ctx, connection.id, universe.id);
}

const idRule = (what: string) => (v: string) =>
  /^[1-9]\d{0,18}$/.test(v.trim()) ? undefined : `A ${what} id is a positive whole number.`;

export async function askPlaceId(ui: Ui): Promise<number> {
  const text = required(await ui.input({ title: 'Place id', prompt: 'A place of this universe', validateInput: idRule('place') }));
  const id = Number(text.trim());
  if (!Number.isSafeInteger(id)) throw new Error(`${text.trim()} is too large for a place id`);
  return id;
}

export async function askUserId(ui: Ui, title: string): Promise<string> {
  const text = required(await ui.input({ title, prompt: 'User id', validateInput: idRule('user') })).trim();
  const problem = idRule('user')(text);
  if (problem) throw new Error(problem);
  return text;
}

/**
 * The list a one-user command acts on: the node's own (a group, a place, or a restriction's list); from the
 * palette, the picked universe and then the whole universe or a place the user names (shown in the tree).
 */
export async function restrictionList(ctx: CommandContext, node: unknown): Promise<RestrictionListNode> {
  if (node instanceof RestrictionsGroupNode || node instanceof PlaceRestrictionsNode) return node;
  if (node instanceof RestrictionNode) return node.parent;
  const group = await restrictionsGroup(ctx, node);
  const level = required(
    await ctx.ui.pick(
      [
        { label: 'Whole universe', description: `universe ${group.universeId}`, place: false },
        { label: 'One place…', description: 'a place id', place: true },
      ],
      { title: 'Level', placeHolder: 'Where the restriction applies' },
    ),
  );
  if (!level.place) return group;
  const place = group.showPlace(await askPlaceId(ctx.ui));
  ctx.tree.update(group);
  return place;
}

export function asRestriction(node: unknown): RestrictionNode {
  if (!(node instanceof RestrictionNode)) throw new Error('choose a restriction in the Universes view');
  return node;
}

export function describeScope(list: RestrictionListNode): string {
  return list.placeId === undefined ? `universe ${list.universeId}` : `place ${list.placeId} of universe ${list.universeId}`;
}

export function logTarget(ctx: CommandContext, list: RestrictionListNode): LogTarget {
  const group = list instanceof PlaceRestrictionsNode ? list.parent : (list as RestrictionsGroupNode);
  return {
    connectionId: list.connectionId,
    connectionName: ctx.connections.get(list.connectionId)?.name ?? list.connectionId,
    universeId: list.universeId,
    universeName: group.parent.universe.name,
  };
}

/** After a write: the list reloads (a universe list reloads its places, where its bans show), and so does an open log. */
export function afterWrite(ctx: CommandContext, list: RestrictionListNode): void {
  ctx.tree.refresh(list);
  RestrictionLogPanel.refreshFor(list.connectionId, list.universeId);
}
