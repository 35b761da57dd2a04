import vscode = require('vscode');
import { notFoundAs, type EntryKey } from '../../api';
import { askingWords } from '../../core/confirmWrite';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { describeEntry } from '../editor/save';
import { entryUri } from '../editor/uris';
import { allScopes } from '../listState';
import type { DataStoresCommand } from './context';
import { asDataStore } from './nodes';
import { nameRule, scopeFor } from './prompts';

/** Keys listed under what is typed: a page, as the key is meant to be typed further rather than scrolled to. */
const KEYS_LISTED = 50;

type KeyItem = vscode.QuickPickItem & { entry: EntryKey };

/** Opens a key by name, listing the keys that start with what is typed; a key that does not exist can be created (as {}), a deleted one opens its last value. */
export const goToKey: DataStoresCommand = {
  id: 'universeExplorer.goToKey',
  get failure() {
    return t`open the key`;
  },
  async run(ctx, node: unknown) {
    const store = asDataStore(node);
    const everyScope = store.scope === allScopes;
    const picked = required(
      await ctx.ui.pickAsYouType<KeyItem>(
        {
          title: t`Key in ${store.store.name}`,
          placeHolder: t`Type a key: the keys that start with it are listed; one that does not exist can be created`,
        },
        async (prefix, signal) => {
          if (prefix && nameRule('key')(prefix)) return []; // no key starts with it
          const keys = await ctx.model.keysStartingWith(store.ref, prefix, KEYS_LISTED, signal);
          return keys.map((k) => ({ label: k.key, description: everyScope ? k.scope : undefined, entry: k }));
        },
        (text) => {
          const problem = nameRule('key')(text);
          return problem ? { problem } : t`open this key, or create it if it does not exist`;
        },
      ),
    );
    // A key picked from the list names its scope; a typed one is in the store's scope, or asked for.
    const key = typeof picked === 'string' ? picked : picked.entry.key;
    const scope = typeof picked === 'string' ? await scopeFor(ctx.ui, store) : picked.entry.scope;
    const address = { ...store.ref, scope, key };
    const found = await ctx.ui.progress(t`Opening ${key}…`, (signal) =>
      ctx.model.current(address, signal).catch(notFoundAs(undefined)),
    );
    if (!found) {
      if (store.readOnly) throw new Error(t`${describeEntry(address)} does not exist`);
      const create = t`Create`;
      const { question, detail } = askingWords(
        address,
        t`${describeEntry(address)} does not exist.`,
        t`Create it with the value {} and open it to edit?`,
      );
      const answer = await ctx.ui.warn(question, { modal: true, detail }, create);
      if (answer !== create) return undefined;
      await ctx.ui.progress(t`Creating ${key}…`, (signal) => ctx.model.create(address, '{}', signal));
    }
    const uri = entryUri(address);
    await vscode.window.showTextDocument(uri, { preview: false });
    if (found?.deleted)
      void ctx.ui.info(
        t`${describeEntry(address)} is deleted in the service; it shows its last value, read-only. Restore a version from its list in the Universes view.`,
      );
    return uri;
  },
};
