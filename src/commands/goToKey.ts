import vscode = require('vscode');
import { entryUri } from '../fs/entryFileSystem';
import { required } from '../ui';
import type { CommandDef } from './context';
import { asDataStore } from './nodes';
import { nameRule, scopeFor } from './prompts';

export const goToKey: CommandDef = {
  id: 'universeExplorer.goToKey',
  failure: 'open the key',
  async run(ctx, node: unknown) {
    const store = asDataStore(node);
    const key = required(await ctx.ui.input({ title: `Key in ${store.store.name}`, validateInput: nameRule('key') }));
    const scope = await scopeFor(ctx.ui, store);
    const uri = entryUri({ connectionId: store.connectionId, universeId: store.universeId, datastoreName: store.store.name, scope, key });
    await vscode.window.showTextDocument(uri, { preview: false });
    return uri;
  },
};
