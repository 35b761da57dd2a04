// What a test wrote to an entry and reads back to compare: the exact text, attributes and user ids.
import type { EntryArgs, OpenApiClient } from '../../../src/api';

export interface Written {
  raw: string;
  attributes: Record<string, unknown>;
  userIds: number[];
}

export const W = (raw: string, userIds: number[] = [], attributes: Record<string, unknown> = {}): Written => ({
  raw,
  attributes,
  userIds,
});

/** What an entry holds now, as written; undefined when it has no live entry. */
export async function readWritten(client: OpenApiClient, args: EntryArgs): Promise<Written | undefined> {
  try {
    const e = await client.datastores.getEntry(args);
    return { raw: e.raw.toString(), attributes: e.attributes, userIds: e.userIds };
  } catch (error) {
    if ((error as Error).name === 'NotFoundError') return undefined;
    throw error;
  }
}
