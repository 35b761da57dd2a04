// zod schemas for every response the client reads. Liberal with unknown extra fields (loose objects), strict with
// the fields the client uses, and tolerant of both spellings the live service has used (reference §4.1, §5).
import { z } from 'zod';
import { ResponseShapeError } from './errors';

export type Headers = Record<string, string | string[] | undefined>;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Ids sent as numbers or strings, always read as strings. */
const idString = z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string());

/** A page token: "", null and absent all mean the last page. */
const pageToken = z
  .string()
  .nullish()
  .transform((v) => v || undefined);

const optionalString = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);

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
const enumName = z.preprocess((v) => (typeof v === 'string' ? shortEnumName(v) : v), z.string());

/** A resource name read in its prefixed form (`users/156`) whether the service sent `156` or `users/156`. */
function resourceName(collection: string) {
  return z.preprocess((v) => {
    const s = typeof v === 'number' ? String(v) : v;
    return typeof s === 'string' && s !== '' && !s.includes('/') ? `${collection}/${s}` : s;
  }, z.string());
}

// ---- User restrictions (cloud v2) ----

export const GameJoinRestrictionSchema = z.looseObject({
  active: z.boolean().default(false),
  startTime: optionalString,
  duration: optionalString,
  privateReason: z.string().default(''),
  displayReason: z.string().default(''),
  excludeAltAccounts: z.boolean().default(false),
  inherited: z.boolean().default(false),
});

export const UserRestrictionSchema = z.looseObject({
  path: z.string(),
  updateTime: optionalString,
  user: resourceName('users'),
  gameJoinRestriction: GameJoinRestrictionSchema,
});

export const ListUserRestrictionsSchema = z.looseObject({
  userRestrictions: z.array(UserRestrictionSchema).default([]),
  nextPageToken: pageToken,
});

export const RestrictionLogSchema = z.looseObject({
  /** `users/<id>` */
  user: resourceName('users'),
  /** `places/<id>`, or "" for a universe-level change. */
  place: resourceName('places').default(''),
  /** `platformUser` is `users/<id>`; a change made by a game server script has `gameServerScript` instead. */
  moderator: z
    .looseObject({ platformUser: resourceName('users').optional(), gameServerScript: z.looseObject({}).optional() })
    .default({}),
  createTime: z.string(),
  active: z.boolean().default(false),
  startTime: optionalString,
  duration: optionalString,
  privateReason: z.string().default(''),
  displayReason: z.string().default(''),
  excludeAltAccounts: z.boolean().default(false),
  restrictionType: z.looseObject({}).optional(),
});

export const ListRestrictionLogsSchema = z.looseObject({
  logs: z.array(RestrictionLogSchema).default([]),
  nextPageToken: pageToken,
});

// ---- Standard data stores (v1) ----

export const DataStoreSchema = z.looseObject({ name: z.string(), createdTime: optionalString });

/** `datastores` per every client and the spec's example; the spec's field summary says `data`. */
export const ListDataStoresSchema = z.preprocess(
  (v) => (isRecord(v) && v.datastores === undefined && v.data !== undefined ? { ...v, datastores: v.data } : v),
  z.looseObject({ datastores: z.array(DataStoreSchema), nextPageCursor: pageToken }),
);

/** Keys are `{scope?, key}` objects; the spec's field summary says bare strings. */
const EntryKeySchema = z.preprocess(
  (v) => (typeof v === 'string' ? { key: v } : v),
  z.looseObject({ scope: z.string().optional(), key: z.string() }),
);

export const ListEntriesSchema = z.looseObject({ keys: z.array(EntryKeySchema), nextPageCursor: pageToken });

export const EntryVersionSchema = z.looseObject({
  version: z.string(),
  deleted: z.boolean().default(false),
  contentLength: z.number(),
  createdTime: z.string(),
  objectCreatedTime: optionalString,
});

export const ListEntryVersionsSchema = z.looseObject({
  versions: z.array(EntryVersionSchema),
  nextPageCursor: pageToken,
});

// ---- Assets (v1) ----

const CreationContextSchema = z.looseObject({
  creator: z.looseObject({ userId: idString.optional(), groupId: idString.optional() }),
  expectedPrice: z.number().optional(),
});

const ModerationResultSchema = z.looseObject({ moderationState: enumName.optional() });

export const AssetSchema = z.looseObject({
  assetId: idString,
  assetType: enumName.optional(),
  displayName: z.string().default(''),
  description: z.string().default(''),
  path: optionalString,
  revisionId: idString.optional(),
  revisionCreateTime: optionalString,
  creationContext: CreationContextSchema.optional(),
  moderationResult: ModerationResultSchema.optional(),
  state: enumName.optional(),
  icon: optionalString,
  previews: z.array(z.looseObject({ asset: z.string(), altText: z.string().optional() })).optional(),
});

export const AssetVersionSchema = z
  .looseObject({
    path: z.string(),
    creationContext: CreationContextSchema.optional(),
    moderationResult: ModerationResultSchema.optional(),
    published: z.boolean().optional(),
  })
  .transform((v) => ({ ...v, versionNumber: v.path.split('/').pop() ?? '' }));

/** `{assetVersions, nextPageToken}` as clients read it (token also as `nextPageCursor`), or the bare array the spec shows. */
export const ListAssetVersionsSchema = z.preprocess(
  (v) =>
    Array.isArray(v)
      ? { assetVersions: v }
      : isRecord(v) && v.nextPageToken === undefined && v.nextPageCursor !== undefined
        ? { ...v, nextPageToken: v.nextPageCursor }
        : v,
  z.looseObject({ assetVersions: z.array(AssetVersionSchema).default([]), nextPageToken: pageToken }),
);

const StatusSchema = z.looseObject({
  code: z.union([z.number(), z.string()]),
  message: z.string().default(''),
  details: z.array(z.unknown()).optional(),
});

export const OperationSchema = z
  .looseObject({
    path: z.string(),
    operationId: idString.optional(),
    /** Missing means still running. */
    done: z
      .boolean()
      .nullish()
      .transform((v) => v === true),
    response: AssetSchema.optional(),
    error: StatusSchema.optional(),
  })
  .transform((op) => ({ ...op, operationId: op.operationId ?? op.path.split('/').pop() ?? '' }));

/** An Asset read for a known id: an answer limited by readMask, or an update's bare fields, may leave assetId out. */
export function assetSchemaFor(assetId: string) {
  return z.preprocess((v) => (isRecord(v) && v.assetId === undefined ? { ...v, assetId } : v), AssetSchema);
}

/**
 * Update Asset answers with an Operation, or (for some metadata updates) with the updated fields directly;
 * the latter is read as an Operation that is already done.
 */
export function updateAssetResultSchema(assetId: string) {
  return z.preprocess(
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

function formatPath(path: readonly PropertyKey[], root: string): string {
  return path.reduce<string>(
    (acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)),
    root,
  );
}

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_union') {
    const expected = issue.errors.map((e) => e[0]).filter((e) => e?.code === 'invalid_type');
    if (expected.length) return `expected ${expected.map((e) => (e as { expected: string }).expected).join(' or ')}`;
  }
  return issue.message.replace(/^Invalid input: /, '');
}

/** Parses `value` with `schema`; a mismatch becomes a ResponseShapeError naming the first bad field. */
export function parseShape<S extends z.ZodType>(schema: S, value: unknown, where: string, root = ''): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = formatPath(issue.path, root) || '(body)';
  throw new ResponseShapeError(`Unexpected response from ${where}: ${field}: ${describe(issue)}`, field);
}

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  // Header bytes arrive as latin1; JSON in them may be UTF-8.
  return s !== undefined && /[\x80-\xff]/.test(s) ? Buffer.from(s, 'latin1').toString('utf8') : s;
}

function jsonHeader<S extends z.ZodType>(headers: Headers, name: string, schema: S, absent: z.output<S>): z.output<S> {
  const text = header(headers, name);
  if (text === undefined || text === '') return absent;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ResponseShapeError(`Unexpected response: header ${name}: not valid JSON`, `header ${name}`);
  }
  return parseShape(schema, value, 'response', `header ${name}`);
}

const AttributesSchema = z.record(z.string(), z.unknown());
const UserIdsSchema = z.array(z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v), z.number()));

/** Reads an entry's metadata from the `<prefix>-entry-*` and `content-md5` headers. */
export function entryMetadataFromHeaders(headers: Headers, prefix: string): EntryMetadata {
  const name = (field: string): string => `${prefix}-entry-${field}`;
  const version = header(headers, name('version'));
  if (!version) {
    throw new ResponseShapeError(
      `Unexpected response: header ${name('version')}: expected string, received undefined`,
      `header ${name('version')}`,
    );
  }
  return {
    version,
    createdTime: header(headers, name('created-time')),
    versionCreatedTime: header(headers, name('version-created-time')),
    attributes: jsonHeader(headers, name('attributes'), AttributesSchema, {}),
    userIds: jsonHeader(headers, name('userids'), UserIdsSchema, []),
    contentMd5: header(headers, 'content-md5'),
  };
}
