import { t } from '../../core/text';
import { required } from '../../core/ui';
import { demoUniverse } from '../demo';
import type { SandboxCommand } from './context';

/** More than the demo universe has, and within what List Data Stores takes. */
const STORES_LISTED = 100;

/** The sandbox's address and key, to curl or script against it from a terminal. */
export const copySandboxAddress: SandboxCommand = {
  id: 'universeExplorer.copySandboxAddress',
  get failure() {
    return t`copy the sandbox address and key`;
  },
  async run(ctx) {
    await ctx.sandbox.start();
    const address = ctx.sandbox.running;
    if (!address) throw new Error(t`the Local Sandbox did not start`);
    const { url, apiKey } = address;
    // Every store of the demo universe in one answer: List Data Stores sends one store and a cursor by default.
    // The address is quoted, as a shell would otherwise read its "?".
    const curl = `curl -H "x-api-key: ${apiKey}" "${url}/datastores/v1/universes/${demoUniverse.id}/standard-datastores?limit=${STORES_LISTED}"`;
    const picked = required(
      await ctx.ui.pick(
        [
          {
            label: t`Address and Key`,
            description: t`both, on two lines`,
            text: `${url}\nx-api-key: ${apiKey}`,
            copied: t`Copied the Local Sandbox's address and key.`,
          },
          { label: t`Address`, description: url, text: url, copied: t`Copied the Local Sandbox's address.` },
          {
            label: t`API Key`,
            description: t`the x-api-key header`,
            text: apiKey,
            copied: t`Copied the Local Sandbox's api key.`,
          },
          {
            label: t`curl Command`,
            description: t`lists the demo universe’s data stores`,
            text: curl,
            copied: t`Copied the Local Sandbox's curl command.`,
          },
        ],
        { title: t`Copy from the Local Sandbox` },
      ),
    );
    await ctx.ui.copy(picked.text);
    void ctx.ui.info(picked.copied);
    return picked.text;
  },
};
