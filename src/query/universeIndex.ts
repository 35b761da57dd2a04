// One universe's query index (docs/ARCHITECTURE.md, "The query index"): `<dir>/<universe>/index.duckdb`, built
// per store from the export engine or an export file, kept current entry by entry, and queried read-only. DuckDB is
// loaded on first use, through engine.ts, and let go after a while unused so another window can open the file.
import fsp = require('node:fs/promises');
import path = require('node:path');
import { describeHeader, exportDataStore, isAbort, type OpenApiClient } from '../api';
import { IndexDatabase } from './database';
import { FIELD_LIMITS, jsonFieldsSql, readFields, type JsonFields } from './fields';
import { fileSafe, headerOf, startedAt } from './files';
import type { Engine } from './engine';
import {
  analyzed,
  entryUpdate,
  findValueSql,
  insertFromFile,
  isBlank,
  literal,
  playerEntriesSql,
  READING,
  recount,
  refusal,
  storeRows,
  type EntryUpdate,
  type IndexedEntry,
} from './sql';
import {
  QueryError,
  type BuildOptions,
  type BuildResult,
  type IndexedPart,
  type LiveBuildArgs,
  type QueryOptions,
  type QueryResult,
  type RowUpdate,
  type UniverseIndexOptions,
} from './types';

const DEFAULT_LIMIT = 1000;

export class UniverseIndex {
  /** `<dir>/<universe key, file-safe>`: the index and what its builds keep. */
  readonly folder: string;
  /** The DuckDB database. */
  readonly file: string;
  private readonly universeId: string;
  private readonly db: IndexDatabase;
  /** Stores being built: entry updates that arrive meanwhile, applied again after the load. */
  private readonly building = new Map<string, Map<string, EntryUpdate>>();

  constructor(private readonly opts: UniverseIndexOptions) {
    this.folder = path.join(opts.dir, fileSafe(opts.universeKey));
    this.file = path.join(this.folder, 'index.duckdb');
    this.universeId = String(opts.universeId);
    this.db = new IndexDatabase({
      file: this.file,
      name: opts.universeKey,
      threads: opts.threads,
      memoryLimit: opts.memoryLimit,
      idleCloseMs: opts.idleCloseMs,
    });
  }

  /**
   * Indexes an export file (the format of api/bulk/ndjson.ts, with its header line): its store's rows (or its
   * scope's) are replaced by the file's entries. DuckDB reads the file itself. The header must name this universe.
   */
  async buildFromFile(file: string, opts: Pick<BuildOptions, 'signal' | 'onProgress'> = {}): Promise<BuildResult> {
    const started = Date.now();
    const header = await headerOf(file);
    if (String(header.universeId) !== this.universeId) {
      throw new Error(
        `${file} holds an export of ${describeHeader(header)}, not of universe ${this.universeId}; ` +
          "index it in its own universe's index",
      );
    }
    const full = path.resolve(file);
    const asOf = (await fsp.stat(full)).mtime.toISOString();
    const scope = header.allScopes ? undefined : header.scope;
    // DuckDB reads a path as a pattern: a name with * ? [ ] { } is read through a link (or copy) of a plain name.
    const plain = /[*?[\]{}]/.test(full)
      ? path.join(this.folder, 'builds', `file-${process.pid}-${Date.now()}.ndjson`)
      : full;
    if (plain !== full) {
      await fsp.mkdir(path.dirname(plain), { recursive: true });
      await fsp.link(full, plain).catch(() => fsp.copyFile(full, plain));
    }
    try {
      const entries = await this.load(plain, header.datastoreName, scope, { asOf, source: full }, opts);
      return { store: header.datastoreName, scope, entries, asOf, ms: Date.now() - started };
    } finally {
      if (plain !== full) await fsp.rm(plain, { force: true });
    }
  }

  /**
   * Indexes a store (or one of its scopes) as the service holds it now: the export engine writes it into a file of
   * the index folder, paced and cancellable as any export, and the file is loaded when complete. A build that
   * stopped goes on from the same file the next time (unless `resume: false`). Building a store again (refresh)
   * replaces its rows.
   */
  async build(client: OpenApiClient, args: LiveBuildArgs, opts: BuildOptions = {}): Promise<BuildResult> {
    const started = Date.now();
    const { store } = args;
    if (this.building.has(store)) {
      throw new Error(`${JSON.stringify(store)} is being indexed already; wait for that build, or cancel it`);
    }
    // Updates to the store from now on are applied again after the load (updateEntry).
    const pending = new Map<string, EntryUpdate>();
    this.building.set(store, pending);
    try {
      return await this.buildLive(client, args, opts, pending, started);
    } finally {
      this.building.delete(store);
    }
  }

  private async buildLive(
    client: OpenApiClient,
    { store, scope, api, resume: resumeAsked }: LiveBuildArgs,
    opts: BuildOptions,
    pending: Map<string, EntryUpdate>,
    started: number,
  ): Promise<BuildResult> {
    const name = fileSafe(store) + (scope === undefined ? '' : `.scope-${fileSafe(scope)}`);
    const builds = path.join(this.folder, 'builds');
    const file = path.join(builds, `${name}.ndjson`);
    const sidecar = path.join(builds, `${name}.json`);
    await fsp.mkdir(builds, { recursive: true });
    // The sidecar says when the file's first part was read; without the file there is nothing to go on from.
    if (resumeAsked === false || !(await exists(file))) await fsp.rm(sidecar, { force: true });
    let asOf = await startedAt(sidecar);
    const resume = asOf !== undefined;
    if (asOf === undefined) {
      asOf = new Date().toISOString();
      await fsp.writeFile(sidecar, JSON.stringify({ startedAt: asOf }));
    }
    const exported = await exportDataStore(
      client,
      {
        universeId: this.opts.universeId,
        datastoreName: store,
        scope,
        allScopes: scope === undefined,
        file,
        resume,
        api,
        times: true,
        notJsonAsText: true,
      },
      {
        signal: opts.signal,
        concurrency: opts.concurrency,
        budgetShare: opts.budgetShare,
        onProgress: opts.onProgress && ((p) => opts.onProgress!({ phase: 'reading', ...p })),
      },
    );
    const entries = await this.load(
      file,
      store,
      scope,
      { asOf, source: 'service', failed: exported.failed, failuresFile: exported.failuresFile },
      opts,
      pending,
    );
    await Promise.all([fsp.rm(file, { force: true }), fsp.rm(sidecar, { force: true })]);
    return { store, scope, entries, asOf, ms: Date.now() - started, export: exported };
  }

  /** Same as build: the store's rows are replaced by what the service holds now. */
  refresh(client: OpenApiClient, args: LiveBuildArgs, opts: BuildOptions = {}): Promise<BuildResult> {
    return this.build(client, args, opts);
  }

  /**
   * Keeps rows current after the editor read, saved or restored their entries (`"deleted"`: gone), in one
   * transaction. Only stores (and scopes) the index holds are changed; answers how many updates were applied. An
   * update that arrives while its store is being built is applied again after the build's load, so the build's older
   * copy does not win.
   */
  async updateEntries(updates: readonly RowUpdate[]): Promise<number> {
    const made = updates.map((u) => ({ store: u.store, ...entryUpdate(u.store, u.scope, u.key, u.entry), key: u.key }));
    for (const u of made) this.building.get(u.store)?.set(JSON.stringify([u.scope, u.key]), u);
    if (!made.length) return 0;
    return this.db.exclusive(async (engine) => {
      const stores = [...new Set(made.map((u) => literal(u.store)))].join(', ');
      const { rows } = await engine.read(`SELECT store, scope FROM index_info WHERE store IN (${stores})`, {
        limit: Number.MAX_SAFE_INTEGER,
      });
      const held = made.filter((u) =>
        rows.some(([store, scope]) => store === u.store && (scope ?? u.scope) === u.scope),
      );
      if (!held.length) return 0;
      const recounts = [...new Set(held.map((u) => u.store))].map((store) => ({ sql: recount(store) }));
      await engine.write([...held.flatMap((u) => u.statements), ...recounts]);
      return held.length;
    });
  }

  /** updateEntries for one entry: whether it was applied. */
  async updateEntry(store: string, scope: string, key: string, entry: IndexedEntry | 'deleted'): Promise<boolean> {
    return (await this.updateEntries([{ store, scope, key, entry }])) === 1;
  }

  /** Whether a build of the store runs now (updates to it are then kept for after its load). */
  isBuilding(store: string): boolean {
    return this.building.has(store);
  }

  /**
   * Runs one statement that reads (SELECT, WITH, DESCRIBE, SHOW, EXPLAIN, PRAGMA table_info) in a read-only
   * transaction. Anything else is refused with a QueryError saying why; a failure is a QueryError with DuckDB's
   * message (which names the line and column).
   */
  async query(sql: string, opts: QueryOptions = {}): Promise<QueryResult> {
    const limit = opts.limit ?? DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`limit must be a whole number, not ${limit}`);
    return this.db.use(async (engine) => {
      await this.checkReading(engine, sql);
      try {
        return await engine.read(sql, { limit, signal: opts.signal });
      } catch (error) {
        throw asQueryError(error);
      }
    });
  }

  /** findValueSql(text) run: the rows, and the SQL, which the user may edit and run through query(). */
  async findValue(text: string, opts: QueryOptions = {}): Promise<QueryResult & { sql: string }> {
    const sql = findValueSql(text);
    return { sql, ...(await this.query(sql, opts)) };
  }

  /** playerEntriesSql(userId) run: the rows, and the SQL. */
  async playerEntries(
    userId: number | string | bigint,
    opts: QueryOptions = {},
  ): Promise<QueryResult & { sql: string }> {
    const sql = playerEntriesSql(userId);
    return { sql, ...(await this.query(sql, opts)) };
  }

  /**
   * The JSON fields seen in the values, the most common first (jsonFieldsSql): a sample of a large index, a few levels
   * down. For completions; cheap enough to run on demand and keep until the next build.
   */
  async jsonFields(opts: { signal?: AbortSignal } = {}): Promise<JsonFields> {
    const { rows } = await this.db.use((engine) =>
      engine.read(jsonFieldsSql(), { limit: FIELD_LIMITS.paths, signal: opts.signal }),
    );
    return readFields(rows);
  }

  /** What is indexed: one row per build (index_info). */
  async info(): Promise<IndexedPart[]> {
    const { rows } = await this.db.use((engine) =>
      engine.read(
        'SELECT store, scope, entries, as_of, built_at, source, failed, failures_file FROM index_info ' +
          'ORDER BY store, scope NULLS FIRST',
        { limit: Number.MAX_SAFE_INTEGER },
      ),
    );
    return rows.map(([store, scope, entries, asOf, builtAt, source, failed, failuresFile]) => ({
      store: store as string,
      ...(scope === null ? {} : { scope: scope as string }),
      entries: Number(entries),
      asOf: asOf as string,
      builtAt: builtAt as string,
      source: source as string,
      failed: Number(failed),
      ...(failuresFile === null ? {} : { failuresFile: failuresFile as string }),
    }));
  }

  /** Writes every entry to `<dir>/entries.parquet` (zstd), in store, scope and key order. */
  async exportParquet(
    dir: string,
    opts: { signal?: AbortSignal; onProgress?: (percent: number) => void } = {},
  ): Promise<{ file: string; rows: number }> {
    await fsp.mkdir(dir, { recursive: true });
    const file = path.resolve(dir, 'entries.parquet');
    const [rows] = await this.db.exclusive((engine) =>
      engine.write(
        [
          {
            sql:
              `COPY (SELECT * FROM entries ORDER BY store, scope, key) TO ${literal(file)} ` +
              '(FORMAT parquet, COMPRESSION zstd)',
          },
        ],
        { signal: opts.signal, onProgress: opts.onProgress },
      ),
    );
    return { file, rows };
  }

  /** Takes a store out of the index. */
  async dropStore(store: string): Promise<void> {
    await this.db.exclusive((engine) =>
      engine.write([
        { sql: `DELETE FROM entries WHERE ${storeRows(store, undefined)}` },
        { sql: `DELETE FROM index_info WHERE ${storeRows(store, undefined)}` },
      ]),
    );
  }

  /** Lets go of the database once what runs on it is done (it opens again on the next call). */
  close(): Promise<void> {
    return this.db.close();
  }

  /** Replaces the rows of `store` (or its scope) with a file's entries, and says what was built, in one transaction. */
  private async load(
    file: string,
    store: string,
    scope: string | undefined,
    built: { asOf: string; source: string; failed?: number; failuresFile?: string },
    opts: Pick<BuildOptions, 'signal' | 'onProgress'>,
    pending?: Map<string, EntryUpdate>,
  ): Promise<number> {
    const report = opts.onProgress;
    report?.({ phase: 'loading' });
    return this.db.exclusive(async (engine) => {
      const again = [...(pending?.values() ?? [])].filter((u) => scope === undefined || u.scope === scope);
      await engine.write(
        [
          { sql: `DELETE FROM entries WHERE ${storeRows(store, scope)}` },
          { sql: `DELETE FROM index_info WHERE ${storeRows(store, scope)}` },
          { sql: insertFromFile(file, store, scope) },
          {
            sql:
              "INSERT INTO index_info VALUES ($store, $scope, 0, CAST($asOf AS TIMESTAMPTZ) AT TIME ZONE 'UTC', " +
              "CAST($builtAt AS TIMESTAMPTZ) AT TIME ZONE 'UTC', $source, CAST($failed AS BIGINT), $failuresFile)",
            params: {
              store,
              scope: scope ?? null,
              asOf: built.asOf,
              builtAt: new Date().toISOString(),
              source: built.source,
              failed: String(built.failed ?? 0),
              failuresFile: built.failuresFile ?? null,
            },
          },
          ...again.flatMap((u) => u.statements),
          { sql: recount(store) },
        ],
        { signal: opts.signal, onProgress: report && ((percent) => report({ phase: 'loading', percent })) },
      );
      const { rows } = await engine.read(`SELECT count(*) FROM entries WHERE ${storeRows(store, scope)}`, {
        limit: 1,
      });
      return Number(rows[0][0]);
    });
  }

  /** Refuses what is not one statement that reads, saying why. */
  private async checkReading(engine: Engine, sql: string): Promise<void> {
    if (isBlank(sql)) throw new QueryError('There is no statement to run', true);
    let kinds: string[];
    try {
      kinds = await engine.kinds(sql);
    } catch (error) {
      throw asQueryError(error);
    }
    if (kinds.length !== 1) {
      throw new QueryError(`One statement at a time: this text holds ${kinds.length}`, true);
    }
    if (!READING.includes(kinds[0])) throw new QueryError(refusal(kinds[0]), true);
    const inner = analyzed(sql);
    if (inner !== undefined) {
      const innerKinds = await engine.kinds(inner).catch(() => ['an unreadable statement']);
      if (innerKinds.some((k) => !READING.includes(k))) {
        throw new QueryError(`${refusal(innerKinds.join(', '))} (EXPLAIN ANALYZE runs the statement)`, true);
      }
    }
  }
}

const exists = (file: string): Promise<boolean> =>
  fsp.access(file).then(
    () => true,
    () => false,
  );

function asQueryError(error: unknown): Error {
  if (isAbort(error) || error instanceof QueryError) return error as Error;
  const message = error instanceof Error ? error.message : String(error);
  return new QueryError(message, false, { cause: error });
}
