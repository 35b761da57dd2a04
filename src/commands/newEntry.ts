import * as vscode from 'vscode';
import { PreconditionFailedError } from '../api';
import { entryUri } from '../fs/entryFileSystem';
import { formatJson } from '../json';
import { allScopes } from '../tree/dataStoreNode';
import { required } from '../ui';
import type { CommandDef } from './context';
import { asDataStore, checkWritable } from './nodes';

const keyRule = (v: string) => (v && Buffer.byteLength(v) <= 50 ? undefined : 'A key has 1 to 50 bytes.');

export const newEntry: CommandDef = {
  id: 'universeExplorer.newEntry',
  failure: 'create the entry',
  async run(ctx, node: unknown) {
    const store = asDataStore(node);
    checkWritable(store.readOnly, store.universeId);
    const key = required(await ctx.ui.input({ title: `New key in ${store.store.name}`, validateInput: keyRule }));
    const scope =
      store.scope === allScopes ? required(await ctx.ui.input({ title: 'Scope', value: 'global', validateInput: keyRule })) : store.scope;
    const value = required(
      await ctx.ui.input({
        title: `Value of ${key}`,
        value: '{}',
        prompt: 'JSON; you can edit it fully once it is open',
        validateInput: (v) => {
          try {
            formatJson(v);
            return undefined;
          } catch (error) {
            return (error as Error).message;
          }
        },
      }),
    );
    const client = await ctx.connections.client(store.connectionId);
    try {
      await client.datastores.setEntry({
        universeId: store.universeId,
        datastoreName: store.store.name,
        scope,
        entryKey: key,
        raw: formatJson(value, 0),
        exclusiveCreate: true,
      });
    } catch (error) {
      if (error instanceof PreconditionFailedError) {
        throw new Error(`"${key}" already exists in scope ${scope}; it was left unchanged`);
      }
      throw error;
    }
    ctx.tree.refresh(store);
    const uri = entryUri({ connectionId: store.connectionId, universeId: store.universeId, datastoreName: store.store.name, scope, key });
    await vscode.window.showTextDocument(uri, { preview: false });
    return uri;
  },
};
