// Cloud v2 data store entries (docs/SERVICE.md, "Cloud v2 differences"), over the same stored data as v1: a v1 version
// is a v2 revision with the same id, and every write of either API adds a version both see. Decisions where the
// documentation is open (docs/SERVICE.md, U1-U23):
// - Collections: `scopes/{scope}/entries` (the wildcard scope `-` lists every scope; any other call on it is 400)
//   and the unscoped `entries`. The unscoped listing shows every scope with id `scope/key` and its filter applies to
//   that id; an unscoped single-entry id is split at its first raw `/` into scope and key, and without one it is a
//   `global` key (U7). Answers name an entry the way the request addressed it.
// - Ids in paths: each segment is decoded once, `%2F` is part of the key (U8); a raw `/` in a scoped id matches no
//   route. A custom method (`:increment`, `:listRevisions`) is the text after the last raw `:`; `%3A` is part of the
//   key. Get splits a revision suffix at the last raw `@`, or, with none, at the last `@` once decoded (U9); writes
//   and List Revisions take the id literally (as the service documents).
// - Get `@<revision>` and `@latest:<time>` name the entry with that suffix, plain and `@latest` without (U10). An
//   unknown or deleted revision, and a time before the key existed or while it was deleted, are 404; a malformed
//   revision or time, a time not after 1970 or more than 10 minutes ahead, 400 (U11, U12).
// - Create on an existing key is 400 "Entry already exists." (U4); on a deleted key it revives it, as Update does
//   without allowMissing (U5, U6); both keep the key's createTime. Update of a missing key without allowMissing is
//   404. A body etag (Update) or `?etag=` / If-Match (Delete) that does not match the current revision, or names a
//   key that does not exist, is 409 ABORTED (U1-U3; the status is a setting). Delete of a missing or deleted key is
//   404 (U13). Delete answers {}.
// - Scopes: Update needs only objects:update, also when allowMissing creates the key; Increment objects:update for a
//   live key and objects:create otherwise (U19); no write needs control:create (U20).
// - Increment: amount and the stored value must be whole numbers (else 400); the result is clamped to +-2^53.
// - Listings are in UTF-8 byte order (U16). Without showDeleted a listing examines at most 512 keys per page (as
//   the service documents for data stores), so a page may come back short, or empty, with a token.
import { keysAfter, openStore, writeVersion, type Ref } from './datastores-common';
import {
  BODY_LIMIT,
  checkName,
  clampNumber,
  decodeSegment,
  etagMismatch,
  idPrefix,
  MAX_SCAN,
  maxPageSize,
  parseEntryBody,
  parseIncrementBody,
  readObject,
  readPageToken,
  renderEntry,
  renderRevision,
  revisionWindow,
  showDeleted,
  storeName,
  storePath,
  V2_BASE,
  V2_SCOPE,
  type Named,
} from './datastores-v2-shapes';
import { parseTime } from './clock';
import { ApiError, invalid } from './errors';
import { readJson, requestHeader, requireScope, sendJson, sendJsonText, type Ctx, type Route } from './http';
import { flag, text } from './params';
import { RATES, type RateRule } from './ratelimit';
import { bySeq, current, versionById, VERSION_ID, type EntryRec, type VersionRec } from './records';

const FUTURE_MS = 10 * 60 * 1000;

const entryNotFound = (): ApiError => new ApiError(404, 'Entry not found.');

/** An entry as a request addresses it, and how the answer names it. */
interface Target extends Ref {
  name: Named;
}

/** The scope of the collection in the path: a name, `-` (every scope), or undefined for the unscoped one. */
const pathScope = (ctx: Ctx): string | undefined =>
  ctx.rawParams.scope === undefined ? undefined : checkName(decodeSegment(ctx.rawParams.scope), 'scope');

function named(u: number, store: string, scope: string, key: string, unscopedId?: string): Named {
  return unscopedId === undefined
    ? { path: `${storePath(u, store)}/scopes/${scope}/entries/${key}`, id: key }
    : { path: `${storePath(u, store)}/entries/${unscopedId}`, id: unscopedId };
}

/** Splits a Get's raw id into the key and its revision suffix (U9). */
function splitSuffix(raw: string): { key: string; suffix?: string } {
  const at = raw.lastIndexOf('@');
  if (at >= 0) return { key: decodeSegment(raw.slice(0, at)), suffix: decodeSegment(raw.slice(at + 1)) };
  const decoded = decodeSegment(raw);
  const at2 = decoded.lastIndexOf('@');
  return at2 < 0 ? { key: decoded } : { key: decoded.slice(0, at2), suffix: decoded.slice(at2 + 1) };
}

/** The entry a single-entry call names; `read`: the id may end in a revision suffix. */
function target(ctx: Ctx, read: boolean): { t: Target; suffix?: string } {
  const store = storeName(ctx);
  const raw = ctx.rawParams.entry;
  const scoped = ctx.rawParams.scope !== undefined;
  const slash = scoped ? -1 : raw.indexOf('/');
  const scope = scoped
    ? pathScope(ctx)!
    : slash < 0
      ? 'global'
      : checkName(decodeSegment(raw.slice(0, slash)), 'scope');
  if (scope === '-') throw invalid('The scope "-" is only for listing entries.');
  const { key, suffix } = read ? splitSuffix(raw.slice(slash + 1)) : { key: decodeSegment(raw.slice(slash + 1)) };
  checkName(key, 'entry id');
  const unscopedId = scoped ? undefined : slash < 0 ? key : `${scope}/${key}`;
  const name = named(ctx.universeId, store, scope, key, unscopedId);
  return { t: { u: ctx.universeId, store, scope, key, name }, suffix };
}

const entryOf = (ctx: Ctx, t: Target): EntryRec | undefined =>
  openStore(ctx, t.store)?.scopes.get(t.scope)?.entries.get(t.key);

/** The revision current at `at`: the last kept version written by then. */
function revisionAt(entry: EntryRec, at: number): VersionRec | undefined {
  for (let i = entry.versions.length - 1; i >= 0; i--) if (entry.versions[i].at <= at) return entry.versions[i];
  return undefined;
}

/** What a Get's suffix asks for: the latest revision, the one current at a time, or one by id. */
function parseSuffix(ctx: Ctx, suffix: string | undefined): { at?: number; revision?: string } {
  if (suffix === undefined || suffix === 'latest') return {};
  if (!suffix.startsWith('latest:')) {
    if (!VERSION_ID.test(suffix.toUpperCase())) throw invalid(`"${suffix}" is not a revision id.`);
    return { revision: suffix };
  }
  const at = parseTime(suffix.slice('latest:'.length));
  if (at === undefined) throw invalid('The time after @latest: is not an RFC 3339 date-time.');
  if (at <= 0 || at > ctx.app.clock.now() + FUTURE_MS)
    throw invalid('The time after @latest: must be after 1970 and at most 10 minutes ahead.');
  return { at };
}

function get(ctx: Ctx): void {
  const { t, suffix } = target(ctx, true);
  const { at, revision } = parseSuffix(ctx, suffix);
  const entry = entryOf(ctx, t);
  let v: VersionRec | undefined;
  if (revision !== undefined) {
    v = entry && versionById(entry, revision);
    if (!v) throw new ApiError(404, 'Revision not found.');
  } else v = at === undefined ? current(entry) : entry && revisionAt(entry, at);
  if (!v || v.deleted) throw entryNotFound();
  const shown = revision !== undefined ? v.id : suffix?.startsWith('latest:') ? suffix : undefined;
  const name = shown === undefined ? t.name : { path: `${t.name.path}@${shown}`, id: `${t.name.id}@${shown}` };
  sendJsonText(ctx, 200, renderEntry(ctx, name, entry!, v));
}

async function create(ctx: Ctx): Promise<void> {
  const store = storeName(ctx);
  const id = text(ctx, 'id', { required: true })!;
  const scoped = ctx.rawParams.scope !== undefined;
  const slash = scoped ? -1 : id.indexOf('/');
  const scope = scoped ? pathScope(ctx)! : slash < 0 ? 'global' : checkName(id.slice(0, slash), 'scope');
  if (scope === '-') throw invalid('The scope "-" is only for listing entries.');
  const key = checkName(id.slice(slash + 1), 'entry id');
  const t: Target = {
    u: ctx.universeId,
    store,
    scope,
    key,
    name: named(ctx.universeId, store, scope, key, scoped ? undefined : id),
  };
  openStore(ctx, store);
  const body = parseEntryBody(await readJson(ctx, BODY_LIMIT));
  if (current(entryOf(ctx, t))) throw invalid('Entry already exists.');
  const { entry, v } = writeVersion(ctx, t, body.value, body.meta);
  sendJsonText(ctx, 200, renderEntry(ctx, t.name, entry, v));
}

/** Refuses a write whose etag does not match the current revision (or names a key that does not exist). */
function checkEtag(ctx: Ctx, etag: string | undefined, entry: EntryRec | undefined): void {
  if (etag !== undefined && current(entry)?.id !== etag) throw etagMismatch(ctx);
}

async function update(ctx: Ctx): Promise<void> {
  const { t } = target(ctx, false);
  const allowMissing = flag(ctx, 'allowMissing', { aliases: ['allow_missing'] });
  openStore(ctx, t.store);
  const body = parseEntryBody(await readJson(ctx, BODY_LIMIT));
  const before = entryOf(ctx, t);
  if (!before && !allowMissing && body.etag === undefined) throw entryNotFound();
  checkEtag(ctx, body.etag, before);
  const { entry, v } = writeVersion(ctx, t, body.value, body.meta);
  sendJsonText(ctx, 200, renderEntry(ctx, t.name, entry, v));
}

function deleteEntry(ctx: Ctx): void {
  const { t } = target(ctx, false);
  const etag = text(ctx, 'etag', {}) ?? requestHeader(ctx.req, 'if-match')?.replace(/^(W\/)?"(.*)"$/, '$2');
  const entry = entryOf(ctx, t);
  checkEtag(ctx, etag, entry);
  if (!current(entry)) throw entryNotFound();
  writeVersion(ctx, t, Buffer.alloc(0), { uids: '[]' }, true);
  sendJson(ctx, 200, {});
}

async function increment(ctx: Ctx): Promise<void> {
  const { t } = target(ctx, false);
  requireScope(ctx, `${V2_SCOPE}objects:${current(entryOf(ctx, t)) ? 'update' : 'create'}`);
  const { amount, meta } = parseIncrementBody(await readObject(ctx));
  const before = entryOf(ctx, t);
  const live = current(before);
  const stored: unknown = live ? JSON.parse(ctx.app.store.readValue(live).toString('utf8')) : 0;
  if (!Number.isInteger(stored))
    throw invalid('The existing value is not a whole number, so it cannot be incremented.');
  const result = clampNumber((stored as number) + amount);
  const { entry, v } = writeVersion(ctx, t, Buffer.from(String(result)), meta);
  sendJsonText(ctx, 200, renderEntry(ctx, t.name, entry, v));
}

function listRevisions(ctx: Ctx): void {
  const { t } = target(ctx, false);
  const size = maxPageSize(ctx, 100);
  const { start, end } = revisionWindow(ctx);
  const binding = [t.u, t.store, t.scope, t.key, start, end, size];
  const after = readPageToken(ctx, 'v2revisions', binding) as number | undefined;
  const entry = entryOf(ctx, t);
  if (!entry) throw entryNotFound();
  const versions = entry.versions;
  const page: VersionRec[] = [];
  let more = false;
  for (let i = (after === undefined ? versions.length : bySeq(versions, after, (v) => v.seq)) - 1; i >= 0; i--) {
    const v = versions[i];
    if (v.at < start || v.at > end) continue;
    if (page.length === size) {
      more = true;
      break;
    }
    page.push(v);
  }
  sendJson(ctx, 200, {
    dataStoreEntries: page.map((v) =>
      renderRevision({ path: `${t.name.path}@${v.id}`, id: `${t.name.id}@${v.id}` }, entry, v),
    ),
    ...(more && { nextPageToken: ctx.app.tokens.issue('v2revisions', binding, page[page.length - 1].seq) }),
  });
}

function listEntries(ctx: Ctx): void {
  const store = storeName(ctx);
  const scope = pathScope(ctx);
  const prefix = idPrefix(ctx);
  const deleted = showDeleted(ctx);
  const size = maxPageSize(ctx, 256);
  const binding = [ctx.universeId, store, scope ?? null, prefix, deleted, size];
  const after = readPageToken(ctx, 'v2entries', binding) as [string, string] | undefined;
  const ds = openStore(ctx, store);
  const items: Named[] = [];
  let last: [string, string] | undefined;
  let more = false;
  if (ds) {
    const scopes = scope === undefined || scope === '-' ? ds.scopeNames : [scope];
    // Unscoped, the prefix covers `scope/key`: a scope either takes part of it or is left out.
    const prefixOf = (s: string): string | undefined => {
      if (scope !== undefined) return prefix;
      const head = `${s}/`;
      return prefix.startsWith(head) ? prefix.slice(head.length) : head.startsWith(prefix) ? '' : undefined;
    };
    let scanned = 0;
    for (const [s, key] of keysAfter(ds, scopes, prefixOf, after)) {
      if (items.length === size || (!deleted && scanned === MAX_SCAN)) {
        more = true;
        break;
      }
      scanned++;
      last = [s, key];
      if (!deleted && !current(ds.scopes.get(s)!.entries.get(key))) continue;
      items.push(named(ctx.universeId, store, s, key, scope === undefined ? `${s}/${key}` : undefined));
    }
  }
  sendJson(ctx, 200, {
    dataStoreEntries: items,
    ...(more && { nextPageToken: ctx.app.tokens.issue('v2entries', binding, last) }),
  });
}

const route = (method: string, path: string, handle: Route['handle'], rate: RateRule, scope?: string): Route => ({
  method,
  path: V2_BASE + path,
  family: 'ds2',
  scopes: scope ? [V2_SCOPE + scope] : undefined,
  rate: [rate],
  handle,
});

/** One collection's routes; custom methods first, so that `k:increment` is not read as an id. */
const collectionRoutes = (collection: string, one: string): Route[] => [
  route('POST', `${one}:increment`, increment, RATES.v2Write),
  route('GET', `${one}:listRevisions`, listRevisions, RATES.v2List, 'versions:list'),
  route('GET', one, get, RATES.v2Read, 'objects:read'),
  route('PATCH', one, update, RATES.v2Write, 'objects:update'),
  route('DELETE', one, deleteEntry, RATES.v2Remove, 'objects:delete'),
  route('GET', collection, listEntries, RATES.v2List, 'objects:list'),
  route('POST', collection, create, RATES.v2Write, 'objects:create'),
];

export const v2EntryRoutes: Route[] = [
  ...collectionRoutes('/{ds+}/scopes/{scope+}/entries', '/{ds+}/scopes/{scope+}/entries/{entry+}'),
  ...collectionRoutes('/{ds+}/entries', '/{ds+}/entries/{entry*}'),
];
