// What the memory commands share: the row they run on (or a universe and a name asked for from the palette), and
// the prompts for an item's life and sort key.
import { askingWords } from '../../core/confirmWrite';
import { universeFrom, validator } from '../../core/prompts';
import { t } from '../../core/text';
import { required, UserCancelled } from '../../core/ui';
import type { UniverseAddress } from '../../core/universe';
import type { MemoryKind } from '../model';
import { MemoryKindNode, QueueNode, SortedMapItemNode, SortedMapNode } from '../tree';
import { parseSortKey, parseTtl } from '../values';
import type { MemoryContext } from './context';

export function asItem(node: unknown): SortedMapItemNode {
  if (!(node instanceof SortedMapItemNode)) throw new Error(t`choose a sorted map item in the Universes view`);
  return node;
}

/** The map or queue of the row, or a universe picked and a remembered name picked (or typed). */
export async function storeFrom(
  ctx: MemoryContext,
  node: unknown,
  kind: MemoryKind,
): Promise<{ u: UniverseAddress; name: string }> {
  if (kind === 'sortedMap' && node instanceof SortedMapNode) return { u: node.ref, name: node.name };
  if (kind === 'queue' && node instanceof QueueNode) return { u: node.ref, name: node.name };
  const u = await universeFrom(ctx.ui, ctx.connections, node);
  const names = ctx.model.names(u, kind);
  const title = kind === 'sortedMap' ? t`Sorted map` : t`Queue`;
  const picked = await ctx.ui.pickOrType(
    names.map((label) => ({ label })),
    { title, placeHolder: t`A remembered name, or type one` },
    (text) =>
      text.trim() ? t`the ${kind === 'sortedMap' ? t`sorted map` : t`queue`} named ${text.trim()}` : undefined,
  );
  const answer = required(picked);
  const name = typeof answer === 'string' ? answer.trim() : answer.label;
  if (!name) throw new UserCancelled();
  await ctx.model.remember(u, kind, name);
  return { u, name };
}

/** Asks a name and remembers it under the row's universe (the row: Sorted Maps or Queues, or none from the palette). */
export async function addByName(ctx: MemoryContext, node: unknown, kind: MemoryKind): Promise<string> {
  const u = node instanceof MemoryKindNode ? node.ref : await universeFrom(ctx.ui, ctx.connections, node);
  const maps = kind === 'sortedMap';
  const name = required(
    await ctx.ui.input({
      title: maps ? t`Add Sorted Map by Name` : t`Add Queue by Name`,
      prompt: t`The exact name (case-sensitive). The service cannot list names, so this one is remembered here.`,
      validateInput: (v) => (v.trim() ? undefined : t`Enter a name.`),
    }),
  ).trim();
  await ctx.model.remember(u, kind, name);
  return name;
}

/** A time to live typed: seconds or a duration, up to 45 days. */
export async function askTtl(ctx: MemoryContext, title: string, value: string): Promise<number> {
  const text = await ctx.ui.input({
    title,
    value,
    prompt: t`How long the item lives: seconds, or e.g. 90m, 12h, 3d; at most 45 days`,
    validateInput: validator(parseTtl),
  });
  return parseTtl(required(text));
}

/** A sort key typed: empty for none, a number, or text. */
export async function askSortKey(
  ctx: MemoryContext,
  title: string,
  value: string,
): Promise<number | string | undefined> {
  const text = await ctx.ui.input({
    title,
    value,
    prompt: t`Sort key: a number, or text ("12" in quotes for text that reads as a number); empty for none`,
  });
  return parseSortKey(required(text));
}

/** A modal question (production-marked as it applies); anything but `button` cancels. */
export async function confirm(
  ctx: MemoryContext,
  u: UniverseAddress,
  question: string,
  detail: string,
  button: string,
): Promise<void> {
  const words = askingWords(u, question, detail);
  const answer = await ctx.ui.warn(words.question, { modal: true, detail: words.detail }, button);
  if (answer !== button) throw new UserCancelled();
}
