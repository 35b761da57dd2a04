// Where a restriction command acts: the node it was run on, or (from the command palette) a universe picked from
// the connections, and a level (the whole universe or one place) when the command writes or reads one user.
import { askUserId as askId } from '../../core/prompts';
import { pickConnection, pickUniverse } from '../../core/prompts';
import { t } from '../../core/text';
import { UniverseNode } from '../../core/tree/connectionNodes';
import { required, type Ui } from '../../core/ui';
import { assertWritable, type UniverseAddress } from '../../core/universe';
import type { RestrictionScope } from '../model';
import { PlaceRestrictionsNode, RestrictionNode, RestrictionsGroupNode } from '../tree';
import type { RestrictionsContext } from './context';

/** The universe of the node, or one picked when there is none. */
export async function universeOf(ctx: RestrictionsContext, node: unknown): Promise<UniverseAddress> {
  if (node instanceof RestrictionsGroupNode || node instanceof PlaceRestrictionsNode) return universe(node.scope);
  if (node instanceof RestrictionNode) return universe(node.parent.scope);
  if (node instanceof UniverseNode) return { connectionId: node.connectionId, universeId: node.universe.id };
  const connection = await pickConnection(ctx.ui, ctx.connections);
  return { connectionId: connection.id, universeId: (await pickUniverse(ctx.ui, connection)).id };
}

function universe(scope: RestrictionScope): UniverseAddress {
  return { connectionId: scope.connectionId, universeId: scope.universeId };
}

/** Checks an id; `problem` is what the input box says when it is not one. */
const idRule = (problem: string) => (v: string) => (/^[1-9]\d{0,18}$/.test(v.trim()) ? undefined : problem);

export async function askPlaceId(ui: Ui): Promise<number> {
  const text = required(
    await ui.input({
      title: t`Place id`,
      prompt: t`A place of this universe`,
      validateInput: idRule(t`A place id is a positive whole number.`),
    }),
  );
  const id = Number(text.trim());
  if (!Number.isSafeInteger(id)) throw new Error(t`${text.trim()} is too large for a place id`);
  return id;
}

/** A user id typed, as the restrictions API names users. */
export async function askUserId(ui: Ui, title: string): Promise<string> {
  return String(await askId(ui, title));
}

/**
 * The level a one-user command acts on: the node's own list (a group, a place, or a restriction's list); from the
 * palette, the picked universe and then the whole universe or a place the user names (see showScope).
 */
export async function restrictionScope(ctx: RestrictionsContext, node: unknown): Promise<RestrictionScope> {
  if (node instanceof RestrictionsGroupNode || node instanceof PlaceRestrictionsNode) return node.scope;
  if (node instanceof RestrictionNode) return node.parent.scope;
  const u = await universeOf(ctx, node);
  const level = required(
    await ctx.ui.pick(
      [
        { label: t`Whole universe`, description: t`universe ${u.universeId}`, place: false },
        { label: t`One place…`, description: t`a place id`, place: true },
      ],
      { title: t`Level`, placeHolder: t`Where the restriction applies` },
    ),
  );
  if (!level.place) return u;
  return { ...u, placeId: await askPlaceId(ctx.ui) };
}

/**
 * Shows the scope's place in the tree, once the command's prompts are done: a tree that changes while the next
 * prompt opens takes the focus back, and VS Code closes that prompt.
 */
export function showScope(ctx: RestrictionsContext, scope: RestrictionScope): void {
  if (scope.placeId !== undefined) ctx.model.showPlace(scope, scope.placeId);
}

/** A user of a universe or place, as another area (the player page) names them: a plain object, no tree node. */
export interface PlayerArg {
  scope: RestrictionScope;
  userId: string;
}

/** `{ connectionId, universeId, placeId?, userId }` (any value can arrive); undefined when it is not one. */
export function playerArg(arg: unknown): PlayerArg | undefined {
  const a = arg as Record<string, unknown> | null | undefined;
  if (typeof a !== 'object' || a === null || typeof a.connectionId !== 'string') return undefined;
  const id = (v: unknown) => Number.isSafeInteger(v) && (v as number) > 0;
  const userId = String(a.userId ?? '').trim();
  if (!id(a.universeId) || (a.placeId !== undefined && !id(a.placeId)) || !/^[1-9]\d{0,18}$/.test(userId))
    return undefined;
  const scope: RestrictionScope = { connectionId: a.connectionId, universeId: a.universeId as number };
  if (a.placeId !== undefined) scope.placeId = a.placeId as number;
  return { scope, userId };
}

export function asRestriction(node: unknown): RestrictionNode {
  if (!(node instanceof RestrictionNode)) throw new Error(t`choose a restriction in the Universes view`);
  return node;
}

/** Refuses a read-only universe before asking anything (the model refuses its writes too). */
export function writable(scope: RestrictionScope): RestrictionScope {
  assertWritable(scope);
  return scope;
}

export function describeScope(scope: RestrictionScope): string {
  return scope.placeId === undefined
    ? t`universe ${scope.universeId}`
    : t`place ${scope.placeId} of universe ${scope.universeId}`;
}
