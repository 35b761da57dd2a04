import vscode = require('vscode');
import { PreconditionFailedError } from '../../api';
import { confirmProductionWrite } from '../../core/confirmWrite';
import { validator } from '../../core/prompts';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { formatJson } from '../editor/json';
import { describeEntry } from '../editor/save';
import { entryUri } from '../editor/uris';
import type { DataStoresCommand } from './context';
import { writableStore } from './nodes';
import { nameRule, scopeFor } from './prompts';

export const newEntry: DataStoresCommand = {
  id: 'universeExplorer.newEntry',
  get failure() {
    return t`create the entry`;
  },
  async run(ctx, node: unknown) {
    const store = writableStore(node);
    const key = required(
      await ctx.ui.input({ title: t`New key in ${store.store.name}`, validateInput: nameRule('key') }),
    );
    const scope = await scopeFor(ctx.ui, store);
    const value = required(
      await ctx.ui.input({
        title: t`Value of ${key}`,
        value: '{}',
        prompt: t`JSON; you can edit it fully once it is open`,
        validateInput: validator(formatJson),
      }),
    );
    const address = { ...store.ref, scope, key };
    await confirmProductionWrite(ctx.ui, address, t`Create ${describeEntry(address)}?`, t`Create`);
    try {
      await ctx.ui.progress(t`Creating ${key} in ${store.store.name}…`, (signal) =>
        ctx.model.create(address, formatJson(value, 0), signal),
      );
    } catch (error) {
      if (error instanceof PreconditionFailedError) {
        throw new Error(t`"${key}" already exists in scope ${scope}; it was left unchanged`, { cause: error });
      }
      throw error;
    }
    const uri = entryUri(address);
    await vscode.window.showTextDocument(uri, { preview: false });
    return uri;
  },
};
