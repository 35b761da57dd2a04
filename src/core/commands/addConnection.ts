import { askApiKey, askBaseUrl, askName, askPrefix, askUniverses } from '../prompts';
import { t } from '../text';
import { stepDone } from '../walkthrough';
import type { CoreCommand } from './context';

export const addConnection: CoreCommand = {
  id: 'universeExplorer.addConnection',
  get failure() {
    return t`add the connection`;
  },
  async run(ctx) {
    const name = await askName(ctx.ui);
    const baseUrl = await askBaseUrl(ctx.ui);
    const apiKey = await askApiKey(ctx.ui);
    const entryHeaderPrefix = await askPrefix(ctx.ui);
    const universes = await askUniverses(ctx.ui);
    // New connections speak cloud v2 data stores; Edit Connection can switch one to v1.
    const connection = await ctx.connections.add(
      { name, baseUrl, entryHeaderPrefix, universes, datastoresApi: 'v2' },
      apiKey,
    );
    ctx.log.info(`Added connection "${name}" (${baseUrl})`);
    stepDone('connectionAdded');
    return connection;
  },
};
