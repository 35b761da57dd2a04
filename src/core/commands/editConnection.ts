import { askApiKey, askBaseUrl, askDataStoresApi, askName, askPrefix, askUniverses } from '../prompts';
import { t } from '../text';
import { required } from '../ui';
import { connectionOf } from './connectionOf';
import type { CoreCommand } from './context';

type Field = 'name' | 'baseUrl' | 'apiKey' | 'prefix' | 'universes' | 'datastoresApi';

export const editConnection: CoreCommand = {
  id: 'universeExplorer.editConnection',
  get failure() {
    return t`edit the connection`;
  },
  async run(ctx, node?: unknown) {
    const connection = { ...(await connectionOf(ctx, node, true)) };
    const fields: { label: string; detail: string; field: Field }[] = [
      { label: t`Name`, detail: connection.name, field: 'name' },
      { label: t`Base URL`, detail: connection.baseUrl, field: 'baseUrl' },
      { label: t`API Key`, detail: t`Replace the stored key`, field: 'apiKey' },
      { label: t`Entry Header Prefix`, detail: connection.entryHeaderPrefix, field: 'prefix' },
      { label: t`Universes`, detail: connection.universes.map((u) => u.id).join(', ') || t`none`, field: 'universes' },
      {
        label: t`Data Stores API`,
        detail: connection.datastoresApi === 'v2' ? t`Cloud v2` : t`v1 (legacy)`,
        field: 'datastoresApi',
      },
    ];
    const { field } = required(await ctx.ui.pick(fields, { title: t`Edit ${connection.name}` }));
    let apiKey: string | undefined;
    if (field === 'name') connection.name = await askName(ctx.ui, connection.name);
    if (field === 'baseUrl') connection.baseUrl = await askBaseUrl(ctx.ui, connection.baseUrl);
    if (field === 'apiKey') apiKey = await askApiKey(ctx.ui);
    if (field === 'prefix') connection.entryHeaderPrefix = await askPrefix(ctx.ui, connection.entryHeaderPrefix);
    if (field === 'universes') connection.universes = await askUniverses(ctx.ui, connection.universes);
    if (field === 'datastoresApi')
      connection.datastoresApi = await askDataStoresApi(ctx.ui, connection.datastoresApi ?? 'v1');
    await ctx.connections.update(connection, apiKey);
    return connection;
  },
};
