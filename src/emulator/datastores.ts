// Standard data stores v1 (docs/SERVICE.md). Decisions where the documentation is silent:
// - Versions are kept as the live service keeps them (retention.ts): the last write of each UTC hour, for 30 days
//   after it was superseded; a key deleted 30 days ago is purged. Delete writes a tombstone version. Times come from
//   the emulator's clock.
// - Deleted (tombstoned) keys stay in List Entries, as the service documents; Get on them is 404 EntryNotFound, as is
//   Get Version of a tombstone version. Set or Increment on a tombstone revives the key (its created time stays).
// - Entry operations on a data store that was never written give 404 DatastoreNotFound; List Entries gives an
//   empty page instead. A data store deleted through cloud v2 fails every entry call, List Entries included, with
//   404 DatastoreNotFound "The data store is deleted.", and is left out of List Data Stores until undeleted.
// - Write scopes: objects:update for a live key, objects:create otherwise, plus control:create when the data store
//   does not exist yet.
// - incrementBy defaults to 1 and must be a whole number (`5` or `5.0`) in int64 range; anything else is 400
//   InvalidArgument. The stored value must be an integer (JSON number without a fraction), else 400
//   ExistingValueNotNumeric. Results outside int64 give IncrementValueTooLarge / IncrementValueTooSmall.
// - matchVersion on a missing or deleted key: 412 with a ds error body (code PreconditionFailed), there being no
//   current entry to send. A malformed matchVersion simply does not match.
// - Lists are in UTF-8 byte order of names and keys, as cloud v2 lists them (records.ts).
// - Page sizes (`limit`): defaults as documented (List Data Stores 1, the others 16), values above 1,000 are
//   clamped to 1,000, and 0, negatives or non-numbers are 400 InvalidLimit. End of a list: nextPageCursor "".
import { createHash } from 'node:crypto';
import { iso } from './clock';
import {
  asciiJson,
  keysAfter,
  MAX_ATTRIBUTE_BYTES,
  MAX_USER_IDS,
  MAX_VALUE_BYTES,
  NAME_MAX_BYTES,
  openStore,
  writeVersion,
  type Metadata,
  type Ref,
} from './datastores-common';
import { ApiError, invalid } from './errors';
import { isObject, readBody, requestHeader, requireScope, send, sendJson, type Ctx, type Route } from './http';
import { flag, oneOf, pageSize, text, time } from './params';
import { RATES } from './ratelimit';
import {
  bySeq,
  compareKeys,
  current,
  lowerBound,
  versionById,
  VERSION_ID,
  type EntryRec,
  type StoreRec,
  type VersionRec,
} from './records';

const BASE = '/datastores/v1/universes/{universeId}/standard-datastores';
const S = 'universe-datastores.';
const MAX_LIMIT = 1000;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

const nameRule = { required: true, maxBytes: NAME_MAX_BYTES, code: 'InvalidDataStoreName' };
const scopeRule = { fallback: 'global', maxBytes: NAME_MAX_BYTES, code: 'InvalidDataStoreScope' };
const limitRule = (fallback: number) => ({ fallback, max: MAX_LIMIT, code: 'InvalidLimit' });

function ref(ctx: Ctx): Ref {
  return {
    u: ctx.universeId,
    store: text(ctx, 'datastoreName', nameRule)!,
    scope: text(ctx, 'scope', scopeRule)!,
    key: text(ctx, 'entryKey', { required: true, maxBytes: NAME_MAX_BYTES, code: 'InvalidEntryKey' })!,
  };
}

/** The entry, or 404 DatastoreNotFound / EntryNotFound. */
function findEntry(ctx: Ctx, r: Ref): EntryRec {
  const store = openStore(ctx, r.store);
  if (!store) throw new ApiError(404, 'Datastore not found.', 'DatastoreNotFound');
  const entry = store.scopes.get(r.scope)?.entries.get(r.key);
  if (!entry) throw new ApiError(404, 'Entry not found in the datastore.', 'EntryNotFound');
  return entry;
}

/** The entry and its current version, or 404. */
function live(ctx: Ctx, r: Ref): { entry: EntryRec; v: VersionRec } {
  const entry = findEntry(ctx, r);
  const v = current(entry);
  if (!v) throw new ApiError(404, 'Entry not found in the datastore.', 'EntryNotFound');
  return { entry, v };
}

/** Answers with a version's value and headers (Get Entry, Get Version, Increment, the 412 of Set). */
function sendVersion(ctx: Ctx, status: number, entry: EntryRec, v: VersionRec): void {
  const value = ctx.app.store.readValue(v);
  let headers = entryHeaders.get(v);
  if (!headers) entryHeaders.set(v, (headers = makeEntryHeaders(ctx.app.prefix, entry, v, value)));
  send(ctx, status, headers, value);
}

/** Each version's headers, made once: a version never changes, and content-md5 hashes the whole value. */
const entryHeaders = new WeakMap<VersionRec, Record<string, string>>();

function makeEntryHeaders(prefix: string, entry: EntryRec, v: VersionRec, value: Buffer): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'content-length': String(value.length),
    'content-md5': createHash('md5').update(value).digest('base64'),
    [`${prefix}-entry-version`]: v.id,
    [`${prefix}-entry-created-time`]: dotnetTime(entry.createdAt),
    [`${prefix}-entry-version-created-time`]: dotnetTime(v.at),
    [`${prefix}-entry-userids`]: v.uids,
  };
  // Attributes are sent only when the version has some; user ids always (an empty list is "[]").
  if (v.attrs !== undefined) headers[`${prefix}-entry-attributes`] = v.attrs;
  return headers;
}

/** .NET style time as in the entry headers: 2022-02-02T23:30:06.5388000+00:00. */
function dotnetTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}0000+00:00`;
}

function requireWriteScopes(ctx: Ctx, r: Ref): void {
  const store = openStore(ctx, r.store);
  if (!store) requireScope(ctx, `${S}control:create`);
  requireScope(
    ctx,
    current(store?.scopes.get(r.scope)?.entries.get(r.key)) ? `${S}objects:update` : `${S}objects:create`,
  );
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Attributes and user ids from the request headers; left out means cleared. */
function readMetadata(ctx: Ctx): Metadata {
  // An empty header counts as none.
  const attrsRaw = requestHeader(ctx.req, `${ctx.app.prefix}-entry-attributes`) || undefined;
  const uidsRaw = requestHeader(ctx.req, `${ctx.app.prefix}-entry-userids`) || undefined;
  let attrs: string | undefined;
  if (attrsRaw !== undefined) {
    const parsed = attrsRaw.length <= MAX_ATTRIBUTE_BYTES ? parseHeaderJson(attrsRaw) : undefined;
    if (!isObject(parsed)) {
      throw invalid(
        `The attributes header must be a JSON object of at most ${MAX_ATTRIBUTE_BYTES} bytes.`,
        'InvalidAttributes',
      );
    }
    attrs = asciiJson(parsed);
  }
  let uids = '[]';
  if (uidsRaw !== undefined) {
    const parsed = parseHeaderJson(uidsRaw);
    const ok =
      Array.isArray(parsed) && parsed.length <= MAX_USER_IDS && parsed.every((n) => Number.isSafeInteger(n) && n >= 0);
    if (!ok)
      throw invalid(`The userids header must be a JSON array of at most ${MAX_USER_IDS} user ids.`, 'InvalidUserIds');
    uids = JSON.stringify(parsed);
  }
  return { attrs, uids };
}

/** Header values arrive as latin1 characters, one per byte; the JSON in them must be UTF-8. */
function parseHeaderJson(raw: string): unknown {
  try {
    return JSON.parse(utf8.decode(Buffer.from(raw, 'latin1')));
  } catch {
    return undefined;
  }
}

function checkValue(ctx: Ctx, body: Buffer): void {
  const md5 = requestHeader(ctx.req, 'content-md5');
  if (md5 !== undefined && !Buffer.from(md5, 'base64').equals(createHash('md5').update(body).digest())) {
    throw invalid('The content-md5 header does not match the request body.', 'ChecksumMismatch');
  }
  try {
    JSON.parse(utf8.decode(body));
  } catch {
    throw invalid('The request body is not valid JSON.', 'ContentNotJson');
  }
}

async function setEntry(ctx: Ctx): Promise<void> {
  const r = ref(ctx);
  const matchVersion = text(ctx, 'matchVersion', { allowEmpty: true }) || undefined;
  const exclusiveCreate = flag(ctx, 'exclusiveCreate');
  if (matchVersion !== undefined && exclusiveCreate) {
    throw invalid('exclusiveCreate and matchVersion cannot both be set.', 'ExclusiveCreateAndMatchVersionCannotBeSet');
  }
  requireWriteScopes(ctx, r);
  const meta = readMetadata(ctx);
  const body = await readBody(ctx.req, MAX_VALUE_BYTES);
  if (!body) throw invalid(`The value is larger than ${MAX_VALUE_BYTES} bytes.`, 'ContentTooBig');
  checkValue(ctx, body);
  const entry = ctx.app.store.entry(r.u, r.store, r.scope, r.key);
  const now = current(entry);
  // The 412 answer: the current entry as Get Entry would send it.
  if (exclusiveCreate && now) return sendVersion(ctx, 412, entry!, now);
  if (matchVersion !== undefined && now?.id !== matchVersion) {
    if (now) return sendVersion(ctx, 412, entry!, now);
    throw new ApiError(412, 'The entry does not exist, so matchVersion cannot match.', 'PreconditionFailed');
  }
  sendJson(ctx, 200, writeVersion(ctx, r, body, meta).v.item);
}

function parseIncrement(ctx: Ctx): bigint {
  const v = text(ctx, 'incrementBy', { fallback: '1' })!;
  const m = /^([+-]?\d{1,30})(\.0*)?$/.exec(v);
  if (!m) throw invalid('incrementBy must be a whole number.');
  const n = BigInt(m[1]);
  if (n > INT64_MAX) throw invalid('incrementBy is larger than a 64-bit integer.', 'IncrementValueTooLarge');
  if (n < INT64_MIN) throw invalid('incrementBy is smaller than a 64-bit integer.', 'IncrementValueTooSmall');
  return n;
}

function numericValue(value: Buffer): bigint {
  const textValue = value.toString('utf8').trim();
  if (/^-?\d+$/.test(textValue)) return BigInt(textValue);
  const parsed: unknown = JSON.parse(textValue);
  if (typeof parsed === 'number' && Number.isInteger(parsed)) return BigInt(parsed);
  throw invalid('The existing value is not an integer, so it cannot be incremented.', 'ExistingValueNotNumeric');
}

async function increment(ctx: Ctx): Promise<void> {
  const r = ref(ctx);
  const by = parseIncrement(ctx);
  requireWriteScopes(ctx, r);
  const meta = readMetadata(ctx);
  // The body (if any) and its content-md5 are ignored: clients send an empty body, some with a checksum.
  await readBody(ctx.req, 0);
  const entry = ctx.app.store.entry(r.u, r.store, r.scope, r.key);
  const now = current(entry);
  const result = (now ? numericValue(ctx.app.store.readValue(now)) : 0n) + by;
  if (result > INT64_MAX) throw invalid('The result is larger than a 64-bit integer.', 'IncrementValueTooLarge');
  if (result < INT64_MIN) throw invalid('The result is smaller than a 64-bit integer.', 'IncrementValueTooSmall');
  const written = writeVersion(ctx, r, Buffer.from(result.toString()), meta);
  sendVersion(ctx, 200, written.entry, written.v);
}

function deleteEntry(ctx: Ctx): void {
  const r = ref(ctx);
  live(ctx, r);
  writeVersion(ctx, r, Buffer.alloc(0), { uids: '[]' }, true);
  send(ctx, 204, {});
}

function getVersion(ctx: Ctx): void {
  const r = ref(ctx);
  const id = text(ctx, 'versionId', { required: true, code: 'InvalidVersionId' })!;
  if (!VERSION_ID.test(id.toUpperCase())) throw invalid('The version id is not valid.', 'InvalidVersionId');
  const entry = findEntry(ctx, r);
  const v = versionById(entry, id);
  if (!v) throw new ApiError(404, 'Version not found.', 'VersionNotFound');
  if (v.deleted)
    throw new ApiError(404, 'Entry not found in the datastore (this version is a deletion).', 'EntryNotFound');
  sendVersion(ctx, 200, entry, v);
}

function listVersions(ctx: Ctx): void {
  const r = ref(ctx);
  const start = time(ctx, 'startTime', { code: 'InvalidStartTime' }) ?? -Infinity;
  const end = time(ctx, 'endTime', { code: 'InvalidEndTime' }) ?? Infinity;
  const order = oneOf(ctx, 'sortOrder', ['Ascending', 'Descending'] as const, 'Ascending', {
    code: 'InvalidSortOrder',
  });
  const limit = pageSize(ctx, 'limit', limitRule(16));
  const binding = [r.u, r.store, r.scope, r.key, order, start, end];
  const after = readCursor(ctx, 'versions', binding) as number | undefined;
  const versions = findEntry(ctx, r).versions;
  const page: VersionRec[] = [];
  const asc = order === 'Ascending';
  let i =
    after === undefined
      ? asc
        ? 0
        : versions.length - 1
      : bySeq(versions, asc ? after + 1 : after, (v) => v.seq) - (asc ? 0 : 1);
  let more = false;
  for (; i >= 0 && i < versions.length; i += asc ? 1 : -1) {
    const v = versions[i];
    if (v.at < start || v.at > end) continue;
    if (page.length === limit) {
      more = true;
      break;
    }
    page.push(v);
  }
  sendJson(ctx, 200, {
    versions: page.map((v) => v.item),
    nextPageCursor: more ? ctx.app.tokens.issue('versions', binding, page[page.length - 1].seq) : '',
  });
}

function readCursor(ctx: Ctx, kind: string, binding: unknown[]): unknown {
  const cursor = text(ctx, 'cursor', { allowEmpty: true, code: 'InvalidCursor' });
  if (!cursor) return undefined;
  const position = ctx.app.tokens.read(cursor, kind, binding);
  if (position === undefined) throw invalid('Invalid cursor.', 'InvalidCursor');
  return position;
}

function listStores(ctx: Ctx): void {
  const prefix = text(ctx, 'prefix', { allowEmpty: true, code: 'InvalidDataStoreName' }) ?? '';
  const limit = pageSize(ctx, 'limit', limitRule(1));
  const binding = [ctx.universeId, prefix];
  const after = readCursor(ctx, 'stores', binding) as string | undefined;
  const u = ctx.app.store.universes.get(ctx.universeId);
  const names = u?.storeNames ?? [];
  let i = lowerBound(names, after !== undefined && compareKeys(after, prefix) >= 0 ? after : prefix);
  if (names[i] === after) i++;
  const page: StoreRec[] = [];
  const shown = (name: string): boolean => u!.stores.get(name)!.deletedAt === undefined;
  for (; i < names.length && names[i].startsWith(prefix) && page.length < limit; i++)
    if (shown(names[i])) page.push(u!.stores.get(names[i])!);
  while (i < names.length && names[i].startsWith(prefix) && !shown(names[i])) i++;
  const more = i < names.length && names[i].startsWith(prefix);
  sendJson(ctx, 200, {
    datastores: page.map((s) => ({ name: s.name, createdTime: iso(s.createdAt) })),
    nextPageCursor: more ? ctx.app.tokens.issue('stores', binding, page[page.length - 1].name) : '',
  });
}

function listEntries(ctx: Ctx): void {
  const name = text(ctx, 'datastoreName', nameRule)!;
  const allScopes = flag(ctx, 'allScopes', { aliases: ['AllScopes'] });
  const scope = text(ctx, 'scope', scopeRule)!;
  if (allScopes && ctx.query.get('scope') !== undefined && scope !== 'global') {
    throw invalid('scope cannot be set together with allScopes=true.', 'InvalidDataStoreScope');
  }
  const prefix = text(ctx, 'prefix', { allowEmpty: true, code: 'InvalidEntryKey' }) ?? '';
  const limit = pageSize(ctx, 'limit', limitRule(16));
  const binding = [ctx.universeId, name, allScopes ? null : scope, prefix];
  const after = readCursor(ctx, 'entries', binding) as [string, string] | undefined;
  const store = openStore(ctx, name);
  const keys: { scope: string; key: string }[] = [];
  let more = false;
  if (store) {
    const scopes = allScopes ? store.scopeNames : [scope];
    for (const [s, key] of keysAfter(store, scopes, () => prefix, after)) {
      if (keys.length === limit) {
        more = true;
        break;
      }
      keys.push({ scope: s, key });
    }
  }
  const last = keys[keys.length - 1];
  sendJson(ctx, 200, {
    keys,
    nextPageCursor: more ? ctx.app.tokens.issue('entries', binding, [last.scope, last.key]) : '',
  });
}

function getEntry(ctx: Ctx): void {
  const { entry, v } = live(ctx, ref(ctx));
  sendVersion(ctx, 200, entry, v);
}

const ds = (method: string, path: string, handle: Route['handle'], write: boolean, scope?: string): Route => ({
  method,
  path: BASE + path,
  family: 'ds',
  scopes: scope ? [S + scope] : undefined,
  rate: [write ? RATES.dsWrite : RATES.dsRead],
  handle,
});

export const datastoreRoutes: Route[] = [
  ds('GET', '', listStores, false, 'control:list'),
  ds('GET', '/datastore/entries', listEntries, false, 'objects:list'),
  ds('GET', '/datastore/entries/entry', getEntry, false, 'objects:read'),
  ds('POST', '/datastore/entries/entry', setEntry, true),
  ds('DELETE', '/datastore/entries/entry', deleteEntry, true, 'objects:delete'),
  ds('POST', '/datastore/entries/entry/increment', increment, true),
  ds('GET', '/datastore/entries/entry/versions', listVersions, false, 'versions:list'),
  ds('GET', '/datastore/entries/entry/versions/version', getVersion, false, 'versions:read'),
];
