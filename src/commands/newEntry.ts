import vscode = require('vscode');
import { PreconditionFailedError } from '../api';
import { entryUri } from '../fs/entryFileSystem';
import { formatJson } from '../json';
import { required } from '../ui';
import type { CommandDef } from './context';
import { writableStore } from './nodes';
import { nameRule, scopeFor, validator } from './prompts';

export const newEntry: CommandDef = {
  id: 'universeExplorer.newEntry',
  failure: 'create the entry',
  async run(ctx, node: unknown) {
    const store = writableStore(node);
    const key = required(await ctx.ui.input({ title: `New key in ${store.store.name}`, validateInput: nameRule('key') }));
    const scope = await scopeFor(ctx.ui, store);
    const value = required(
      await ctx.ui.input({
        title: `Value of ${key}`,
        value: '{}',
        prompt: 'JSON; you can edit it fully once it is open',
        validateInput: validator(formatJson),
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
