// Cloud v2 data stores: the wire shapes (docs/SERVICE.md, "Cloud v2 differences") rendered from the one stored model,
// and the request parts every v2 route shares: path segments, write bodies, filters, page sizes and tokens. Decisions:
// - Times are RFC 3339 in Z with 3 fraction digits (the emulator's clock counts milliseconds).
// - `value` is parsed from the stored JSON text; numbers beyond +-2^53 come back clamped.
// - `users` is always there, [] when empty, and `attributes` {} (U14). User ids must be `users/{id}`, at most 4, as
//   v1 allows; attributes at most 300 characters serialized. Writes store them as v1 does, so v1 headers show them.
// - Query names are accepted in camel case and snake case (U22). maxPageSize: 0 or absent gives the default, more
//   than the maximum is clamped, negative is 400 (U17). A page token is bound to the other parameters: changing
//   the filter, showDeleted or the page size while paging is 400. The last page has no nextPageToken.
// - Path segments are percent-decoded once (decodeURIComponent: `+` stays a plus, `%2F` is part of the name, U8).
import {
  asciiJson,
  MAX_ATTRIBUTE_BYTES,
  MAX_USER_IDS,
  MAX_VALUE_BYTES,
  NAME_MAX_BYTES,
  type Metadata,
} from './datastores-common';
import { iso, parseTime } from './clock';
import { ApiError, invalid } from './errors';
import { isObject, readBody, type Ctx } from './http';
import { flag, pageSize, text } from './params';
import type { EntryRec, StoreRec, VersionRec } from './records';
import { KEEP_MS } from './retention';

export const V2_BASE = '/cloud/v2/universes/{universeId}/data-stores';
export const V2_SCOPE = 'universe-datastores.';
/** A write body: the value and a little JSON around it. */
export const BODY_LIMIT = MAX_VALUE_BYTES + 64 * 1024;
const NUMBER_LIMIT = 2 ** 53;
/** Numbers are doubles within +-2^53. */
export const clampNumber = (n: number): number => Math.max(-NUMBER_LIMIT, Math.min(NUMBER_LIMIT, n));
/** How many keys or stores a listing without showDeleted examines for one page. */
export const MAX_SCAN = 512;

/** How an answer names an entry: its `path` and `id`. */
export interface Named {
  path: string;
  id: string;
}

export const storePath = (u: number, name: string): string => `universes/${u}/data-stores/${name}`;

export function renderStore(u: number, s: StoreRec): Record<string, unknown> {
  return {
    path: storePath(u, s.name),
    id: s.name,
    createTime: iso(s.createdAt),
    state: s.deletedAt === undefined ? 'ACTIVE' : 'DELETED',
    ...(s.deletedAt !== undefined && { expireTime: iso(s.deletedAt + KEEP_MS) }),
  };
}

/** A full DataStoreEntry (Create, Get, Update, Increment) as JSON text, its fields in the order of the live samples. */
export function renderEntry(ctx: Ctx, name: Named, entry: EntryRec, v: VersionRec): string {
  const kept = answers.get(v);
  if (kept?.path === name.path && kept.id === name.id && kept.createdAt === entry.createdAt) return kept.text;
  const { id, ...revision } = renderRevision(name, entry, v);
  const users = JSON.stringify((JSON.parse(v.uids) as number[]).map((n) => `users/${n}`));
  const text =
    `${JSON.stringify(revision).slice(0, -1)},"value":${valueText(ctx, v)},"id":${JSON.stringify(id)},` +
    `"users":${users},"attributes":${v.attrs ?? '{}'}}`;
  if (text.length <= KEPT_TEXT_MAX) answers.set(v, { ...name, createdAt: entry.createdAt, text });
  return text;
}

/**
 * The last answer made for a version, kept when small: a version never changes, so reading it again (as an export
 * does) sends the same text.
 */
const answers = new WeakMap<VersionRec, Named & { createdAt: number; text: string }>();
const KEPT_TEXT_MAX = 8 * 1024;

/** Digits enough to pass 2^53, or an exponent: a number that may need clamping. */
const MAYBE_BIG = /\d{16}|\d[eE]/;

/** The stored text parsed and written again: compact, numbers clamped to ±2^53 (that pass only when needed). */
function valueText(ctx: Ctx, v: VersionRec): string {
  const stored = ctx.app.store.readValue(v).toString('utf8');
  const value: unknown = MAYBE_BIG.test(stored)
    ? JSON.parse(stored, (_k, x: unknown) => (typeof x === 'number' ? clampNumber(x) : x))
    : JSON.parse(stored);
  return JSON.stringify(value);
}

/** The fields of a revision, as List Revisions gives them (with `@<revision>` on path and id). */
export function renderRevision(name: Named, entry: EntryRec, v: VersionRec): Record<string, unknown> {
  return {
    path: name.path,
    createTime: iso(entry.createdAt),
    revisionId: v.id,
    revisionCreateTime: iso(v.at),
    state: v.deleted ? 'DELETED' : 'ACTIVE',
    etag: v.id,
    id: name.id,
  };
}

/** A percent-decoded path segment; 400 when its encoding is malformed. */
export function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw invalid('The path is not correctly percent-encoded.');
  }
}

/** A data store name, scope or entry id: 1 to 50 bytes. */
export function checkName(v: string, what: string): string {
  if (v === '' || Buffer.byteLength(v) > NAME_MAX_BYTES)
    throw invalid(`The ${what} must be 1 to ${NAME_MAX_BYTES} bytes long.`);
  return v;
}

export const storeName = (ctx: Ctx): string => checkName(decodeSegment(ctx.rawParams.ds), 'data store name');

export interface EntryWrite {
  value: Buffer;
  meta: Metadata;
  etag?: string;
}

/** A Create or Update body: {value, users?, attributes?, etag?}; output-only fields are ignored. */
export function parseEntryBody(body: unknown): EntryWrite {
  if (!isObject(body)) throw invalid('The request body must be a JSON object.');
  if (body.value === undefined) throw invalid('value is required.');
  const value = Buffer.from(JSON.stringify(body.value));
  if (value.length > MAX_VALUE_BYTES) throw invalid(`The value is larger than ${MAX_VALUE_BYTES} bytes.`);
  const { etag } = body;
  if (etag !== undefined && typeof etag !== 'string') throw invalid('etag must be a string.');
  return { value, meta: parseMetadata(body), etag };
}

/** An Increment body: {amount?, users?, attributes?}; amount defaults to 1 and must be a whole number. */
export function parseIncrementBody(body: Record<string, unknown>): { amount: number; meta: Metadata } {
  const amount = body.amount ?? 1;
  if (!Number.isInteger(amount)) throw invalid('amount must be a whole number.');
  return { amount: amount as number, meta: parseMetadata(body) };
}

/** users and attributes; left out means cleared, as the service does. */
function parseMetadata(body: Record<string, unknown>): Metadata {
  const users = body.users ?? [];
  const attributes = body.attributes ?? {};
  const userId = (u: unknown): number => (typeof u === 'string' ? Number(/^users\/(\d{1,16})$/.exec(u)?.[1]) : NaN);
  const ids = Array.isArray(users) ? users.map(userId) : [NaN];
  if (ids.length > MAX_USER_IDS || !ids.every(Number.isSafeInteger))
    throw invalid(`users must be a list of at most ${MAX_USER_IDS} "users/{id}" paths.`);
  if (!isObject(attributes) || JSON.stringify(attributes).length > MAX_ATTRIBUTE_BYTES)
    throw invalid(`attributes must be a JSON object of at most ${MAX_ATTRIBUTE_BYTES} characters.`);
  return {
    uids: JSON.stringify(ids),
    attrs: Object.keys(attributes).length ? asciiJson(attributes) : undefined,
  };
}

/** A small JSON object body (Increment; Undelete and Snapshot take `{}`); an empty body is taken as `{}`. */
export async function readObject(ctx: Ctx): Promise<Record<string, unknown>> {
  const body = await readBody(ctx.req, 64 * 1024);
  if (!body) throw invalid('The request body is too large.');
  let parsed: unknown = {};
  try {
    if (body.length) parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw invalid('The request body is not valid JSON.');
  }
  if (!isObject(parsed)) throw invalid('The request body must be a JSON object.');
  return parsed;
}

const badFilter = (): ApiError => invalid('The provided filter is invalid.');

/** The prefix of `filter=id.startsWith("<prefix>")` (a JSON-style string); '' without a filter. */
export function idPrefix(ctx: Ctx): string {
  const filter = text(ctx, 'filter', { allowEmpty: true }) ?? '';
  if (filter.trim() === '') return '';
  const m = /^\s*id\s*\.\s*startsWith\s*\(\s*("(?:[^"\\]|\\.)*")\s*\)\s*$/.exec(filter);
  if (!m) throw badFilter();
  try {
    return JSON.parse(m[1]) as string;
  } catch {
    throw badFilter();
  }
}

/** The bounds of `filter=revision_create_time >= <t> && revision_create_time <= <t>` (either, or both, any order). */
export function revisionWindow(ctx: Ctx): { start: number; end: number } {
  const filter = text(ctx, 'filter', { allowEmpty: true }) ?? '';
  const window = { start: -Infinity, end: Infinity };
  if (filter.trim() === '') return window;
  const seen = new Set<string>();
  for (const part of filter.split('&&')) {
    const m = /^\s*revision_create_time\s*(>=|<=)\s*(\S+)\s*$/.exec(part);
    const at = m ? parseTime(m[2]) : undefined;
    if (!m || at === undefined || seen.has(m[1])) throw badFilter();
    seen.add(m[1]);
    if (m[1] === '>=') window.start = at;
    else window.end = at;
  }
  return window;
}

export const showDeleted = (ctx: Ctx): boolean => flag(ctx, 'showDeleted', { aliases: ['show_deleted'] });

export const maxPageSize = (ctx: Ctx, max: number): number =>
  pageSize(ctx, 'maxPageSize', { fallback: 10, max, zeroIsDefault: true, aliases: ['max_page_size'] });

/** The position a page token holds; undefined without one; 400 when it was not issued for these parameters. */
export function readPageToken(ctx: Ctx, kind: string, binding: unknown[]): unknown {
  const token = text(ctx, 'pageToken', { allowEmpty: true, aliases: ['page_token'] });
  if (!token) return undefined;
  const position = ctx.app.tokens.read(token, kind, binding);
  if (position === undefined) throw invalid('The page token is invalid, or was issued for other parameters.');
  return position;
}

/** What an etag that does not match answers (U1: 409 ABORTED; a setting gives 412 or 400 FAILED_PRECONDITION). */
export function etagMismatch(ctx: Ctx): ApiError {
  const err = new ApiError(ctx.app.etagMismatchStatus, 'The entry has been modified.');
  if (err.status !== 409) err.v2Code = 'FAILED_PRECONDITION';
  return err;
}
