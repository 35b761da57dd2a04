import { required } from '../ui';
import type { CommandDef } from './context';
import { writableEntry } from './nodes';

export const incrementEntry: CommandDef = {
  id: 'universeExplorer.incrementEntry',
  failure: 'increment the entry',
  async run(ctx, node: unknown) {
    const entry = writableEntry(node);
    const by = required(
      await ctx.ui.input({
        title: `Increment ${entry.entry.key} by`,
        value: '1',
        validateInput: (v) => (/^-?\d{1,18}$/.test(v.trim()) ? undefined : 'Enter a whole number, e.g. 5 or -2.'),
      }),
    );
    const client = await ctx.connections.client(entry.parent.connectionId);
    // Increment clears attributes and user ids that are not sent: resend the current ones.
    const current = await client.datastores.getEntry(entry.request);
    const result = await client.datastores.incrementEntry({
      ...entry.request,
      incrementBy: Number(by.trim()),
      attributes: current.attributes,
      userIds: current.userIds,
    });
    await ctx.entries.reload(entry.uri).catch(() => undefined);
    ctx.tree.refresh(entry);
    void ctx.ui.info(`${entry.entry.key} is now ${JSON.stringify(result.value)}.`);
    return result.value;
  },
};
