import { required } from '../../core/ui';
import { demoUniverse } from '../sandbox';
import type { SandboxCommand } from './context';

/** The sandbox's address and key, to curl or script against it from a terminal. */
export const copySandboxAddress: SandboxCommand = {
  id: 'universeExplorer.copySandboxAddress',
  failure: 'copy the sandbox address and key',
  async run(ctx) {
    await ctx.sandbox.start();
    const address = ctx.sandbox.running;
    if (!address) throw new Error('the Local Sandbox did not start');
    const { url, apiKey } = address;
    const curl = `curl -H "x-api-key: ${apiKey}" ${url}/datastores/v1/universes/${demoUniverse.id}/standard-datastores`;
    const picked = required(
      await ctx.ui.pick(
        [
          { label: 'Address and Key', description: 'both, on two lines', text: `${url}\nx-api-key: ${apiKey}` },
          { label: 'Address', description: url, text: url },
          { label: 'API Key', description: 'the x-api-key header', text: apiKey },
          { label: 'curl Command', description: 'lists the demo universe’s data stores', text: curl },
        ],
        { title: 'Copy from the Local Sandbox' },
      ),
    );
    await ctx.ui.copy(picked.text);
    void ctx.ui.info(`Copied the Local Sandbox's ${picked.label.toLowerCase()}.`);
    return picked.text;
  },
};
