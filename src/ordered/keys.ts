import type { RowKeys } from '../core/rowKeys';

export const orderedKeys: RowKeys = {
  orderedEntry: { delete: 'universeExplorer.deleteOrderedEntry' },
};
