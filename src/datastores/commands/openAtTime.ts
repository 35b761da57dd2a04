// Open at Time… on a data store row: the store's keys (under its scope and prefix) as they were at a moment, shown
// under the row, each opening read-only with its version's time and the moment in the tab title. Close Time View
// (the × on that row) removes it.
import { t } from '../../core/text';
import { StoreAtTimeNode } from '../tree';
import type { DataStoresCommand } from './context';
import { askMoment } from './moment';
import { asStoreOrTime, filterText } from './nodes';

export const openAtTime: DataStoresCommand = {
  id: 'universeExplorer.openAtTime',
  get failure() {
    return t`open the data store at a time`;
  },
  async run(ctx, node: unknown) {
    const { store } = asStoreOrTime(node);
    const what = t`${store.store.name} (${filterText(ctx.model.lists.filter(store.ref))})`;
    const time = await askMoment(ctx.ui, { title: t`Open ${what} at a time` });
    ctx.timeMachine.setMoment(store.ref, time);
    const view = store.atTime;
    if (view) await ctx.reveal(view);
    return time;
  },
};

export const closeAtTime: DataStoresCommand = {
  id: 'universeExplorer.closeAtTime',
  get failure() {
    return t`close the time view`;
  },
  run(ctx, node: unknown) {
    if (!(node instanceof StoreAtTimeNode)) throw new Error(t`choose a time view ("As of …") in the Universes view`);
    ctx.timeMachine.setMoment(node.parent.ref, undefined);
    return Promise.resolve();
  },
};
