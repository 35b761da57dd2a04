// The DuckDB side of the index: the only module that loads @duckdb/node-api. It is required on first use
// (universeIndex.ts), and the extension's bundle takes it from dist/query.js (esbuild.js), so activation never loads
// DuckDB. It defines no error classes of its own (a class from this bundle would fail `instanceof` in the other):
// DuckDB's errors pass through as they are, and a stop by the signal is an Error named AbortError.
import {
  DuckDBInstance,
  DuckDBTypeId,
  JsonDuckDBValueConverter,
  StatementType,
  type DuckDBConnection,
  type DuckDBDateValue,
  type DuckDBType,
  type DuckDBValueConverter,
  type Json,
} from '@duckdb/node-api';

export interface EngineOptions {
  /** DuckDB's threads (default: one per core). */
  threads?: number;
  /** DuckDB's memory_limit, e.g. "1GB". */
  memoryLimit?: string;
  /** Where DuckDB spills what does not fit in memory. */
  tempDirectory?: string;
}

/** A bound parameter: `$name` in the statement. */
export type Param = string | boolean | null;

export interface Statement {
  sql: string;
  params?: Record<string, Param>;
}

export interface Column {
  name: string;
  /** DuckDB's name of the type: VARCHAR, JSON, BIGINT[], TIMESTAMP, … */
  type: string;
}

export interface Rows {
  columns: Column[];
  /** JSON-safe: whole numbers beyond 2^53 as strings, times as ISO 8601 text, JSON columns as their text. */
  rows: unknown[][];
  /** More rows followed the ones given. */
  truncated: boolean;
}

export interface WriteOptions {
  signal?: AbortSignal;
  /** How far the work is (0–100), about every 200 ms while DuckDB can tell. */
  onProgress?: (percent: number) => void;
}

export interface Engine {
  /** Runs the statements in order in one transaction (none is kept unless all succeed); the rows each changed. */
  write(statements: Statement[], opts?: WriteOptions): Promise<number[]>;
  /** The kind of each statement in `sql` (SELECT, EXPLAIN, INSERT, …), without running any. */
  kinds(sql: string): Promise<string[]>;
  /** Runs one statement in a read-only transaction and gives at most `limit` rows. */
  read(sql: string, opts: { limit: number; signal?: AbortSignal }): Promise<Rows>;
  /** Lets go of the database (and its file lock) once no other user in this process holds it. */
  close(): void;
}

/** The database files open in this process: DuckDB must not open one file twice in a process. */
const open = new Map<string, { instance: Promise<DuckDBInstance>; users: number }>();

export async function openEngine(file: string, opts: EngineOptions = {}): Promise<Engine> {
  let held = open.get(file);
  if (!held) {
    const config: Record<string, string> = {
      // Nothing is downloaded: JSON, Parquet and ICU are built in.
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
    };
    if (opts.threads !== undefined) config.threads = String(opts.threads);
    if (opts.memoryLimit !== undefined) config.memory_limit = opts.memoryLimit;
    if (opts.tempDirectory !== undefined) config.temp_directory = opts.tempDirectory;
    held = { instance: DuckDBInstance.create(file, config), users: 0 };
    open.set(file, held);
    held.instance.catch(() => open.delete(file));
  }
  held.users++;
  let instance: DuckDBInstance;
  try {
    instance = await held.instance;
  } catch (error) {
    held.users--;
    throw error;
  }
  let closed = false;
  const entry = held;
  return {
    write: (statements, o = {}) => withConnection(instance, o.signal, (c) => writeAll(c, statements, o)),
    kinds: (sql) => withConnection(instance, undefined, (c) => kindsOf(c, sql)),
    read: (sql, o) => withConnection(instance, o.signal, (c) => readRows(c, sql, o.limit)),
    close: () => {
      if (closed) return;
      closed = true;
      if (--entry.users > 0) return;
      open.delete(file);
      instance.closeSync();
    },
  };
}

/** An Error named AbortError: how a stop reads everywhere in the product (api/errors.ts, isAbort). */
function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const error = new Error('The operation was aborted', { cause: reason });
  error.name = 'AbortError';
  return error;
}

/** Runs `fn` on a connection of its own, which the signal interrupts; the connection is closed after. */
async function withConnection<T>(
  instance: DuckDBInstance,
  signal: AbortSignal | undefined,
  fn: (c: DuckDBConnection) => Promise<T>,
): Promise<T> {
  if (signal?.aborted) throw abortError(signal);
  const c = await instance.connect();
  const interrupt = (): void => c.interrupt();
  signal?.addEventListener('abort', interrupt, { once: true });
  try {
    return await fn(c);
  } catch (error) {
    throw signal?.aborted ? abortError(signal) : error;
  } finally {
    signal?.removeEventListener('abort', interrupt);
    c.closeSync();
  }
}

async function writeAll(c: DuckDBConnection, statements: Statement[], o: WriteOptions): Promise<number[]> {
  let timer: NodeJS.Timeout | undefined;
  if (o.onProgress) {
    await c.run('SET enable_progress_bar = true');
    await c.run('SET enable_progress_bar_print = false');
    const report = o.onProgress;
    timer = setInterval(() => {
      const percent = c.progress.percentage;
      if (percent >= 0) report(percent);
    }, 200);
  }
  await c.run('BEGIN TRANSACTION');
  try {
    const changed: number[] = [];
    for (const s of statements) changed.push((await c.run(s.sql, s.params)).rowsChanged);
    await c.run('COMMIT');
    return changed;
  } catch (error) {
    await c.run('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    clearInterval(timer);
  }
}

async function kindsOf(c: DuckDBConnection, sql: string): Promise<string[]> {
  const extracted = await c.extractStatements(sql).catch((error: Error) => {
    // "Failed to extract statements: Parser Error: …": DuckDB's own message is the part after the prefix.
    throw new Error(error.message.replace(/^Failed to extract statements: /, ''), { cause: error });
  });
  const kinds: string[] = [];
  for (let i = 0; i < extracted.count; i++) {
    const prepared = await extracted.prepare(i);
    try {
      kinds.push(StatementType[prepared.statementType] ?? String(prepared.statementType));
    } finally {
      prepared.destroySync();
    }
  }
  return kinds;
}

async function readRows(c: DuckDBConnection, sql: string, limit: number): Promise<Rows> {
  await c.run('BEGIN TRANSACTION READ ONLY');
  try {
    const result = await c.stream(sql);
    const columns = result.columnNames().map((name, i) => ({ name, type: typeName(result.columnType(i)) }));
    const rows: unknown[][] = [];
    let truncated = false;
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      const converted = chunk.convertRows(jsonSafe);
      const room = limit - rows.length;
      if (converted.length > room) {
        for (let i = 0; i < room; i++) rows.push(converted[i]);
        truncated = true;
        break;
      }
      for (const row of converted) rows.push(row);
    }
    return { columns, rows, truncated };
  } finally {
    await c.run('ROLLBACK').catch(() => undefined);
  }
}

const typeName = (type: DuckDBType): string => type.alias ?? type.toString();

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A whole number as a number while a double holds it exactly, else as its digits. */
const wholeNumber = (n: bigint): number | string => (n <= MAX_SAFE && n >= -MAX_SAFE ? Number(n) : String(n));

/** ISO 8601 in UTC with as many fraction digits as the time has (3 or 6); DuckDB's text for ±infinity. */
function isoFromMicros(micros: bigint, fallback: () => string): string {
  const ms = micros / 1000n - (micros % 1000n < 0n ? 1n : 0n);
  const date = new Date(Number(ms));
  if (Number.isNaN(date.getTime())) return fallback();
  const rest = Number(micros - ms * 1000n);
  const iso = date.toISOString();
  return rest ? `${iso.slice(0, -1)}${String(rest).padStart(3, '0')}Z` : iso;
}

/** DuckDB's values as JSON can carry them without loss: its own JSON converter, but numbers and times as said. */
const jsonSafe: DuckDBValueConverter<unknown> = (value, type, converter) => {
  if (value === null) return null;
  switch (type.typeId) {
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
      return wholeNumber(value as bigint);
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return isoFromMicros((value as { micros: bigint }).micros, () => String(value));
    case DuckDBTypeId.TIMESTAMP_MS:
      return isoFromMicros((value as { millis: bigint }).millis * 1000n, () => String(value));
    case DuckDBTypeId.TIMESTAMP_S:
      return isoFromMicros((value as { seconds: bigint }).seconds * 1_000_000n, () => String(value));
    case DuckDBTypeId.TIMESTAMP_NS:
      return isoFromMicros((value as { nanos: bigint }).nanos / 1000n, () => String(value));
    case DuckDBTypeId.DATE:
      return (value as DuckDBDateValue).toString();
    default:
      return JsonDuckDBValueConverter(value, type, converter as DuckDBValueConverter<Json>);
  }
};
