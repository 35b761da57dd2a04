import { askApiKey, askBaseUrl, askName, askPrefix, askUniverses } from '../prompts';
import { required } from '../ui';
import { connectionOf } from './connectionOf';
import type { CoreCommand } from './context';

export const editConnection: CoreCommand = {
  id: 'universeExplorer.editConnection',
  failure: 'edit the connection',
  async run(ctx, node?: unknown) {
    const connection = { ...(await connectionOf(ctx, node, true)) };
    const field = required(
      await ctx.ui.pick(
        [
          { label: 'Name', detail: connection.name },
          { label: 'Base URL', detail: connection.baseUrl },
          { label: 'API Key', detail: 'Replace the stored key' },
          { label: 'Entry Header Prefix', detail: connection.entryHeaderPrefix },
          { label: 'Universes', detail: connection.universes.map((u) => u.id).join(', ') || 'none' },
        ],
        { title: `Edit ${connection.name}` },
      ),
    ).label;
    let apiKey: string | undefined;
    if (field === 'Name') connection.name = await askName(ctx.ui, connection.name);
    if (field === 'Base URL') connection.baseUrl = await askBaseUrl(ctx.ui, connection.baseUrl);
    if (field === 'API Key') apiKey = await askApiKey(ctx.ui);
    if (field === 'Entry Header Prefix')
      connection.entryHeaderPrefix = await askPrefix(ctx.ui, connection.entryHeaderPrefix);
    if (field === 'Universes') connection.universes = await askUniverses(ctx.ui, connection.universes);
    await ctx.connections.update(connection, apiKey);
    return connection;
  },
};
