// Delete Data Store… and Undelete Data Store (cloud v2). Deleting asks for the store's name typed in full and says it
// can be undone for 30 days; the confirmation offers Undo. Deleted stores are listed while Show Deleted Stores is on.
import { askingWords, confirmProductionWrite } from '../../core/confirmWrite';
import { t } from '../../core/text';
import { localAndUtc } from '../../core/time';
import { confirmWrite } from '../../core/undo';
import { required } from '../../core/ui';
import { DataStoreNode } from '../tree';
import type { DataStoresCommand } from './context';
import { asStoreGroup, requireV2, writableStore } from './nodes';

const backText = (name: string): string => t`${name} is back, with all its entries.`;

export const deleteDataStore: DataStoresCommand = {
  id: 'universeExplorer.deleteDataStore',
  get failure() {
    return t`delete the data store`;
  },
  async run(ctx, node: unknown) {
    const store = writableStore(node);
    const { name } = store.store;
    requireV2(ctx.model, store.ref, t`Deleting a data store`);
    // The typed name is the question: in production it says so, and nothing more is asked.
    const words = askingWords(
      store.ref,
      t`Delete data store ${name}`,
      t`Type ${name} to delete it. Its entries can no longer be read or written; it can be undeleted for 30 days, then it is purged.`,
    );
    required(
      await ctx.ui.input({
        title: words.question,
        prompt: words.detail,
        validateInput: (text) => (text === name ? undefined : t`Type the store's name exactly: ${name}`),
      }),
    );
    const ref = store.ref;
    const deleted = await ctx.ui.progress(t`Deleting ${name}…`, (signal) => ctx.model.deleteStore(ref, signal));
    const until = deleted.expireTime ? localAndUtc(deleted.expireTime) : t`30 days from now`;
    confirmWrite(ctx.ui, t`Deleted data store ${name}. It can be undeleted until ${until}.`, {
      progress: t`Undeleting ${name}…`,
      run: (signal) => ctx.model.undeleteStore(ref, signal),
      done: backText(name),
      what: t`the deletion of ${name}`,
      otherwise: t`Run Show Deleted Stores on Data Stores, then Undelete Data Store on it.`,
    });
    return deleted;
  },
};

export const undeleteDataStore: DataStoresCommand = {
  id: 'universeExplorer.undeleteDataStore',
  get failure() {
    return t`undelete the data store`;
  },
  async run(ctx, node: unknown) {
    if (!(node instanceof DataStoreNode) || !node.deleted)
      throw new Error(t`choose a deleted data store in the Universes view (Show Deleted Stores lists them)`);
    const store = writableStore(node);
    const { name } = store.store;
    await confirmProductionWrite(ctx.ui, store.ref, t`Undelete data store ${name}?`, t`Undelete`);
    const undeleted = await ctx.ui.progress(t`Undeleting ${name}…`, (signal) =>
      ctx.model.undeleteStore(store.ref, signal),
    );
    void ctx.ui.info(backText(name));
    return undeleted;
  },
};

export const showDeletedStores: DataStoresCommand = {
  id: 'universeExplorer.showDeletedStores',
  get failure() {
    return t`show the deleted data stores`;
  },
  run(ctx, node: unknown) {
    const { ref } = asStoreGroup(node);
    requireV2(ctx.model, ref, t`Listing deleted data stores`);
    ctx.model.lists.setDeletedShown(ref, true);
    return Promise.resolve();
  },
};

export const hideDeletedStores: DataStoresCommand = {
  id: 'universeExplorer.hideDeletedStores',
  get failure() {
    return t`hide the deleted data stores`;
  },
  run(ctx, node: unknown) {
    ctx.model.lists.setDeletedShown(asStoreGroup(node).ref, false);
    return Promise.resolve();
  },
};
