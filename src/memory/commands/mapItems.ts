// Sorted map item commands from the tree: New Item…, Edit Expiration and Sort Key…, Delete…, Copy Id.
import vscode = require('vscode');
import { EtagMismatchError, NotFoundError } from '../../api';
import { confirmProductionWrite } from '../../core/confirmWrite';
import { formatDuration } from '../../core/duration';
import { validator } from '../../core/prompts';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { describeItem, itemUri } from '../itemUris';
import { parseValue, secondsLeft, sortKeyText } from '../values';
import type { MemoryCommand } from './context';
import { askSortKey, askTtl, asItem, confirm, storeFrom } from './support';

const DEFAULT_TTL = '3600';

export const newMapItem: MemoryCommand = {
  id: 'universeExplorer.newMapItem',
  get failure() {
    return t`create the item`;
  },
  async run(ctx, node?: unknown) {
    const { u, name } = await storeFrom(ctx, node, 'sortedMap');
    const key = required(
      await ctx.ui.input({
        title: t`New Item in ${name}`,
        prompt: t`The item's id (its key in the map)`,
        validateInput: (v) => (v ? undefined : t`Enter an id.`),
      }),
    );
    const value = parseValue(
      required(
        await ctx.ui.input({
          title: t`Value of ${key}`,
          value: '{}',
          prompt: t`A JSON value (text in quotes: "hello")`,
          validateInput: validator(parseValue),
        }),
      ),
    );
    const ttlSeconds = await askTtl(ctx, t`Time to live of ${key}`, DEFAULT_TTL);
    const sortKey = await askSortKey(ctx, t`Sort key of ${key}`, '');
    const a = { ...u, mapName: name, key };
    await confirmProductionWrite(ctx.ui, u, t`Create ${describeItem(a)}?`, t`Create`);
    await ctx.ui.progress(t`Creating ${key}…`, () =>
      ctx.model.createItem(u, name, key, { value, sortKey, ttlSeconds }),
    );
    await vscode.window.showTextDocument(itemUri(a), { preview: false });
  },
};

/** Keeps the value; writes the new life and sort key, conditioned on the item as read just before. */
export const editMapItemExpiration: MemoryCommand = {
  id: 'universeExplorer.editMapItemExpiration',
  get failure() {
    return t`change the item's expiration and sort key`;
  },
  async run(ctx, node: unknown) {
    const n = asItem(node);
    const a = n.address;
    const item = await ctx.model.getItem(a, a.mapName, a.key);
    const left = Math.max(1, secondsLeft(item.expireTime, Date.now()) ?? Number(DEFAULT_TTL));
    const ttlSeconds = await askTtl(
      ctx,
      t`Time to live of ${a.key} (now ${formatDuration(left, 2)} left)`,
      String(left),
    );
    const sortKey = await askSortKey(ctx, t`Sort key of ${a.key}`, sortKeyText(item.sortKey));
    await confirmProductionWrite(ctx.ui, a, t`Change ${describeItem(a)}?`, t`Change`);
    try {
      await ctx.model.updateItem(a, a.mapName, a.key, { value: item.value, sortKey, ttlSeconds }, item.etag);
    } catch (error) {
      if (error instanceof EtagMismatchError || error instanceof NotFoundError)
        throw new Error(t`${describeItem(a)} changed or went while you chose; nothing was written: try again`, {
          cause: error,
        });
      throw error;
    }
  },
};

export const deleteMapItem: MemoryCommand = {
  id: 'universeExplorer.deleteMapItem',
  get failure() {
    return t`delete the item`;
  },
  async run(ctx, node: unknown) {
    const n = asItem(node);
    const a = n.address;
    await confirm(
      ctx,
      a,
      t`Delete ${describeItem(a)}?`,
      t`It is gone at once, for the game servers too; there is no way back.`,
      t`Delete`,
    );
    try {
      await ctx.model.deleteItem(a, a.mapName, a.key, n.mapItem.etag);
    } catch (error) {
      if (error instanceof EtagMismatchError)
        throw new Error(t`${describeItem(a)} changed since it was listed, so it was kept: refresh and look again`, {
          cause: error,
        });
      throw error;
    }
  },
};

export const copyMapItemId: MemoryCommand = {
  id: 'universeExplorer.copyMapItemId',
  get failure() {
    return t`copy the item id`;
  },
  run: (ctx, node: unknown) => ctx.ui.copy(asItem(node).mapItem.key),
};
