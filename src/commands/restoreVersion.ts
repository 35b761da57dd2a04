import type { CommandDef } from './context';
import { asVersion, writableEntry } from './nodes';

export const restoreVersion: CommandDef = {
  id: 'universeExplorer.restoreVersion',
  failure: 'restore the version',
  async run(ctx, node: unknown) {
    const v = asVersion(node);
    const entry = writableEntry(v.parent);
    const answer = await ctx.ui.warn(
      `Restore "${entry.entry.key}" to the version of ${v.version.createdTime}?`,
      { modal: true, detail: 'Its value, attributes and user ids are written as a new version; the history is kept.' },
      'Restore',
    );
    if (answer !== 'Restore') return undefined;
    const client = await ctx.connections.client(entry.parent.connectionId);
    const old = await client.datastores.getEntryVersion({ ...entry.request, versionId: v.version.version });
    // Conditioned on the current version: a change made meanwhile is reported, not overwritten.
    const current = await client.datastores.getEntry(entry.request).catch(() => undefined);
    const written = await client.datastores.setEntry({
      ...entry.request,
      raw: old.raw,
      attributes: old.attributes,
      userIds: old.userIds,
      ...(current ? { matchVersion: current.version } : { exclusiveCreate: true }),
    });
    await ctx.entries.reload(entry.uri).catch(() => undefined);
    ctx.tree.refresh(entry);
    return written;
  },
};
