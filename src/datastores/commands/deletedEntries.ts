// Show Deleted Entries and Hide Deleted Entries on a data store row (cloud v2, which lists deleted keys only when
// asked; v1 lists them always). Shown, they are marked deleted, and Undelete Entry brings one back.
import { t } from '../../core/text';
import type { DataStoresCommand } from './context';
import { asDataStore, writableStore } from './nodes';

export const showDeletedEntries: DataStoresCommand = {
  id: 'universeExplorer.showDeletedEntries',
  get failure() {
    return t`show the deleted entries`;
  },
  run(ctx, node: unknown) {
    const store = writableStore(node);
    const { name } = store.store;
    if (store.deleted) throw new Error(t`${name} is deleted: undelete it first`);
    if (ctx.model.apiVersion(store.ref) !== 'v2')
      throw new Error(t`${name} is read through v1, which lists deleted entries always (marked deleted)`);
    ctx.model.lists.setDeletedEntriesShown(store.ref, true);
    return Promise.resolve();
  },
};

export const hideDeletedEntries: DataStoresCommand = {
  id: 'universeExplorer.hideDeletedEntries',
  get failure() {
    return t`hide the deleted entries`;
  },
  run(ctx, node: unknown) {
    ctx.model.lists.setDeletedEntriesShown(asDataStore(node).ref, false);
    return Promise.resolve();
  },
};
