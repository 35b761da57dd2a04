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
