// Reading what the service sent: a body against its schema, and an entry's metadata from its headers. A shape the
// client does not expect becomes a ResponseShapeError that names the field.
import type * as z from 'zod/mini';
import { ResponseShapeError } from './errors';
import {
  AttributesSchema,
  header,
  isUserIdArray,
  isRecord,
  UserIdsSchema,
  type EntryMetadata,
  type EntryVersion,
  type Headers,
  type Schema,
} from './schemas';
import type { EntryBody } from './schemasV2';

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
export function parseShape<S extends Schema>(
  schema: S,
  value: unknown,
  where: string | (() => string),
  root = '',
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = formatPath(issue.path, root) || '(body)';
  const at = typeof where === 'function' ? where() : where;
  throw new ResponseShapeError(`Unexpected response from ${at}: ${field}: ${describe(issue)}`, field);
}

/** A page token as the schemas read it ("", null and absent: the last page); false when it is not one. */
function plainCursor(value: unknown): string | undefined | false {
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' && value;
}

// Bulk engines read thousands of pages and entries, and zod copies each. The plain* readers check the common shape by
// hand and give the schema's output; for anything else they give undefined, and zod reads it or names the field that
// is wrong.

/** A List Entries answer as ListEntriesSchema reads it, each key with its scope (`scope` when it has none). */
export function plainKeysPage(
  value: unknown,
  scope: string,
): { items: { scope: string; key: string }[]; next?: string } | undefined {
  if (!isRecord(value) || !Array.isArray(value.keys)) return undefined;
  const next = plainCursor(value.nextPageCursor);
  if (next === false) return undefined;
  const items: { scope: string; key: string }[] = [];
  for (const k of value.keys as unknown[]) {
    if (typeof k === 'string') items.push({ scope, key: k });
    else if (isRecord(k) && typeof k.key === 'string' && (k.scope === undefined || typeof k.scope === 'string')) {
      items.push({ scope: k.scope ?? scope, key: k.key });
    } else return undefined;
  }
  return { items, next };
}

/** A List Entry Versions answer as ListEntryVersionsSchema reads it. */
export function plainVersionsPage(value: unknown): { items: EntryVersion[]; next?: string } | undefined {
  if (!isRecord(value) || !Array.isArray(value.versions)) return undefined;
  const next = plainCursor(value.nextPageCursor);
  if (next === false) return undefined;
  const items: EntryVersion[] = [];
  for (const v of value.versions as unknown[]) {
    const version = plainVersion(v);
    if (!version) return undefined;
    items.push(version);
  }
  return { items, next };
}

/** One version as the schema's output (its fields in the schema's order, `deleted` defaulted; no others). */
function plainVersion(v: unknown): EntryVersion | undefined {
  if (!isRecord(v)) return undefined;
  const { version, deleted = false, contentLength, createdTime, objectCreatedTime } = v;
  if (
    typeof version !== 'string' ||
    typeof deleted !== 'boolean' ||
    typeof contentLength !== 'number' ||
    typeof createdTime !== 'string'
  ) {
    return undefined;
  }
  let fields = 0;
  for (const _ in v) fields++;
  const hasObjectTime = objectCreatedTime !== undefined;
  if (fields !== 3 + Number(v.deleted !== undefined) + Number(hasObjectTime)) return undefined;
  if (!hasObjectTime) return { version, deleted, contentLength, createdTime } as EntryVersion; // as zod: no key
  if (objectCreatedTime !== null && typeof objectCreatedTime !== 'string') return undefined;
  return { version, deleted, contentLength, createdTime, objectCreatedTime: objectCreatedTime ?? undefined };
}

/** A header's first value; its bytes arrive as latin1, and JSON in them may be UTF-8. */
function utf8Header(headers: Headers, name: string): string | undefined {
  const s = header(headers, name);
  return s !== undefined && /[\x80-\xff]/.test(s) ? Buffer.from(s, 'latin1').toString('utf8') : s;
}

/**
 * A header holding JSON, read with `schema`. `plain` says when the value already has the schema's output shape: it
 * is then returned as it is, saving zod's copy on every entry read.
 */
function jsonHeader<S extends Schema>(
  headers: Headers,
  name: string,
  schema: S,
  absent: z.output<S>,
  plain: (value: unknown) => boolean,
): z.output<S> {
  const text = utf8Header(headers, name);
  if (text === undefined || text === '') return absent;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ResponseShapeError(`Unexpected response: header ${name}: not valid JSON`, `header ${name}`);
  }
  return plain(value) ? (value as z.output<S>) : parseShape(schema, value, 'response', `header ${name}`);
}

/** The `<prefix>-entry-*` names per prefix, made once: they are looked up on every entry read. */
const entryHeaderNames = new Map<
  string,
  Record<'version' | 'created' | 'versionCreated' | 'attributes' | 'userIds', string>
>();

function namesFor(prefix: string) {
  let names = entryHeaderNames.get(prefix);
  if (!names) {
    const name = (field: string): string => `${prefix}-entry-${field}`;
    names = {
      version: name('version'),
      created: name('created-time'),
      versionCreated: name('version-created-time'),
      attributes: name('attributes'),
      userIds: name('userids'),
    };
    entryHeaderNames.set(prefix, names);
  }
  return names;
}

/** Reads an entry's metadata from the `<prefix>-entry-*` and `content-md5` headers. */
export function entryMetadataFromHeaders(headers: Headers, prefix: string): EntryMetadata {
  const names = namesFor(prefix);
  const version = utf8Header(headers, names.version);
  if (!version) {
    throw new ResponseShapeError(
      `Unexpected response: header ${names.version}: expected string, received undefined`,
      `header ${names.version}`,
    );
  }
  return {
    version,
    createdTime: utf8Header(headers, names.created),
    versionCreatedTime: utf8Header(headers, names.versionCreated),
    attributes: jsonHeader(headers, names.attributes, AttributesSchema, {}, isRecord),
    userIds: jsonHeader(headers, names.userIds, UserIdsSchema, [], isUserIdArray),
    contentMd5: utf8Header(headers, 'content-md5'),
  };
}

// ---- JSON text, checked without building its value ----

const OBJECT = 1;
const ARRAY = 2;
/** The containers open where isJsonText is, innermost last: one array for every call (it never waits). */
const containers: number[] = [];

/**
 * Whether `b` is a JSON text, as JSON.parse of its UTF-8 text would find, without building the value (bulk export
 * reads thousands of entries and writes their bytes as they are). `b` must be valid UTF-8 (isUtf8): bytes of 0x80 and
 * up are then parts of characters, which JSON allows in strings only. Any depth: the open containers are counted on
 * a stack of their own, not on the call stack.
 */
export function isJsonText(b: Uint8Array): boolean {
  try {
    return jsonText(b, containers);
  } finally {
    containers.length = 0; // and its memory given back after a deep value
  }
}

function jsonText(b: Uint8Array, open: number[]): boolean {
  let i = space(b, 0);
  for (;;) {
    // A value starts at i.
    const c = b[i];
    if (c === 0x7b) {
      i = space(b, i + 1);
      if (b[i] === 0x7d) i++;
      else {
        open.push(OBJECT);
        i = member(b, i);
        if (i < 0) return false;
        continue;
      }
    } else if (c === 0x5b) {
      i = space(b, i + 1);
      if (b[i] === 0x5d) i++;
      else {
        open.push(ARRAY);
        continue;
      }
    } else if (c === 0x22) i = string(b, i);
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) i = number(b, i);
    else if (c === 0x74) i = word(b, i, TRUE);
    else if (c === 0x66) i = word(b, i, FALSE);
    else if (c === 0x6e) i = word(b, i, NULL);
    else return false;
    if (i < 0) return false;
    // After a value: the containers it closes, then the next value's comma, or the end.
    for (;;) {
      i = space(b, i);
      if (open.length === 0) return i === b.length;
      const inside = open[open.length - 1];
      const d = b[i];
      if (d === 0x2c) {
        i = space(b, i + 1);
        if (inside === OBJECT) i = member(b, i);
        break;
      }
      if (d !== (inside === OBJECT ? 0x7d : 0x5d)) return false;
      open.pop();
      i++;
    }
    if (i < 0) return false;
  }
}

const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];

function space(b: Uint8Array, i: number): number {
  for (let c = b[i]; c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = b[++i]);
  return i;
}

/** A member's name and colon from i; the index of its value, or -1. */
function member(b: Uint8Array, i: number): number {
  if (b[i] !== 0x22) return -1;
  i = string(b, i);
  if (i < 0) return -1;
  i = space(b, i);
  return b[i] === 0x3a ? space(b, i + 1) : -1;
}

const isHex = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** A string from its opening quote at i; the index after its closing quote, or -1. */
function string(b: Uint8Array, i: number): number {
  for (i++; ;) {
    const c = b[i];
    if (c === 0x22) return i + 1;
    if (c === 0x5c) {
      const e = b[i + 1];
      if (e === 0x75) {
        if (!(isHex(b[i + 2]) && isHex(b[i + 3]) && isHex(b[i + 4]) && isHex(b[i + 5]))) return -1;
        i += 6;
      } else if (
        e === 0x22 ||
        e === 0x5c ||
        e === 0x2f ||
        e === 0x62 ||
        e === 0x66 ||
        e === 0x6e ||
        e === 0x72 ||
        e === 0x74
      ) {
        i += 2;
      } else return -1;
    } else if (c === undefined || c < 0x20) return -1;
    else i++;
  }
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** A number from i: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?; the index after it, or -1. */
function number(b: Uint8Array, i: number): number {
  if (b[i] === 0x2d) i++;
  if (b[i] === 0x30) i++;
  else if (isDigit(b[i])) while (isDigit(b[++i]));
  else return -1;
  if (b[i] === 0x2e) {
    if (!isDigit(b[++i])) return -1;
    while (isDigit(b[++i]));
  }
  if (b[i] === 0x65 || b[i] === 0x45) {
    i++;
    if (b[i] === 0x2b || b[i] === 0x2d) i++;
    if (!isDigit(b[i])) return -1;
    while (isDigit(b[++i]));
  }
  return i;
}

function word(b: Uint8Array, i: number, w: readonly number[]): number {
  for (let k = 0; k < w.length; k++) if (b[i + k] !== w[k]) return -1;
  return i + w.length;
}

/** What an entry is read into from a cloud v2 single-entry answer. */
export type EntryFields = Pick<
  EntryBody,
  'value' | 'revisionId' | 'createTime' | 'revisionCreateTime' | 'attributes' | 'users'
>;

const OPTIONAL_TEXTS = ['id', 'createTime', 'revisionCreateTime', 'state', 'etag'] as const;
const USER = /^users\/\d+$/;

/** A cloud v2 single-entry answer's fields as EntryBodySchema reads them. */
export function plainFields(body: unknown): EntryFields | undefined {
  if (!isRecord(body)) return undefined;
  const { path, revisionId, value, users, attributes } = body;
  if (typeof path !== 'string' || typeof revisionId !== 'string' || value === undefined) return undefined;
  for (const name of OPTIONAL_TEXTS) {
    const text = body[name];
    if (text !== undefined && typeof text !== 'string') return undefined;
  }
  const userIds: number[] = [];
  if (users !== undefined) {
    if (!Array.isArray(users)) return undefined;
    for (const user of users as unknown[]) {
      const id = typeof user === 'string' && USER.test(user) ? Number(user.slice(6)) : NaN;
      if (!Number.isSafeInteger(id)) return undefined;
      userIds.push(id);
    }
  }
  if (attributes !== undefined && !isRecord(attributes)) return undefined;
  return {
    value,
    revisionId,
    createTime: body.createTime as string | undefined,
    revisionCreateTime: body.revisionCreateTime as string | undefined,
    attributes: attributes ?? {},
    users: userIds,
  };
}

/** A cloud v2 List Entries page as listEntries reads it: each item's path and id, and the page token. */
export function plainEntriesPage(
  page: unknown,
): { dataStoreEntries: { path: string; id?: string }[]; nextPageToken?: string } | undefined {
  if (!isRecord(page)) return undefined;
  const { dataStoreEntries = [] } = page;
  const next = plainCursor(page.nextPageToken);
  if (!Array.isArray(dataStoreEntries) || next === false) return undefined;
  for (const item of dataStoreEntries as unknown[]) {
    if (!isRecord(item) || typeof item.path !== 'string') return undefined;
    if (item.id !== undefined && typeof item.id !== 'string') return undefined;
    for (const field in item) if (field !== 'path' && field !== 'id') return undefined; // the service documents no more
  }
  return { dataStoreEntries: dataStoreEntries as { path: string; id?: string }[], nextPageToken: next };
}
