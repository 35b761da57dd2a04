// Which keys a time-machine command works on: every key under the store row's filter (its scope and prefix), some
// keys picked from its list, or one player's entries (a user id typed).
import type { EntryKey, RestorePlanHeader } from '../../api';
import { t } from '../../core/text';
import { required, UserCancelled } from '../../core/ui';
import { allScopes, listingOf, type StoreRef } from '../listState';
import type { TimeSelection } from '../timeMachine';
import type { DataStoresContext } from './context';
import { filterText } from './nodes';
import { whereOf } from './restorePlan';

export const headerSelection = (s: TimeSelection): RestorePlanHeader['selection'] => ({
  ...listingOf(s),
  userId: s.userId,
  keys: s.keys ? true : undefined,
});

/** Keys offered by Only Some Keys…; a larger store is narrowed with Filter Entries first. */
const KEYS_OFFERED = 1000;

/** A pick of some of the store's keys under its filter. */
async function askKeys(ctx: DataStoresContext, store: StoreRef, action: string): Promise<EntryKey[]> {
  const filter = ctx.model.lists.filter(store);
  const name = store.datastoreName;
  const keys = await ctx.ui.progress(t`Listing the keys of ${name}…`, (signal) =>
    ctx.model.keyList(store, KEYS_OFFERED + 1, signal),
  );
  if (!keys.length) throw new Error(t`${name} has no keys (${filterText(filter)})`);
  const items = keys.slice(0, KEYS_OFFERED).map((k) => ({
    label: k.key,
    description: filter.scope === allScopes ? t`scope ${k.scope}` : undefined,
    entryKey: k,
  }));
  const picked = required(
    await ctx.ui.pickMany(items, {
      title: t`${action}: the keys`,
      placeHolder:
        keys.length > KEYS_OFFERED
          ? t`The first ${KEYS_OFFERED} keys: narrow them with Filter Entries… (a key prefix), or type to find one`
          : t`Pick the keys; type to find one`,
      matchOnDescription: true,
    }),
  );
  if (!picked.length) throw new UserCancelled();
  return picked.map((p) => p.entryKey);
}

/**
 * Every key under the row's filter, some of them (picked), or one player's among them (a user id typed). `action`
 * says what they are for: `Restore Players to 24 Nov 2026, 14:05`.
 */
export async function askSelection(
  ctx: DataStoresContext,
  store: StoreRef,
  action: string,
  when: string,
): Promise<TimeSelection> {
  const filter = ctx.model.lists.filter(store);
  const { which } = required(
    await ctx.ui.pick(
      [
        { label: t`Every Key`, description: whereOf(headerSelection(filter)), which: 'all' },
        { label: t`Only Some Keys…`, description: t`the keys you pick from the list`, which: 'keys' },
        {
          label: t`Only One Player…`,
          description: t`the entries whose user ids include a user id you type`,
          which: 'player',
        },
      ],
      { title: t`${action}: which keys?` },
    ),
  );
  if (which === 'all') return filter;
  if (which === 'keys') return { ...filter, keys: await askKeys(ctx, store, action) };
  const typed = required(
    await ctx.ui.input({
      title: t`${action}: one player`,
      prompt: t`The user id: entries whose user ids include it, now or at ${when}`,
      validateInput: (text) =>
        /^\d+$/.test(text.trim()) && Number.isSafeInteger(Number(text)) && Number(text) > 0
          ? undefined
          : t`A user id is a positive whole number`,
    }),
  );
  return { ...filter, userId: Number(typed.trim()) };
}
