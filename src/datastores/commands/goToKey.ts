import vscode = require('vscode');
import { required } from '../../core/ui';
import { entryUri } from '../uris';
import type { DataStoresCommand } from './context';
import { asDataStore } from './nodes';
import { nameRule, scopeFor } from './prompts';

export const goToKey: DataStoresCommand = {
  id: 'universeExplorer.goToKey',
  failure: 'open the key',
  async run(ctx, node: unknown) {
    const store = asDataStore(node);
    const key = required(await ctx.ui.input({ title: `Key in ${store.store.name}`, validateInput: nameRule('key') }));
    const scope = await scopeFor(ctx.ui, store);
    const uri = entryUri({ ...store.ref, scope, key });
    await vscode.window.showTextDocument(uri, { preview: false });
    return uri;
  },
};
