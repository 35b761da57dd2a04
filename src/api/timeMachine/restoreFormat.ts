// The files of a restore, NDJSON, next to the plan `<plan>`:
// - `<plan>`: `{"restorePlan":{universeId, datastoreName, selection, time?, planned, undoOf?, copyOf?, putBackOf?,
//   undoRecord?, erase?}}`, then one action per key: `{n, action, scope, key, now, then?, bytes, raw?, base64?,
//   attributes?, userIds?, replaces?}` (raw: the exact JSON text; replaces: the value of `now`, read when planned).
//   `erase: {userId, stores}` marks a plan of Erase Player Data (erase.ts): its deletes remove the entries tied to
//   that user, its writes put back each shared entry's own bytes and attributes with the user's id taken out of its
//   user ids (`then` = `now`, the version read); `stores` are the stores the erase searched, this one among them.
// - `<plan>.audit.ndjson`: `{"restoreAudit":{universeId, datastoreName, plan}}`, then one line per write:
//   `{n, action, scope, key, before, written, found?, raced?, replaced?, at?}` (replaced: the value of `before`;
//   at: when the run recorded it, this machine's clock, absent in audits written before it was kept).
// - `<plan>.skipped.ndjson`: `{n, action, scope, key, reason, current?, at?}` per key left alone.
// - `<plan>.failures.ndjson`: `{n, action, scope, key, error, at?}`, replaced each run (failed actions are tried
//   again).
import { isUtf8 } from 'node:buffer';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { readLines } from '../bulk/ndjson';
import { isRecord } from '../schemas';

/**
 * A value kept in a file: its exact bytes (`raw`, the JSON text, when they are UTF-8 JSON; else `base64`), its
 * attributes and user ids.
 */
export interface ValueRecord {
  raw?: string;
  base64?: string;
  attributes: Record<string, unknown>;
  userIds: number[];
}

/** The record of an entry read: the text when its bytes are UTF-8 JSON, else base64. */
export function recordOf(entry: { raw: Buffer; attributes: Record<string, unknown>; userIds: number[] }): ValueRecord {
  const { raw, attributes, userIds } = entry;
  let text: string | undefined;
  if (isUtf8(raw)) {
    text = raw.toString('utf8');
    try {
      JSON.parse(text);
    } catch {
      text = undefined;
    }
  }
  return text === undefined
    ? { base64: raw.toString('base64'), attributes, userIds }
    : { raw: text, attributes, userIds };
}

/** The bytes a record or an action holds: its text, or its base64 decoded. */
export const bytesOf = (v: { raw?: string; base64?: string }): string | Buffer =>
  v.raw ?? Buffer.from(v.base64 ?? '', 'base64');

const isValueRecord = (v: unknown): v is ValueRecord =>
  isRecord(v) &&
  (typeof v.raw === 'string' || typeof v.base64 === 'string') &&
  isRecord(v.attributes) &&
  Array.isArray(v.userIds);

/** write: put back the value then (matchVersion = now); recreate: a key deleted since (exclusiveCreate); delete. */
export type RestoreActionKind = 'write' | 'recreate' | 'delete';

export interface RestoreAction {
  /** 1-based, in plan order. */
  n: number;
  action: RestoreActionKind;
  scope: string;
  key: string;
  /** The key's newest version when planned: live for write and delete, a deletion for recreate. */
  now: string;
  /** The version put back (write, recreate). */
  then?: string;
  /** Bytes of the value written (0 for a delete). */
  bytes: number;
  /** The exact JSON text written (write, recreate). */
  raw?: string;
  /** Instead of raw: the exact bytes written, when they are no UTF-8 JSON (an undo from a record). */
  base64?: string;
  attributes?: Record<string, unknown>;
  userIds?: number[];
  /** What `now` holds, read when planned (write, delete): the run keeps it in its audit line for Undo. */
  replaces?: ValueRecord;
}

export interface RestorePlanHeader {
  universeId: number | string;
  datastoreName: string;
  selection: { scope?: string; allScopes?: boolean; prefix?: string; userId?: number; keys?: true };
  /** The moment restored (ISO); absent in an undo plan. */
  time?: string;
  planned: string;
  /** The audit file an undo plan puts back. */
  undoOf?: string;
  /** What a copy plan (planCopy) copies from: another store, or an export file. */
  copyOf?:
    { universeId: number | string; datastoreName: string; scope?: string; allScopes?: boolean } | { file: string };
  /** The audit file whose raced deletes a put-back plan (planPutBack) re-creates. */
  putBackOf?: string;
  /** Where the run keeps the value each action replaces (Undo reads it there, not from history), and how long. */
  undoRecord?: { file: string; kept: string };
  /** A plan of Erase Player Data (planErase): the user erased, and every store the erase searched. */
  erase?: { userId: number; stores: { universeId: number | string; datastoreName: string }[] };
}

export type SkipReason = 'changed' | 'exists' | 'deleted';

export interface SkippedKey {
  n: number;
  action: RestoreActionKind;
  scope: string;
  key: string;
  /** changed: not the version planned (write, delete); exists: a re-creation found the key; deleted: already gone. */
  reason: SkipReason;
  /** The version found, when known. */
  current?: string;
  /** When the run recorded it (ISO, this machine's clock); absent in files written before it was kept. */
  at?: string;
}

export interface AuditLine {
  n: number;
  action: RestoreActionKind;
  scope: string;
  key: string;
  /** The version the action replaced (a deletion for recreate). */
  before: string;
  /** The version the action made (a deletion for delete). */
  written: string;
  /** Already applied when this run came to it (a stopped run whose write went through), so not sent again. */
  found?: true;
  /** A delete whose version check passed, but the version it deleted was written in between (its `before`). */
  raced?: true;
  /**
   * What `before` held (write, delete), so Undo needs no version the service may thin. Absent for a recreate, when
   * it could not be read, and in audits written before it was kept.
   */
  replaced?: ValueRecord;
  /** When the run recorded it (ISO, this machine's clock); absent in audits written before it was kept. */
  at?: string;
}

/** An audit file's header. */
export interface RestoreAuditHeader {
  universeId: number | string;
  datastoreName: string;
  /** The plan the audit is of. */
  plan?: string;
}

export const auditFileFor = (plan: string): string => `${plan}.audit.ndjson`;
export const skippedFileFor = (plan: string): string => `${plan}.skipped.ndjson`;
export const restoreFailuresFileFor = (plan: string): string => `${plan}.failures.ndjson`;

/** The plan file an undo writes by default: next to the restored plan. */
export const undoPlanFileFor = (auditFile: string): string =>
  `${auditFile.replace(/\.audit\.ndjson$/, '')}.undo.ndjson`;

/** The plan file that puts back what raced deletes removed (planPutBack): next to the restored plan. */
export const putBackPlanFileFor = (auditFile: string): string =>
  `${auditFile.replace(/\.audit\.ndjson$/, '')}.put-back.ndjson`;

/** What the plan header says of the record a run keeps in its audit file. */
export const undoRecordOf = (planFile: string): { file: string; kept: string } => ({
  file: auditFileFor(planFile),
  kept:
    'as long as that file is kept: Undo reads each replaced value, its attributes and user ids there, not from the ' +
    "service's history (which keeps only an hour's last write, and a superseded version for 30 days)",
});

const ACTIONS: readonly unknown[] = ['write', 'recreate', 'delete'];

/** An action line of a plan, with its newline. */
export function formatAction(a: RestoreAction): string {
  const { n, action, scope, key, now, then, bytes, raw, base64, attributes, userIds, replaces } = a;
  return `${JSON.stringify({ n, action, scope, key, now, then, bytes, raw, base64, attributes, userIds, replaces })}\n`;
}

/** An action line of a plan; throws an Error naming the line when it is not one. */
function parseAction(text: string, line: number): RestoreAction {
  let a: unknown;
  try {
    a = JSON.parse(text);
  } catch (error) {
    throw new Error(`Line ${line} of the plan is not valid JSON (${(error as Error).message})`, { cause: error });
  }
  const ok =
    isRecord(a) &&
    Number.isSafeInteger(a.n) &&
    ACTIONS.includes(a.action) &&
    typeof a.scope === 'string' &&
    typeof a.key === 'string' &&
    typeof a.now === 'string' &&
    (a.action === 'delete' ||
      ((typeof a.raw === 'string' || typeof a.base64 === 'string') && typeof a.then === 'string'));
  if (!ok) throw new Error(`Line ${line} of the plan is not a restore action`);
  const r = a as Record<string, unknown>;
  if (r.replaces !== undefined && !isValueRecord(r.replaces)) delete r.replaces;
  return a as unknown as RestoreAction;
}

/** The header of a plan file, or an Error saying it is not one. */
export async function readPlanHeader(planFile: string): Promise<RestorePlanHeader> {
  for await (const lines of readLines(planFile)) {
    const first = lines[0];
    let parsed: unknown;
    try {
      parsed = JSON.parse(first.text);
    } catch {
      break;
    }
    const h = isRecord(parsed) ? parsed.restorePlan : undefined;
    if (isRecord(h) && typeof h.datastoreName === 'string') return h as unknown as RestorePlanHeader;
    break;
  }
  throw new Error(`${planFile} is not a restore plan: its first line is no {"restorePlan":...} header`);
}

/** The audit file's header, or an Error saying it is not one. */
export async function readAuditHeader(auditFile: string): Promise<RestoreAuditHeader> {
  for await (const lines of readLines(auditFile)) {
    try {
      const parsed: unknown = JSON.parse(lines[0].text);
      const h = isRecord(parsed) ? parsed.restoreAudit : undefined;
      if (isRecord(h) && typeof h.datastoreName === 'string') {
        return h as unknown as RestoreAuditHeader;
      }
    } catch {
      // said below
    }
    break;
  }
  throw new Error(`${auditFile} is not a restore audit: its first line is no {"restoreAudit":...} header`);
}

/** Every JSON object line of a file after its header, or none when the file does not exist. */
export async function* objectLines(file: string): AsyncGenerator<Record<string, unknown>> {
  try {
    await stat(file);
  } catch {
    return;
  }
  for await (const lines of readLines(file)) {
    for (const line of lines) {
      if (!line.text.trim()) continue;
      const parsed: unknown = JSON.parse(line.text);
      if (isRecord(parsed) && typeof parsed.n === 'number') yield parsed;
    }
  }
}

/** Appends lines one at a time, each written before the next (a run that is killed keeps every line it wrote). */
export class Appender {
  private handle?: FileHandle;
  private queue: Promise<void> = Promise.resolve();
  lines = 0;

  constructor(
    readonly file: string,
    private readonly header?: string,
  ) {}

  write(line: string): Promise<void> {
    this.lines++;
    const next = this.queue.then(async () => {
      if (!this.handle) {
        const fresh = !(await stat(this.file).catch(() => undefined))?.size;
        this.handle = await open(this.file, 'a');
        if (fresh && this.header) await this.handle.appendFile(this.header);
      }
      await this.handle.appendFile(line);
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.handle?.close();
  }
}

/** A plan's actions as the plan file is read, in batches. */
export async function* planActions(planFile: string, signal?: AbortSignal): AsyncGenerator<RestoreAction[]> {
  for await (const lines of readLines(planFile, signal)) {
    yield lines.filter((l) => l.number > 1 && l.text.trim() !== '').map((l) => parseAction(l.text, l.number));
  }
}

/** An audit line, or undefined when the text is not one (not JSON, cut short, or a field missing). */
function auditLine(text: string): AuditLine | undefined {
  let a: unknown;
  try {
    a = JSON.parse(text);
  } catch {
    return undefined;
  }
  const ok =
    isRecord(a) &&
    typeof a.n === 'number' &&
    ACTIONS.includes(a.action) &&
    typeof a.scope === 'string' &&
    typeof a.key === 'string' &&
    typeof a.before === 'string' &&
    typeof a.written === 'string';
  if (!ok) return undefined;
  const r = a as Record<string, unknown>;
  if (r.replaced !== undefined && !isValueRecord(r.replaced)) delete r.replaced; // Undo falls back to history
  return a as unknown as AuditLine;
}

/**
 * The writes an audit file lists, in file order, as the file is read. The header and lines that are no audit line
 * (not JSON, cut short by a stop, a field missing) are skipped; a file that does not exist lists none.
 */
export async function* readAudit(file: string, signal?: AbortSignal): AsyncGenerator<AuditLine> {
  if (!(await stat(file).catch(() => undefined))) return;
  for await (const lines of readLines(file, signal)) {
    for (const line of lines) {
      const a = auditLine(line.text);
      if (a) yield a;
    }
  }
}
