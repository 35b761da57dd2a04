// The query index of a universe's data stores on DuckDB (docs/ARCHITECTURE.md, "The query index"). No vscode here,
// and nothing of DuckDB is loaded until an index is used.
export { fileSafe } from './files';
export { QueryError, UniverseIndex } from './universeIndex';
export type {
  BuildOptions,
  BuildProgress,
  BuildResult,
  IndexedPart,
  LiveBuildArgs,
  QueryOptions,
  QueryResult,
  RowUpdate,
  UniverseIndexOptions,
} from './types';
export type { Column } from './engine';
export { ENTRIES_COLUMNS, findValueSql, INDEX_INFO_COLUMNS, playerEntriesSql, type IndexedEntry } from './sql';
