import type { CoreCommand } from './context';

export const showLog: CoreCommand = {
  id: 'universeExplorer.showLog',
  failure: 'show the log',
  run: (ctx) => ctx.log.show(),
};
