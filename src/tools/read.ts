// The tools that read data stores and assets: stores, keys, an entry (now or at a time), its versions, an asset.
import * as z from 'zod/mini';
import { entryAt, NotFoundError, type Entry, type OpenApiClient } from '../api';
import {
  about,
  cut,
  keyField,
  limitField,
  momentOf,
  named,
  scopeField,
  storeField,
  timeField,
  tool,
  ToolError,
  universeField,
  type Tool,
} from './types';

/** JSON text of a value longer than this is given cut, as text. */
const MAX_VALUE_CHARS = 20_000;

const cursorField = about(z.optional(z.string()), 'where to go on: the cursor a previous call returned');

/** Refuses a store the universe does not have (a typo would otherwise read as an empty store). */
export async function requireStore(client: OpenApiClient, universe: string, store: string, signal: AbortSignal) {
  for await (const s of client.datastores.listDataStores({ universeId: universe, prefix: store }, { signal })) {
    if (s.name === store) return;
  }
  throw new ToolError(
    `universe ${universe} has no data store named ${JSON.stringify(store)}: check the name (case-sensitive) with list_stores`,
  );
}

/** An entry's value as a result shows it: the JSON value, or its text (cut when long, or when not JSON). */
export function valueOf(entry: { raw: Buffer; json: boolean; value?: unknown }): Record<string, unknown> {
  const text = entry.raw.toString('utf8');
  if (entry.json && text.length <= MAX_VALUE_CHARS) return { value: entry.value ?? JSON.parse(text) };
  return {
    valueText: cut(text, MAX_VALUE_CHARS),
    ...(entry.json ? {} : { notJson: true }),
    ...(text.length > MAX_VALUE_CHARS ? { valueCut: true } : {}),
  };
}

const entryJson = (e: Entry) => ({
  version: e.version,
  createdTime: e.createdTime,
  updatedTime: e.versionCreatedTime,
  bytes: e.raw.length,
  attributes: e.attributes,
  userIds: e.userIds,
  ...valueOf(e),
});

const listStores = tool({
  name: 'list_stores',
  title: 'List data stores',
  description:
    "Lists a universe's standard data stores by name (with a name prefix), a page at a time. Use it first to find " +
    'the store names the other tools take. Reads only.',
  kind: 'read',
  input: z.object({
    universe: universeField,
    prefix: about(z.optional(z.string()), 'only stores whose name starts with this'),
    limit: limitField(100, 1000),
    cursor: cursorField,
  }),
  async run({ universe, prefix, limit = 100, cursor }, ctx) {
    const client = await ctx.client(universe);
    return named(`cannot list the data stores of universe ${universe}`, async () => {
      const stores: { name: string; createdTime?: string }[] = [];
      let next = cursor;
      do {
        const page = await client.datastores.listDataStores(
          { universeId: universe, prefix, limit: Math.min(100, limit - stores.length), cursor: next },
          { signal: ctx.signal },
        );
        stores.push(...page.items.map((s) => ({ name: s.name, createdTime: s.createdTime })));
        next = page.next;
      } while (next && stores.length < limit);
      return { universe, stores, ...(next ? { cursor: next } : {}) };
    });
  },
});

const listEntries = tool({
  name: 'list_entries',
  title: 'List entry keys',
  description:
    "Lists a data store's keys in one scope (or all scopes), optionally those starting with a prefix, a page at a " +
    'time: the keys only, no values (get_entry reads one). A returned cursor means more keys follow. Reads only.',
  kind: 'read',
  input: z.object({
    universe: universeField,
    store: storeField,
    scope: scopeField,
    allScopes: about(z.optional(z.boolean()), 'every scope instead of one'),
    prefix: about(z.optional(z.string()), 'only keys that start with this'),
    limit: limitField(100, 1000),
    cursor: cursorField,
  }),
  async run({ universe, store, scope, allScopes, prefix, limit = 100, cursor }, ctx) {
    if (allScopes && scope !== undefined) throw new ToolError('scope and allScopes go apart: give one of them');
    const client = await ctx.client(universe);
    const where = `${store} (${allScopes ? 'all scopes' : `scope ${scope ?? 'global'}`}) of universe ${universe}`;
    return named(`cannot list the keys of ${where}`, async () => {
      if (cursor === undefined) await requireStore(client, universe, store, ctx.signal);
      const keys: { scope: string; key: string }[] = [];
      let next = cursor;
      do {
        const page = await client.datastores.listEntries(
          {
            universeId: universe,
            datastoreName: store,
            scope: allScopes ? undefined : (scope ?? 'global'),
            allScopes,
            prefix,
            limit: Math.min(100, limit - keys.length),
            cursor: next,
          },
          { signal: ctx.signal },
        );
        keys.push(...page.items);
        next = page.next;
      } while (next && keys.length < limit);
      return {
        universe,
        store,
        ...(allScopes ? { allScopes: true, keys } : { scope: scope ?? 'global', keys: keys.map((k) => k.key) }),
        ...(next ? { cursor: next } : {}),
      };
    });
  },
});

const getEntry = tool({
  name: 'get_entry',
  title: 'Read an entry',
  description:
    "Reads one entry's value, attributes, user ids and version, as it is now or as it was at a time (the version " +
    'in effect then). Values over 20,000 characters come cut, as text. Reads only.',
  kind: 'read',
  input: z.object({
    universe: universeField,
    store: storeField,
    scope: scopeField,
    key: keyField,
    at: about(z.optional(timeField('the time')), 'read the entry as it was then (default: now)'),
  }),
  async run({ universe, store, scope = 'global', key, at }, ctx) {
    const time = at === undefined ? undefined : momentOf(at, 'at');
    const client = await ctx.client(universe);
    const what = `${JSON.stringify(key)} (${store}, scope ${scope}) of universe ${universe}`;
    return named(`cannot read ${what}`, async () => {
      const address = { universe, store, scope, key, ...(time ? { at: time.toISOString() } : {}) };
      if (time) {
        const then = await entryAt(client, { universeId: universe, datastoreName: store, scope, key }, time, {
          signal: ctx.signal,
        });
        if (!then) return { ...address, exists: false, note: 'no entry then (not yet written, or deleted)' };
        return { ...address, exists: true, ...entryJson(then) };
      }
      try {
        const entry = await client.datastores.getEntry(
          { universeId: universe, datastoreName: store, scope, entryKey: key },
          { signal: ctx.signal },
        );
        return { ...address, exists: true, ...entryJson(entry) };
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        await requireStore(client, universe, store, ctx.signal);
        return { ...address, exists: false, note: 'no live entry (never written, or deleted)' };
      }
    });
  },
});

const listVersions = tool({
  name: 'list_versions',
  title: 'List entry versions',
  description:
    "Lists an entry's versions, newest first (a deletion is a version too): its version id, size and when it was " +
    'written. The service keeps superseded versions 30 days, and of an hour with several writes only the last. ' +
    'get_entry with `at` reads one. Reads only.',
  kind: 'read',
  input: z.object({
    universe: universeField,
    store: storeField,
    scope: scopeField,
    key: keyField,
    before: about(z.optional(timeField('the time')), 'only versions written at or before this time'),
    limit: limitField(20, 100),
    cursor: cursorField,
  }),
  async run({ universe, store, scope = 'global', key, before, limit = 20, cursor }, ctx) {
    const endTime = before === undefined ? undefined : momentOf(before, 'before').toISOString();
    const client = await ctx.client(universe);
    return named(`cannot list the versions of ${JSON.stringify(key)} (${store}, scope ${scope})`, async () => {
      const page = await client.datastores.listEntryVersions(
        {
          universeId: universe,
          datastoreName: store,
          scope,
          entryKey: key,
          endTime,
          sortOrder: 'Descending',
          limit,
          cursor,
        },
        { signal: ctx.signal },
      );
      const versions = page.items.slice(0, limit).map((v) => ({
        version: v.version,
        deleted: v.deleted,
        bytes: v.contentLength,
        createdTime: v.createdTime,
      }));
      return { universe, store, scope, key, versions, ...(page.next ? { cursor: page.next } : {}) };
    });
  },
});

const getAsset = tool({
  name: 'get_asset',
  title: 'Read an asset',
  description:
    "Reads an asset's details (type, name, description, state, moderation, revision, creator) and its newest " +
    'versions. Assets belong to a user or group, not a universe. Reads only.',
  kind: 'read',
  input: z.object({
    asset: about(z.string().check(z.regex(/^\d{1,19}$/)), 'the asset id (digits)'),
    versions: about(
      z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(50))),
      'versions to list at most (default 5)',
    ),
  }),
  async run({ asset, versions = 5 }, ctx) {
    const client = await ctx.client();
    return named(`cannot read asset ${asset}`, async () => {
      const a = await client.assets.get({ assetId: asset }, { signal: ctx.signal });
      const creator = a.creationContext?.creator;
      const listed = versions
        ? (await client.assets.listVersions({ assetId: asset, maxPageSize: versions }, { signal: ctx.signal })).items
        : [];
      return {
        asset: a.assetId,
        type: a.assetType,
        displayName: a.displayName,
        description: cut(a.description, 2000),
        state: a.state,
        moderationState: a.moderationResult?.moderationState,
        revisionId: a.revisionId,
        revisionCreateTime: a.revisionCreateTime,
        creator: creator?.userId ? { user: creator.userId } : creator?.groupId ? { group: creator.groupId } : undefined,
        versions: listed.slice(0, versions).map((v) => ({
          version: v.versionNumber,
          published: v.published,
          moderationState: v.moderationResult?.moderationState,
        })),
      };
    });
  },
});

export const READ_TOOLS: Tool[] = [listStores, listEntries, getEntry, listVersions, getAsset];
