import type { RowKeys } from '../core/rowKeys';

export const restrictionsKeys: RowKeys = {
  'restriction.active': { delete: 'universeExplorer.unban', open: 'universeExplorer.editRestriction' },
  'restriction.inactive': { open: 'universeExplorer.editRestriction' },
};
