// Reading what the service sent: a body against its schema, and an entry's metadata from its headers. A shape the
// client does not expect becomes a ResponseShapeError that names the field.
import type * as z from 'zod/mini';
import { ResponseShapeError } from './errors';
import {
  AttributesSchema,
  isUserIdArray,
  isRecord,
  UserIdsSchema,
  type EntryMetadata,
  type EntryVersion,
  type Headers,
  type Schema,
} from './schemas';

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

// Bulk engines read thousands of pages, and zod copies each. The plain* readers check the common shape by hand and
// give the schema's output; for anything else they give undefined, and zod reads it or names the field that is wrong.

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

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  // Header bytes arrive as latin1; JSON in them may be UTF-8.
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
  const text = header(headers, name);
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
  const version = header(headers, names.version);
  if (!version) {
    throw new ResponseShapeError(
      `Unexpected response: header ${names.version}: expected string, received undefined`,
      `header ${names.version}`,
    );
  }
  return {
    version,
    createdTime: header(headers, names.created),
    versionCreatedTime: header(headers, names.versionCreated),
    attributes: jsonHeader(headers, names.attributes, AttributesSchema, {}, isRecord),
    userIds: jsonHeader(headers, names.userIds, UserIdsSchema, [], isUserIdArray),
    contentMd5: header(headers, 'content-md5'),
  };
}
