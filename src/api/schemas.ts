// zod schemas for every response the client reads. Liberal with unknown extra fields (loose objects), strict with
// the fields the client uses, and tolerant of both spellings the live service has used (docs/SERVICE.md, "Shapes where
// the spec and the service disagree"). zod/mini: the same checks as zod's chained API in functions that bundle only
// what is used (tens of KB instead of ~450 KB in the extension); the English messages name what was expected. Each
// schema is built on its first use (z.lazy): built all at once when the extension loaded, they took a quarter of its
// activation.
import { en } from 'zod/locales';
import * as z from 'zod/mini';

z.config(en());

/** A schema, as the transport and parsers take it. */
export type Schema = z.ZodMiniType;

/** zod's preprocess: `fn` runs on the input before `schema` checks it. */
export function preprocess<S extends z.ZodMiniType>(fn: (value: unknown) => unknown, schema: S) {
  return z.pipe(z.transform(fn), schema);
}

/** Accepts any JSON value (an entry's value). */
export type Headers = Record<string, string | string[] | undefined>;

/** A header's first value. */
export function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Ids sent as numbers or strings, always read as strings. */
const idString = () => preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string());

/** A page token: "", null and absent all mean the last page. */
export const pageToken = () =>
  z.pipe(
    z.nullish(z.string()),
    z.transform((v) => v || undefined),
  );

export const optionalString = () =>
  z.pipe(
    z.nullish(z.string()),
    z.transform((v) => v ?? undefined),
  );

/** `MODERATION_STATE_APPROVED` → `Approved`, `ASSET_TYPE_MESH_PART` → `MeshPart`; short forms pass through. */
export function shortEnumName(value: string): string {
  if (!/^[A-Z0-9]+(_[A-Z0-9]+)+$/.test(value)) return value;
  const rest = value.replace(/^(MODERATION_STATE|ASSET_TYPE|STATE|ASSET_STATE)_/, '');
  return rest
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}
const enumName = () => preprocess((v) => (typeof v === 'string' ? shortEnumName(v) : v), z.string());

/** A resource name read in its prefixed form (`users/156`) whether the service sent `156` or `users/156`. */
function resourceName(collection: string) {
  return preprocess((v) => {
    const s = typeof v === 'number' ? String(v) : v;
    return typeof s === 'string' && s !== '' && !s.includes('/') ? `${collection}/${s}` : s;
  }, z.string());
}

// ---- User restrictions (cloud v2) ----

const flag = () => z._default(z.boolean(), false);
const text = () => z._default(z.string(), '');

/** The fields a restriction and a log entry of its changes share. */
const restrictionFields = () => ({
  active: flag(),
  startTime: optionalString(),
  duration: optionalString(),
  privateReason: text(),
  displayReason: text(),
  excludeAltAccounts: flag(),
});

export const GameJoinRestrictionSchema = z.lazy(() => z.looseObject({ ...restrictionFields(), inherited: flag() }));

export const UserRestrictionSchema = z.lazy(() =>
  z.looseObject({
    path: z.string(),
    updateTime: optionalString(),
    user: resourceName('users'),
    gameJoinRestriction: GameJoinRestrictionSchema,
  }),
);

export const ListUserRestrictionsSchema = z.lazy(() =>
  z.looseObject({
    userRestrictions: z._default(z.array(UserRestrictionSchema), []),
    nextPageToken: pageToken(),
  }),
);

export const RestrictionLogSchema = z.lazy(() =>
  z.looseObject({
    /** `users/<id>` */
    user: resourceName('users'),
    /** `places/<id>`, or "" for a universe-level change. */
    place: z._default(resourceName('places'), ''),
    /** `platformUser` is `users/<id>`; a change made by a game server script has `gameServerScript` instead. */
    moderator: z._default(
      z.looseObject({
        platformUser: z.optional(resourceName('users')),
        gameServerScript: z.optional(z.looseObject({})),
      }),
      {},
    ),
    createTime: z.string(),
    ...restrictionFields(),
    restrictionType: z.optional(z.looseObject({})),
  }),
);

export const ListRestrictionLogsSchema = z.lazy(() =>
  z.looseObject({
    logs: z._default(z.array(RestrictionLogSchema), []),
    nextPageToken: pageToken(),
  }),
);

// ---- Standard data stores (v1) ----

export const DataStoreSchema = z.lazy(() => z.looseObject({ name: z.string(), createdTime: optionalString() }));

/** `datastores` per every client and the spec's example; the spec's field summary says `data`. */
export const ListDataStoresSchema = z.lazy(() =>
  preprocess(
    (v) => (isRecord(v) && v.datastores === undefined && v.data !== undefined ? { ...v, datastores: v.data } : v),
    z.looseObject({ datastores: z.array(DataStoreSchema), nextPageCursor: pageToken() }),
  ),
);

/** Keys are `{scope?, key}` objects; the spec's field summary says bare strings. */
const EntryKeySchema = z.lazy(() =>
  preprocess(
    (v) => (typeof v === 'string' ? { key: v } : v),
    z.looseObject({ scope: z.optional(z.string()), key: z.string() }),
  ),
);

export const ListEntriesSchema = z.lazy(() =>
  z.looseObject({ keys: z.array(EntryKeySchema), nextPageCursor: pageToken() }),
);

export const EntryVersionSchema = z.lazy(() =>
  z.looseObject({
    version: z.string(),
    deleted: flag(),
    contentLength: z.number(),
    createdTime: z.string(),
    objectCreatedTime: optionalString(),
  }),
);

export const ListEntryVersionsSchema = z.lazy(() =>
  z.looseObject({
    versions: z.array(EntryVersionSchema),
    nextPageCursor: pageToken(),
  }),
);

// ---- Assets (v1) ----

const CreationContextSchema = z.lazy(() =>
  z.looseObject({
    creator: z.looseObject({ userId: z.optional(idString()), groupId: z.optional(idString()) }),
    expectedPrice: z.optional(z.number()),
  }),
);

const ModerationResultSchema = z.lazy(() => z.looseObject({ moderationState: z.optional(enumName()) }));

export const AssetSchema = z.lazy(() =>
  z.looseObject({
    assetId: idString(),
    assetType: z.optional(enumName()),
    displayName: text(),
    description: text(),
    path: optionalString(),
    revisionId: z.optional(idString()),
    revisionCreateTime: optionalString(),
    creationContext: z.optional(CreationContextSchema),
    moderationResult: z.optional(ModerationResultSchema),
    state: z.optional(enumName()),
    icon: optionalString(),
    previews: z.optional(z.array(z.looseObject({ asset: z.string(), altText: z.optional(z.string()) }))),
  }),
);

export const AssetVersionSchema = z.lazy(() =>
  z.pipe(
    z.looseObject({
      path: z.string(),
      creationContext: z.optional(CreationContextSchema),
      moderationResult: z.optional(ModerationResultSchema),
      published: z.optional(z.boolean()),
    }),
    z.transform((v) => ({ ...v, versionNumber: v.path.split('/').pop() ?? '' })),
  ),
);

/** `{assetVersions, nextPageToken}` as clients read it (token also as `nextPageCursor`), or the bare array the spec shows. */
export const ListAssetVersionsSchema = z.lazy(() =>
  preprocess(
    (v) =>
      Array.isArray(v)
        ? { assetVersions: v }
        : isRecord(v) && v.nextPageToken === undefined && v.nextPageCursor !== undefined
          ? { ...v, nextPageToken: v.nextPageCursor }
          : v,
    z.looseObject({ assetVersions: z._default(z.array(AssetVersionSchema), []), nextPageToken: pageToken() }),
  ),
);

const StatusSchema = z.lazy(() =>
  z.looseObject({
    code: z.union([z.number(), z.string()]),
    message: text(),
    details: z.optional(z.array(z.unknown())),
  }),
);

export const OperationSchema = z.lazy(() =>
  z.pipe(
    z.looseObject({
      path: z.string(),
      operationId: z.optional(idString()),
      /** Missing means still running. */
      done: z.pipe(
        z.nullish(z.boolean()),
        z.transform((v) => v === true),
      ),
      response: z.optional(AssetSchema),
      error: z.optional(StatusSchema),
    }),
    z.transform((op) => ({ ...op, operationId: op.operationId ?? op.path.split('/').pop() ?? '' })),
  ),
);

/** An Asset read for a known id: an answer limited by readMask, or an update's bare fields, may leave assetId out. */
export function assetSchemaFor(assetId: string) {
  return preprocess((v) => (isRecord(v) && v.assetId === undefined ? { ...v, assetId } : v), AssetSchema);
}

/**
 * Update Asset answers with an Operation, or (for some metadata updates) with the updated fields directly;
 * the latter is read as an Operation that is already done.
 */
export function updateAssetResultSchema(assetId: string) {
  return preprocess(
    (v) =>
      isRecord(v) && !('done' in v) && !(typeof v.path === 'string' && v.path.startsWith('operations/'))
        ? { path: '', done: true, response: { assetId, ...v } }
        : v,
    OperationSchema,
  );
}

export type GameJoinRestriction = z.output<typeof GameJoinRestrictionSchema>;
export type UserRestriction = z.output<typeof UserRestrictionSchema>;
export type RestrictionLog = z.output<typeof RestrictionLogSchema>;
export type DataStore = z.output<typeof DataStoreSchema>;
export type EntryVersion = z.output<typeof EntryVersionSchema>;
export type Asset = z.output<typeof AssetSchema>;
export type AssetVersion = z.output<typeof AssetVersionSchema>;
export type Operation = z.output<typeof OperationSchema>;
export type OperationStatus = z.output<typeof StatusSchema>;

/** Metadata of a data store entry, read from the `<prefix>-entry-*` headers. */
export interface EntryMetadata {
  version: string;
  createdTime?: string;
  versionCreatedTime?: string;
  attributes: Record<string, unknown>;
  userIds: number[];
  contentMd5?: string;
}

// ---- Parsing ----

export const AttributesSchema = z.lazy(() => z.record(z.string(), z.unknown()));
/** User ids are whole numbers a double holds exactly: `1e400` (read as Infinity) or 2^53 would not survive a write back. */
export const isUserIdArray = (v: unknown): boolean => Array.isArray(v) && v.every((n) => Number.isSafeInteger(n));
export const UserIdsSchema = z.lazy(() =>
  z.array(preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v), z.int())),
);
