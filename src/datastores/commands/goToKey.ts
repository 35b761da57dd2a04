import vscode = require('vscode');
import { notFoundAs } from '../../api';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { describeEntry } from '../editor/save';
import { entryUri } from '../editor/uris';
import type { DataStoresCommand } from './context';
import { asDataStore } from './nodes';
import { nameRule, scopeFor } from './prompts';

/** Opens a key by name; a key that does not exist can be created (as {}), a deleted one opens its last value. */
export const goToKey: DataStoresCommand = {
  id: 'universeExplorer.goToKey',
  get failure() {
    return t`open the key`;
  },
  async run(ctx, node: unknown) {
    const store = asDataStore(node);
    const key = required(await ctx.ui.input({ title: t`Key in ${store.store.name}`, validateInput: nameRule('key') }));
    const scope = await scopeFor(ctx.ui, store);
    const address = { ...store.ref, scope, key };
    const found = await ctx.ui.progress(t`Opening ${key}…`, (signal) =>
      ctx.model.current(address, signal).catch(notFoundAs(undefined)),
    );
    if (!found) {
      if (store.readOnly) throw new Error(t`${describeEntry(address)} does not exist`);
      const create = t`Create`;
      const answer = await ctx.ui.warn(
        t`${describeEntry(address)} does not exist.`,
        { modal: true, detail: t`Create it with the value {} and open it to edit?` },
        create,
      );
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
