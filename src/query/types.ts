// What a query index takes and gives: its options, a build's arguments, progress and result, row updates, a
// query's, what is indexed, and the error of a query. No DuckDB here.
import type { ApiVersion, ExportCounts, ExportResult } from '../api';
import type { Rows } from './engine';
import type { IndexedEntry } from './sql';

export interface UniverseIndexOptions {
  /** The folder holding every universe's index (the editor passes its global storage). */
  dir: string;
  /** The universe's key (core's `universeKey`, "<connection>/<universe id>"): the name of its folder. */
  universeKey: string;
  /** The universe's id, as the service knows it: what live builds export and files must name. */
  universeId: number | string;
  /** DuckDB's threads (default: one per core). */
  threads?: number;
  /** DuckDB's memory_limit (default "1GB"); what does not fit spills to `<folder>/tmp`. */
  memoryLimit?: string;
  /** The database is let go this long after its last use (default 30 s), so another window can open it. */
  idleCloseMs?: number;
}

export interface LiveBuildArgs {
  store: string;
  /** One scope; all scopes when left out. */
  scope?: string;
  /** The data stores API to read through (default v1). */
  api?: ApiVersion;
  /** Go on from a build that stopped, in the same file (default); false starts over. */
  resume?: boolean;
}

export type BuildProgress =
  ({ phase: 'reading'; ratePerSecond: number } & ExportCounts) | { phase: 'loading'; percent?: number };

export interface BuildOptions {
  signal?: AbortSignal;
  onProgress?: (progress: BuildProgress) => void;
  /** Requests in flight at most (the export's, default 16). */
  concurrency?: number;
  /** The share of each rate window the export may spend (the setting universeExplorer.bulk.budgetShare). */
  budgetShare?: number;
}

export interface BuildResult {
  store: string;
  /** The scope built; undefined: all scopes. */
  scope?: string;
  /** Rows now in the index for what was built. */
  entries: number;
  /** When the entries were read (ISO 8601): a live build's start (its first part's, when resumed), a file's time. */
  asOf: string;
  ms: number;
  /** A live build: what its export did (entries it could not read are in `failuresFile`). */
  export?: ExportResult;
}

/** An entry's row to keep current: its value and metadata as read or written, or `"deleted"`. */
export interface RowUpdate {
  store: string;
  scope: string;
  key: string;
  entry: IndexedEntry | 'deleted';
}

export interface QueryOptions {
  signal?: AbortSignal;
  /** Rows at most (default 1,000); `truncated` says when there were more. */
  limit?: number;
}

export type QueryResult = Rows;

/** One row of index_info (see sql.ts). */
export interface IndexedPart {
  store: string;
  /** Undefined: all scopes of the store. */
  scope?: string;
  entries: number;
  asOf: string;
  builtAt: string;
  /** "service", or the export file's path. */
  source: string;
  failed: number;
  failuresFile?: string;
}

/** A query that failed (DuckDB's message, with the position it names) or that is not run (`refused`). */
export class QueryError extends Error {
  constructor(
    message: string,
    readonly refused = false,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'QueryError';
  }
}
