import { t } from '../text';
import type { CoreCommand } from './context';

export const showLog: CoreCommand = {
  id: 'universeExplorer.showLog',
  get failure() {
    return t`show the log`;
  },
  run: (ctx) => ctx.log.show(),
};
