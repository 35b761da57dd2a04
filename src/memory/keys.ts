import type { RowKeys } from '../core/rowKeys';

/** Delete on a map item deletes it, after its question (Enter opens it: the row's click does). */
export const memoryKeys: RowKeys = {
  'memory.mapItem': { delete: 'universeExplorer.deleteMapItem' },
};
