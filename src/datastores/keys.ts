import type { RowKeys } from '../core/rowKeys';

export const dataStoresKeys: RowKeys = {
  entry: { delete: 'universeExplorer.deleteEntry' },
  'entry.notNumber': { delete: 'universeExplorer.deleteEntry' },
  operation: { delete: 'universeExplorer.forgetOperation' },
  'operation.undoable': { delete: 'universeExplorer.forgetOperation' },
};
