import * as vscode from 'vscode';
import { entryUri } from '../fs/entryFileSystem';
import { allScopes } from '../tree/dataStoreNode';
import { required } from '../ui';
import type { CommandDef } from './context';
import { asDataStore } from './nodes';

const keyRule = (v: string) => (v && Buffer.byteLength(v) <= 50 ? undefined : 'A key has 1 to 50 bytes.');

export const goToKey: CommandDef = {
  id: 'universeExplorer.goToKey',
  failure: 'open the key',
  async run(ctx, node: unknown) {
    const store = asDataStore(node);
    const key = required(await ctx.ui.input({ title: `Key in ${store.store.name}`, validateInput: keyRule }));
    const scope =
      store.scope === allScopes
        ? required(await ctx.ui.input({ title: 'Scope', value: 'global', validateInput: keyRule }))
        : store.scope;
    const uri = entryUri({ connectionId: store.connectionId, universeId: store.universeId, datastoreName: store.store.name, scope, key });
    await vscode.window.showTextDocument(uri, { preview: false });
    return uri;
  },
};
