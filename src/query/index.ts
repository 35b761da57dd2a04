// The query index of a universe's data stores on DuckDB (docs/ARCHITECTURE.md, "The query index"). No vscode here,
// and nothing of DuckDB is loaded until an index is used.
export { fieldName, jsonPathOf, type FieldPath, type JsonField, type JsonFields } from './fields';
export { fileSafe, headerOf } from './files';
export { UniverseIndex } from './universeIndex';
export {
  QueryError,
  type BuildOptions,
  type BuildProgress,
  type BuildResult,
  type IndexedPart,
  type LiveBuildArgs,
  type QueryOptions,
  type QueryResult,
  type RowUpdate,
  type UniverseIndexOptions,
} from './types';
export type { Column } from './engine';
export { ENTRIES_COLUMNS, findValueSql, INDEX_INFO_COLUMNS, playerEntriesSql, type IndexedEntry } from './sql';
export { playerEntryRows, type PlayerEntryRow } from './players';
