// zod schemas for the cloud v2 data stores bodies (docs/SERVICE.md, "Cloud v2 differences"). Every field but `path`
// may be left out, as the service's documentation allows; the stricter schemas require only what the client reads.
// Users and attributes left out, or null, read as empty (U14).
import * as z from 'zod/mini';
import { AttributesSchema, optionalString, pageToken, preprocess } from './schemas';

/** `users/156` (or a bare 156) read as the number 156. */
const userId = () =>
  preprocess(
    (v) => (typeof v === 'string' && /^(users\/)?\d+$/.test(v) ? Number(v.replace('users/', '')) : v),
    z.int(),
  );

const users = () =>
  z.pipe(
    z.nullish(z.array(userId())),
    z.transform((v) => v ?? []),
  );

const attributes = () =>
  z.pipe(
    z.nullish(AttributesSchema),
    z.transform((v) => v ?? {}),
  );

/** Any JSON value, null included; only a missing one is refused. */
const jsonValue = () => z.custom<unknown>((v) => v !== undefined, 'expected a JSON value');

const entryFields = () => ({
  path: z.string(),
  id: optionalString(),
  createTime: optionalString(),
  revisionId: optionalString(),
  revisionCreateTime: optionalString(),
  /** `ACTIVE` or `DELETED`. */
  state: optionalString(),
  etag: optionalString(),
  value: z.optional(z.unknown()),
  users: users(),
  attributes: attributes(),
});

/** A DataStoreEntry as the service documents it: List Entries items carry only `path` and `id`. */
export const DataStoreEntrySchema = z.lazy(() => z.looseObject(entryFields()));

/** What Create, Get, Update and Increment answer: an entry with its value and revision. */
export const EntryBodySchema = z.lazy(() =>
  z.looseObject({ ...entryFields(), revisionId: z.string(), value: jsonValue() }),
);

/** A List Revisions item: no value, users or attributes. */
export const RevisionSchema = z.lazy(() =>
  z.looseObject({ ...entryFields(), revisionId: z.string(), revisionCreateTime: z.string() }),
);

export const DataStoreV2Schema = z.lazy(() =>
  z.looseObject({
    path: z.string(),
    id: optionalString(),
    createTime: optionalString(),
    /** `ACTIVE` or `DELETED`. */
    state: optionalString(),
    /** Only while deleted: when the store is purged. */
    expireTime: optionalString(),
  }),
);

/** An empty page may leave its array out (proto3 JSON). */
export const ListDataStoresV2Schema = z.lazy(() =>
  z.looseObject({ dataStores: z._default(z.array(DataStoreV2Schema), []), nextPageToken: pageToken() }),
);

export const ListEntriesV2Schema = z.lazy(() =>
  z.looseObject({ dataStoreEntries: z._default(z.array(DataStoreEntrySchema), []), nextPageToken: pageToken() }),
);

export const ListRevisionsSchema = z.lazy(() =>
  z.looseObject({ dataStoreEntries: z._default(z.array(RevisionSchema), []), nextPageToken: pageToken() }),
);

/** proto3 JSON may leave a false boolean out. */
export const SnapshotSchema = z.lazy(() =>
  z.looseObject({ newSnapshotTaken: z._default(z.boolean(), false), latestSnapshotTime: z.string() }),
);

export type EntryBody = z.output<typeof EntryBodySchema>;
export type DataStoreV2Body = z.output<typeof DataStoreV2Schema>;
