// NDJSON for backups: one entry per line, the value kept as the exact JSON text the service sent, so big integers
// and number spellings survive (they are never parsed into floats and printed again).
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { isRecord } from '../schemas';

/** What an export file holds, said by its first line: `{"export":{...}}`. */
export interface ExportHeader {
  universeId: number | string;
  datastoreName: string;
  /** The one scope exported; absent with allScopes. */
  scope?: string;
  allScopes?: true;
}

export interface EntryLine {
  scope: string;
  key: string;
  /** The value's JSON text. */
  value: string;
  attributes: Record<string, unknown>;
  userIds: number[];
  version?: string;
  /** Fields the line leaves out (read as empty above): an import keeps the entry's own for them. */
  absent?: ('attributes' | 'userIds')[];
  /**
   * The stored value was not JSON and `value` is a JSON string of its text (ExportArgs.notJsonAsText): what a reader
   * such as the query index searches, never what an import writes.
   */
  notJson?: true;
}

/**
 * One export line (with its newline). JSON ignores whitespace between tokens, so line breaks in the value's text
 * (which one NDJSON line cannot hold) become spaces and whitespace around it is dropped; nothing else changes.
 */
export function formatEntryLine(e: EntryLine): string {
  return entryLineHead(e.scope, e.key) + lineValue(e.value) + entryLineTail(e.attributes, e.userIds, e.version);
}

/** A value's JSON text as a line holds it: line breaks as spaces, no whitespace around it. */
export function lineValue(text: string): string {
  return /^\s|[\r\n]|\s$/.test(text) ? text.replace(/[\r\n]/g, ' ').trim() : text;
}

/** An export line up to its value: `{"scope":...,"key":...,"value":`. */
export function entryLineHead(scope: string, key: string): string {
  if (scope !== lastScope) [lastScope, lastScopeJson] = [scope, jsonString(scope)];
  return `{"scope":${lastScopeJson},"key":${jsonString(key)},"value":`;
}

/** The scope of the last line and its JSON: lines of an export come one scope after another. */
let lastScope = 'global';
let lastScopeJson = '"global"';

/** An export line after its value, with its newline; `details` (lineDetails) goes last. */
export function entryLineTail(
  attributes: Record<string, unknown>,
  userIds: number[],
  version?: string,
  details = '',
): string {
  return (
    `,"attributes":${JSON.stringify(attributes)},"userIds":${userIdsJson(userIds)}` +
    `${version === undefined ? '' : `,"version":${jsonString(version)}`}${details}}\n`
  );
}

/**
 * The members an export asked for more (ExportArgs.times, notJsonAsText) write after the entry's own:
 * `"createdTime"` and `"updatedTime"` as the service said them, and `"notJson":true`.
 */
export function lineDetails(
  times: { createdTime?: string; updatedTime?: string } | undefined,
  notJson: boolean,
): string {
  let out = '';
  if (times?.createdTime !== undefined) out += `,"createdTime":${jsonString(times.createdTime)}`;
  if (times?.updatedTime !== undefined) out += `,"updatedTime":${jsonString(times.updatedTime)}`;
  return notJson ? `${out},"notJson":true` : out;
}

/** Printable ASCII except `"` and `\`: text JSON.stringify puts between quotes as it is. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** JSON.stringify of a string, without its cost for the common plain one (keys, versions). */
const jsonString = (s: string): string => (PLAIN.test(s) ? `"${s}"` : JSON.stringify(s));

/** JSON of user ids: whole numbers print alike as JSON and as text, without JSON.stringify's cost per line. */
function userIdsJson(ids: number[]): string {
  if (ids.length === 0) return '[]';
  for (const id of ids) if (!Number.isSafeInteger(id)) return JSON.stringify(ids);
  return `[${ids.join(',')}]`;
}

/**
 * Whether the bytes of a value that is known to be JSON go into a line as they are, the same bytes formatEntryLine
 * writes for their text: valid UTF-8 (decoding changes nothing), without a line break and without whitespace around
 * it. JSON whitespace is only space, tab, CR and LF, and in UTF-8 their bytes are never part of another character.
 */
export function valueBytesFit(raw: Buffer): boolean {
  const n = raw.length;
  if (n === 0 || isJsonSpace(raw[0]) || isJsonSpace(raw[n - 1])) return false;
  return raw.indexOf(10) < 0 && raw.indexOf(13) < 0 && isUtf8(raw);
}

const isJsonSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** The header line (with its newline): what the file holds, so a resume cannot mix two stores in one file. */
export function formatHeaderLine(h: ExportHeader): string {
  const what = h.allScopes ? { allScopes: true } : { scope: h.scope };
  return `${JSON.stringify({ export: { universeId: h.universeId, datastoreName: h.datastoreName, ...what } })}\n`;
}

const HEADER_START = /^\s*\{\s*"export"\s*:/;

/** The header a line holds, or undefined when it is no header line (an entry line, or anything else). */
export function parseHeaderLine(text: string): ExportHeader | undefined {
  if (!HEADER_START.test(text)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const h = isRecord(parsed) ? parsed.export : undefined;
  if (!isRecord(h) || typeof h.datastoreName !== 'string') return undefined;
  if (typeof h.universeId !== 'number' && typeof h.universeId !== 'string') return undefined;
  const { universeId, datastoreName } = h;
  if (h.allScopes === true) return { universeId, datastoreName, allScopes: true };
  return typeof h.scope === 'string' ? { universeId, datastoreName, scope: h.scope } : undefined;
}

/** Says what a header names, for messages: `universe 1, data store "A", scope "global"`. */
export function describeHeader(h: ExportHeader): string {
  const scope = h.allScopes ? 'all scopes' : `scope ${JSON.stringify(h.scope)}`;
  return `universe ${h.universeId}, data store ${JSON.stringify(h.datastoreName)}, ${scope}`;
}

export const sameExport = (a: ExportHeader, b: ExportHeader): boolean => describeHeader(a) === describeHeader(b);

/** Reads one line as an entry; throws an Error saying what is wrong with it. */
export function parseEntryLine(text: string): EntryLine {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`not valid JSON (${(error as Error).message})`, { cause: error });
  }
  if (!isRecord(parsed)) throw new Error('not a JSON object');
  const { scope = 'global', key, attributes = {}, userIds = [], version } = parsed;
  if (typeof key !== 'string' || key === '') throw new Error('"key" must be a non-empty string');
  if (typeof scope !== 'string' || scope === '') throw new Error('"scope" must be a non-empty string');
  if (!isRecord(attributes)) throw new Error('"attributes" must be a JSON object');
  if (!Array.isArray(userIds) || !userIds.every((id) => Number.isSafeInteger(id))) {
    throw new Error('"userIds" must be an array of whole numbers');
  }
  const value = memberText(text, 'value');
  if (value === undefined) throw new Error('"value" is missing');
  const line: EntryLine = { scope, key, value, attributes, userIds };
  if (typeof version === 'string') line.version = version;
  const absent = (['attributes', 'userIds'] as const).filter((name) => parsed[name] === undefined);
  if (absent.length) line.absent = absent;
  if (parsed.notJson === true) line.notJson = true;
  return line;
}

/**
 * The exact text of the top-level member `name` of a JSON object (the last one, as JSON.parse takes), or undefined.
 * `json` must already be known to be a valid JSON object.
 */
export function memberText(json: string, name: string): string | undefined {
  let found: string | undefined;
  let i = json.indexOf('{') + 1;
  for (;;) {
    i = skipSpace(json, i);
    if (json[i] === '}') return found;
    const keyEnd = skipString(json, i);
    const key = JSON.parse(json.slice(i, keyEnd)) as string;
    const start = skipSpace(json, skipSpace(json, keyEnd) + 1); // past the ':'
    const end = skipValue(json, start);
    if (key === name) found = json.slice(start, end);
    i = skipSpace(json, end);
    if (json[i] === ',') i++;
  }
}

function skipSpace(s: string, i: number): number {
  while (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r') i++;
  return i;
}

/** `i` at an opening quote; returns the index after the closing one. */
function skipString(s: string, i: number): number {
  for (i++; ;) {
    const q = s.indexOf('"', i);
    let backslashes = 0;
    while (s[q - 1 - backslashes] === '\\') backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    i = q + 1;
  }
}

const STRUCTURE = /[[\]{}"]/g;

function skipValue(s: string, i: number): number {
  if (s[i] === '"') return skipString(s, i);
  if (s[i] !== '{' && s[i] !== '[') {
    while (i < s.length && !',}] \t\r\n'.includes(s[i])) i++;
    return i;
  }
  let depth = 0;
  for (;;) {
    STRUCTURE.lastIndex = i;
    const m = STRUCTURE.exec(s)!;
    const c = m[0];
    if (c === '"') {
      i = skipString(s, m.index);
      continue;
    }
    depth += c === '{' || c === '[' ? 1 : -1;
    i = m.index + 1;
    if (depth === 0) return i;
  }
}

export interface Line {
  /** 1-based. */
  number: number;
  /** Without its line break (a trailing \r is dropped too). */
  text: string;
  /** Byte offset just after this line's \n; for an unterminated last line, the end of the file. */
  end: number;
  terminated: boolean;
}

/** The UTF-8 byte-order mark some editors put first in a file. */
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The lines of a file, streamed in batches (the lines each chunk read completes): a file of any size. A byte-order
 * mark at the start is not part of line 1.
 */
export async function* readLines(file: string, signal?: AbortSignal): AsyncGenerator<Line[]> {
  let rest: Buffer = Buffer.alloc(0);
  let offset = 0; // bytes before `rest`
  let number = 0;
  for await (const chunk of createReadStream(file, { signal })) {
    const buf = rest.length ? Buffer.concat([rest, chunk as Buffer]) : (chunk as Buffer);
    const lines: Line[] = [];
    let start = offset === 0 && number === 0 && buf.subarray(0, 3).equals(BOM) ? 3 : 0;
    for (let nl = buf.indexOf(10, start); nl >= 0; nl = buf.indexOf(10, start)) {
      lines.push({ number: ++number, text: decodeLine(buf, start, nl), end: offset + nl + 1, terminated: true });
      start = nl + 1;
    }
    offset += start;
    rest = buf.subarray(start);
    if (lines.length) yield lines;
  }
  if (rest.length)
    yield [
      { number: number + 1, text: decodeLine(rest, 0, rest.length), end: offset + rest.length, terminated: false },
    ];
}

function decodeLine(buf: Buffer, start: number, end: number): string {
  return buf.toString('utf8', start, end > start && buf[end - 1] === 13 ? end - 1 : end);
}

/** Where a bulk run lists what failed: next to its file. */
export const failuresFileFor = (file: string): string => `${file}.failures.ndjson`;

/**
 * The failures of a bulk run, one line each, written to the file as each happens: a run that is killed leaves every
 * failure it met. The file is made on the first failure.
 */
export class FailureLog {
  private handle?: FileHandle;
  private lines = 0;

  /** `append`: keep the lines of an earlier run (a run that goes on from where it stopped); else replace them. */
  private constructor(
    readonly file: string,
    private readonly append: boolean,
  ) {}

  /** A log for a new run: an earlier run's file is removed unless this run appends to it. */
  static async start(file: string, append: boolean): Promise<FailureLog> {
    if (!append) await rm(file, { force: true });
    return new FailureLog(file, append);
  }

  /** How many lines this run wrote. */
  get count(): number {
    return this.lines;
  }

  async write(line: string): Promise<void> {
    this.handle ??= await open(this.file, this.append ? 'a' : 'w');
    await this.handle.appendFile(line);
    this.lines++;
  }

  async close(): Promise<void> {
    await this.handle?.close();
  }
}

/** Bytes per buffer the writer fills; a longer line gets a buffer of its own size. */
const CHUNK = 64 * 1024;

/**
 * Writes lines to a file in batches: `write` encodes the line into a buffer at once (so the string is garbage at
 * once, not kept through collections until the next flush); the caller flushes when `full`; `close` writes the rest.
 */
export class LineWriter {
  private done: Buffer[] = [];
  private size = 0;
  private chunk = Buffer.allocUnsafe(CHUNK);
  private used = 0;

  private constructor(private readonly handle: FileHandle) {}

  /** `flags`: "a" appends, "w" replaces. */
  static async open(file: string, flags: 'a' | 'w'): Promise<LineWriter> {
    return new LineWriter(await open(file, flags));
  }

  write(line: string): void {
    this.room(line.length * 3); // UTF-8 takes at most 3 bytes per UTF-16 unit
    const bytes = this.chunk.write(line, this.used);
    this.used += bytes;
    this.size += bytes;
  }

  /** Writes bytes as they are (e.g. a value's JSON as the service sent it): nothing decoded and encoded again. */
  writeBytes(bytes: Buffer): void {
    this.room(bytes.length);
    this.used += bytes.copy(this.chunk, this.used);
    this.size += bytes.length;
  }

  /** Makes room for `most` bytes in the current buffer. */
  private room(most: number): void {
    if (this.chunk.length - this.used < most) {
      this.seal();
      if (this.chunk.length < most) this.chunk = Buffer.allocUnsafe(most);
    }
  }

  get full(): boolean {
    return this.size >= 256 * 1024;
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.handle.close();
    }
  }

  async flush(): Promise<void> {
    this.seal();
    const [buffers, size] = [this.done, this.size];
    if (!buffers.length) return;
    this.done = [];
    this.size = 0;
    const { bytesWritten } = await this.handle.writev(buffers);
    // After a short write, appendFile writes the rest from the current position, however many writes it takes.
    if (bytesWritten < size) await this.handle.appendFile(Buffer.concat(buffers).subarray(bytesWritten));
  }

  /** Moves the filled part of the current buffer to the list to write, and starts a new buffer. */
  private seal(): void {
    if (!this.used) return;
    this.done.push(this.chunk.subarray(0, this.used));
    this.chunk = Buffer.allocUnsafe(CHUNK);
    this.used = 0;
  }
}
